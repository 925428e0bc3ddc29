import type { Clock } from '../core/clock.js';

/** Longest single clock move: 3,650 days (ten years). */
export const MAX_CLOCK_ADVANCE_MS = 3_650 * 86_400_000;
/** The clock never goes past 9999-12-31T23:59:59.999Z, the last instant ISO 8601 timestamps name. */
export const MAX_CLOCK_TIME_MS = 253_402_300_799_999;

/**
 * The sandbox clock: a base clock plus an offset. `advance` moves the base clock when it
 * can be moved (a shared `ManualClock`, so a bot on the same clock sees the same time);
 * otherwise (the wall clock) it grows the offset. Moves are bounded so that every
 * timestamp the sandbox writes stays a valid ISO 8601 date.
 */
export class SandboxClock implements Clock {
  #offset = 0;
  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now() + this.#offset;
  }

  /** Moves the clock forward by whole milliseconds; throws a RangeError naming the bound. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(
        `cannot advance the sandbox clock by ${ms} ms: not a finite, non-negative duration`,
      );
    if (ms > MAX_CLOCK_ADVANCE_MS)
      throw new RangeError(
        `cannot advance the sandbox clock by ${ms} ms: one move is at most ${MAX_CLOCK_ADVANCE_MS} ms (3650d)`,
      );
    const whole = Math.round(ms);
    if (this.now() + whole > MAX_CLOCK_TIME_MS)
      throw new RangeError(
        `cannot advance the sandbox clock by ${ms} ms: it would pass 9999-12-31T23:59:59.999Z`,
      );
    const movable = this.base as Partial<{ advance(ms: number): void }>;
    if (typeof movable.advance === 'function') movable.advance.call(this.base, whole);
    else this.#offset += whole;
  }
}
