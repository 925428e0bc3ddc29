/**
 * Redaction of secrets in log records: known secret values anywhere in a string,
 * `Authorization` headers, and fields whose names say they hold a secret.
 */

const SECRET_FIELD =
  /^(authorization|api[-_]?key|apikey|secret|signing[-_]?secret|callback[-_]?secret|password|token|x-callback-signature)$/i;
const BEARER = /(bearer\s+)[^\s"',]+/gi;
export const REDACTED = '[redacted]';

/** Returns a copy of `value` with every secret replaced by `[redacted]`. */
export function redact(
  value: unknown,
  secrets: readonly string[],
  seen = new WeakSet<object>(),
): unknown {
  if (typeof value === 'string') return redactString(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Error) {
    const out: Record<string, unknown> = {
      name: value.name,
      message: redactString(value.message, secrets),
    };
    if (value.stack !== undefined) out['stack'] = redactString(value.stack, secrets);
    for (const [k, v] of Object.entries(value)) out[k] = redactField(k, v, secrets, seen);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactField(k, v, secrets, seen);
  return out;
}

function redactField(
  key: string,
  value: unknown,
  secrets: readonly string[],
  seen: WeakSet<object>,
) {
  if (SECRET_FIELD.test(key) && value !== undefined && value !== null && value !== '')
    return REDACTED;
  return redact(value, secrets, seen);
}

/** Replaces known secret values and bearer tokens inside a string. */
export function redactString(text: string, secrets: readonly string[]): string {
  let out = text.replace(BEARER, `$1${REDACTED}`);
  for (const secret of secrets) {
    // Very short values would redact ordinary words; secrets shorter than 6 are still
    // caught by field name and bearer rules.
    if (secret.length >= 6) out = out.split(secret).join(REDACTED);
  }
  return out;
}
