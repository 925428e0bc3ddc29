/** Units accepted by {@link parseDuration}, in milliseconds. */
const UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Outcome of {@link parseDuration}. */
export type DurationResult =
  | { readonly status: 'valid'; readonly ms: number }
  | { readonly status: 'invalid'; readonly message: string };

/**
 * Parses a duration such as `'25h'`, `'10m'`, `'30s'`, `'1500ms'`, `'2d'`, a compound
 * `'1h30m'`, or a bare number of milliseconds (`1500` or `'1500'`).
 * @example
 * parseDuration('25h'); // { status: 'valid', ms: 90_000_000 }
 */
export function parseDuration(input: string | number): DurationResult {
  if (typeof input === 'number') {
    return Number.isFinite(input) && input >= 0
      ? { status: 'valid', ms: input }
      : {
          status: 'invalid',
          message: `duration ${input} must be a non-negative number of milliseconds`,
        };
  }
  const text = input.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return { status: 'valid', ms: Number(text) };
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (const match of text.matchAll(part)) {
    const [whole, amount, unit] = match;
    total += Number(amount) * (UNITS[unit ?? ''] ?? Number.NaN);
    consumed += whole.length;
  }
  if (text.length === 0 || consumed !== text.length || !Number.isFinite(total)) {
    return {
      status: 'invalid',
      message: `"${input}" is not a duration; use e.g. 25h, 10m, 30s, 1500ms or 1h30m`,
    };
  }
  return { status: 'valid', ms: total };
}
