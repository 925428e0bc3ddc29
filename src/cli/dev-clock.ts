import type { MovableClock } from '../testing/bot-harness.js';

/**
 * The clock of `switchboard dev`: wall time plus an offset that `/advance` grows, so the
 * sandbox and the bot (which share it) move forward together while time still passes.
 */
export class DevClock implements MovableClock {
  #offset = 0;

  now(): number {
    return Date.now() + this.#offset;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`cannot advance the clock by ${ms} ms`);
    this.#offset += ms;
  }
}
