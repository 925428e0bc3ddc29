/**
 * The budget limiter behind the API client (spec part 8). The memory implementation
 * serves one process; the Redis implementation holds the same budgets across workers.
 */

/** A sliding-window budget: at most `limit` takes within any `windowMs`. */
export interface BudgetRule {
  /** e.g. `send:key:<keyId>:1s`, `send:workspace:<id>:60s`. */
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
}

export type TakeResult =
  { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number };

export interface Slot {
  release(): Promise<void>;
}

export interface Limiter {
  /** Takes one unit from every rule atomically, or from none (no partial consumption). */
  take(rules: readonly BudgetRule[], now: number): Promise<TakeResult>;
  /** Blocks these rule keys until `untilMs` (a 429/503 retry hint), for every process. */
  block(keys: readonly string[], untilMs: number): Promise<void>;
  /** Takes one of `max` concurrent slots (media streams); `ttlMs` frees a slot whose holder died. */
  acquireSlot(key: string, max: number, ttlMs: number): Promise<Slot | undefined>;
}
