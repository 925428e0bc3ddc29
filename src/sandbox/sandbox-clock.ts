import type { Clock } from '../core/clock.js';

/**
 * The sandbox clock: a base clock plus an offset. `advance` moves the base clock when it
 * can be moved (a shared `ManualClock`, so a bot on the same clock sees the same time);
 * otherwise (the wall clock) it grows the offset.
 */
export class SandboxClock implements Clock {
  #offset = 0;
  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now() + this.#offset;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`cannot advance the sandbox clock by ${ms} ms`);
    const movable = this.base as Partial<{ advance(ms: number): void }>;
    if (typeof movable.advance === 'function') movable.advance.call(this.base, ms);
    else this.#offset += ms;
  }
}
