import { ManualClock, type SchedulingClock } from '../core/clock.js';

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly fire: () => void;
}

/**
 * The test kit's fake clock: a {@link ManualClock} whose timers (handler timeouts) fire
 * when it is advanced past them, in time order, and never by themselves.
 * @example
 * const clock = new TestClock(Date.parse('2026-03-02T09:00:00Z'));
 * clock.setTimer(10_000, () => console.log('timed out'));
 * clock.advance(10_000); // logs "timed out"
 */
export class TestClock extends ManualClock implements SchedulingClock {
  #timers: Timer[] = [];
  #seq = 0;

  setTimer(ms: number, fire: () => void): () => void {
    const timer: Timer = { at: this.now() + Math.max(0, ms), seq: this.#seq++, fire };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  /** Timers not fired yet. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  override advance(ms: number): void {
    super.advance(ms);
    this.#fireDue();
  }

  override set(epochMs: number): void {
    super.set(epochMs);
    this.#fireDue();
  }

  #fireDue(): void {
    const now = this.now();
    const due = this.#timers
      .filter((t) => t.at <= now)
      .sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.#timers = this.#timers.filter((t) => t.at > now);
    for (const t of due) t.fire();
  }
}
