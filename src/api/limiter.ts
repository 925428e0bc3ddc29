/**
 * The budget limiter behind the API client (spec part 8). The memory implementation
 * serves one process; the Redis implementation holds the same budgets across workers.
 *
 * Settle at completion: a take puts one entry per rule in flight; the caller completes the
 * ticket when its request is over, and the entry's time becomes the completion time. Why
 * this is exact whatever the latency: the server counts request A at p_A ≤ r_A (A's
 * completion as the client saw it) and B at p_B ≥ t_B (B's take). An in-flight entry
 * counts in every window, so B may take only when, among the `limit` entries before it,
 * one has r_A ≤ t_B − window. Then p_B − p_A ≥ t_B − r_A ≥ window: any `limit + 1`
 * requests span at least one window at the server, which never sees more than `limit`.
 * The proof needs the in-flight bound to outlast the request (see {@link TakeOptions}) and
 * the workers' clocks to agree within the client's margin.
 */

/** A sliding-window budget: at most `limit` takes within any `windowMs`. */
export interface BudgetRule {
  /** e.g. `send:key:<keyId>:1s`, `send:workspace:<id>:60s`. */
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
  /**
   * The member taking from a budget shared fairly (the business number taking from its
   * workspace budget): see fair-share.ts. Absent: first come, first served.
   */
  readonly share?: string;
}

/** An opaque id of one take, handed back to {@link Limiter.complete}. */
export type Ticket = string;

/**
 * The result of a take. `retryAfterMs` is exact when completed entries hold the budget;
 * when an in-flight entry holds it, it is the least possible wait (that entry completing
 * now), so the caller checks again then.
 */
export type TakeResult =
  | { readonly ok: true; readonly ticket: Ticket }
  | { readonly ok: false; readonly retryAfterMs: number };

/** Options of one take. */
export interface TakeOptions {
  /**
   * Longest time the request may stay in flight (default {@link DEFAULT_IN_FLIGHT_MS}).
   * Until completed, the entry counts as if it completed at `now + inFlightMs`, so a
   * process that dies mid-request frees the unit `inFlightMs + windowMs` after its take.
   * Must exceed the request's own deadline.
   */
  readonly inFlightMs?: number;
}

/** Default in-flight bound of a take: 2 minutes, well beyond the client's 10 s deadline. */
export const DEFAULT_IN_FLIGHT_MS = 120_000;

export interface Slot {
  release(): Promise<void>;
}

export interface Limiter {
  /**
   * Takes one unit from every rule atomically, or from none (no partial consumption). The
   * unit stays in flight, counting in every window, until {@link Limiter.complete}.
   */
  take(rules: readonly BudgetRule[], now: number, options?: TakeOptions): Promise<TakeResult>;
  /**
   * Settles a taken ticket: its entry in every rule's log gets the time `now` (the moment
   * the request completed or was given up). Unknown or expired tickets are ignored.
   */
  complete(rules: readonly BudgetRule[], ticket: Ticket, now: number): Promise<void>;
  /** Blocks these rule keys until `untilMs` (a 429/503 retry hint), for every process. */
  block(keys: readonly string[], untilMs: number): Promise<void>;
  /** Takes one of `max` concurrent slots (media streams); `ttlMs` frees a slot whose holder died. */
  acquireSlot(key: string, max: number, ttlMs: number): Promise<Slot | undefined>;
}
