/**
 * Retry timing: the server's wait hints and bounded exponential backoff with full jitter
 * (spec part 7 and 8).
 */

/** Read retry policy of the client. */
export interface RetryPolicy {
  /** Attempts for a read, the first included. Default 4. */
  readonly maxAttempts: number;
  /** Cap of the first backoff step, in ms. Default 200. */
  readonly baseDelayMs: number;
  /** Cap of any backoff step, in ms. Default 5,000. */
  readonly maxDelayMs: number;
}

/** Defaults of {@link RetryPolicy}. */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 5_000 };

/** The headers a retry hint can come from (a `Headers` instance fits). */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * Parses `Retry-After`: delay-seconds or an HTTP date (relative to `now`).
 * Returns ms, or undefined when absent or unparseable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Parses `RateLimit-Reset`: a wait in seconds (spec part 8: NOT a timestamp). */
export function parseRateLimitReset(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Math.ceil(Number(text) * 1000);
}

/**
 * The wait the server asks for, in ms: the longest of `Retry-After`, `RateLimit-Reset`
 * and the envelope's `retryAfterSeconds`, or undefined when none is given.
 */
export function retryHintMs(headers: HeaderSource, body: unknown, now: number): number | undefined {
  const hints = [
    parseRetryAfter(headers.get('retry-after'), now),
    parseRateLimitReset(headers.get('ratelimit-reset')),
    envelopeRetryAfter(body),
  ].filter((h): h is number => h !== undefined);
  return hints.length === 0 ? undefined : Math.max(...hints);
}

function envelopeRetryAfter(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null || !('retryAfterSeconds' in body)) return undefined;
  const seconds = body.retryAfterSeconds;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return undefined;
  return Math.ceil(seconds * 1000);
}

/**
 * Full-jitter backoff before retry number `attempt` (1 = the first retry):
 * `random() * min(maxDelayMs, baseDelayMs * 2^(attempt-1))`.
 */
export function backoffDelayMs(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(Math.min(1, Math.max(0, random())) * cap);
}

/** A sleep that resolves after `ms` of wall time (the default; tests inject their own). */
export function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
