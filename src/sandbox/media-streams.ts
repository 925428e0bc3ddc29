import { BUDGETS } from '../core/limits.js';

/**
 * Active media streams per key and per number (spec part 8: 8 each), and a switch that
 * holds streams open after their first chunk so tests can fill the slots
 * deterministically.
 */
export class MediaStreams {
  readonly #active = new Map<string, number>();
  #held = false;
  #releaseWaiters: (() => void)[] = [];

  /** Takes a slot for both keys, or none when either is at the limit. */
  acquire(keys: readonly string[]): { release(): void } | undefined {
    if (keys.some((k) => (this.#active.get(k) ?? 0) >= BUDGETS.mediaStreams)) return undefined;
    for (const k of keys) this.#active.set(k, (this.#active.get(k) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        for (const k of keys) this.#active.set(k, (this.#active.get(k) ?? 1) - 1);
      },
    };
  }

  active(key: string): number {
    return this.#active.get(key) ?? 0;
  }

  /** While held, streams stop after their first chunk until {@link hold}(false). */
  hold(held: boolean): void {
    this.#held = held;
    if (!held) {
      const waiters = this.#releaseWaiters;
      this.#releaseWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Resolves at once when not held, else when the hold is lifted. */
  waitWhileHeld(): Promise<void> {
    if (!this.#held) return Promise.resolve();
    return new Promise((resolve) => this.#releaseWaiters.push(resolve));
  }
}
