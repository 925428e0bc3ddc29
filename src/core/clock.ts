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

/**
 * A clock that also runs timers on its own time (the test kit's fake clock): a timer
 * fires when the clock is advanced past it, never by itself.
 */
export interface SchedulingClock extends Clock {
  /** Calls `fire` once the clock has moved `ms` forward; returns a cancel function. */
  setTimer(ms: number, fire: () => void): () => void;
}

/**
 * Runs `fire` after `ms` of `clock`'s time: on the clock's own timers when it has them
 * (a fake clock), else on a real timer. Returns a cancel function.
 * @example
 * const cancel = scheduleOn(deps.clock, 10_000, () => resolve('timeout'));
 */
export function scheduleOn(clock: Clock, ms: number, fire: () => void): () => void {
  const scheduling = clock as Partial<SchedulingClock>;
  if (typeof scheduling.setTimer === 'function') return scheduling.setTimer.call(clock, ms, fire);
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
}
