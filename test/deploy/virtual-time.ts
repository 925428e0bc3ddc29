import type { ManualClock } from '../../src/core/clock.js';

/**
 * Virtual time for several senders: each waits on `sleep`; when every live sender waits,
 * the clock jumps to the earliest wake-up. HTTP requests run for real in between, at a
 * frozen clock, so a minute of sends costs seconds of test time.
 */
export class VirtualTime {
  readonly #sleepers: { at: number; wake: () => void }[] = [];
  constructor(
    private readonly clock: ManualClock,
    private live: number,
  ) {}

  readonly sleep = (ms: number): Promise<void> =>
    new Promise((wake) => {
      this.#sleepers.push({ at: this.clock.now() + ms, wake });
      this.#advance();
    });

  done(): void {
    this.live--;
    this.#advance();
  }

  #advance(): void {
    if (this.live === 0 || this.#sleepers.length < this.live) return;
    this.#sleepers.sort((a, b) => a.at - b.at);
    const next = this.#sleepers.shift();
    if (next === undefined) return;
    if (next.at > this.clock.now()) this.clock.set(next.at);
    next.wake();
  }
}
