/**
 * The model's call budget: at most `perMinute` calls in each clock minute, shared by
 * whoever shares the budget object (one process: {@link MemoryLlmBudget}; all workers:
 * RedisLlmBudget). A call over budget is not made; the message falls back to builtin.
 */
import { systemClock, type Clock } from '../../core/clock.js';

/** A per-minute call budget. */
export interface LlmBudget {
  /** Takes one call from the current minute's budget; false when it is spent. */
  take(): Promise<boolean>;
}

/** A budget in this process's memory (fixed one-minute windows). */
export class MemoryLlmBudget implements LlmBudget {
  readonly #perMinute: number;
  readonly #clock: Clock;
  #minute = -1;
  #used = 0;

  constructor(perMinute: number, clock: Clock = systemClock) {
    if (!Number.isInteger(perMinute) || perMinute < 0)
      throw new RangeError(`perMinute must be a whole number ≥ 0, got ${perMinute}`);
    this.#perMinute = perMinute;
    this.#clock = clock;
  }

  take(): Promise<boolean> {
    const minute = Math.floor(this.#clock.now() / 60_000);
    if (minute !== this.#minute) {
      this.#minute = minute;
      this.#used = 0;
    }
    if (this.#used >= this.#perMinute) return Promise.resolve(false);
    this.#used += 1;
    return Promise.resolve(true);
  }
}
