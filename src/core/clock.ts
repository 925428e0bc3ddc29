/** A source of time, passed in through options so tests can control it. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that moves only when told to.
 * @example
 * const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
 * clock.advance(25 * 3600_000);
 */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = Date.now()) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    this.#now += ms;
  }
  set(epochMs: number): void {
    this.#now = epochMs;
  }
}
