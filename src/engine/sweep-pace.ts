import type { GuardedStore } from '../store/guarded-store.js';

/**
 * Wall-clock time a periodic sweep may go without asking the store for its next due timer
 * and its unclaimed inboxes. Those reads serve what another worker left (its timers when
 * it died, inboxes whose claim passed): a second of delay there is nothing next to the
 * claim (5 s) and the lease (12 s), while asking on every tick (4 a second with
 * `switchboard run`'s 250 ms) was most of what an idle worker spent, per worker.
 */
export const SWEEP_LOOK_MS = 1_000;

/**
 * When a periodic sweep asks the store: every `lookMs` of wall-clock time, and on any tick
 * at which a timer known to be due has come (one this worker scheduled, or the store's
 * earliest at the last look), so this worker's own timers still fire on the tick.
 * @example
 * const pace = new SweepPace(1_000, () => performance.now());
 * pace.shouldLook(clock.now()); // true: never looked
 * pace.looked(undefined); // the store has no timer
 * pace.scheduled(clock.now() + 5_000); // this worker scheduled one
 */
export class SweepPace {
  readonly #lookMs: number;
  readonly #wallNow: () => number;
  #lookedAt = Number.NEGATIVE_INFINITY;
  /** The earliest due time known: the store's at the last look, or one scheduled since. */
  #due: number | undefined;

  constructor(lookMs: number, wallNow: () => number) {
    this.#lookMs = lookMs;
    this.#wallNow = wallNow;
  }

  /** Whether this tick asks the store (`now`: the engine's clock). */
  shouldLook(now: number): boolean {
    if (this.#due !== undefined && this.#due <= now) return true;
    return this.#wallNow() - this.#lookedAt >= this.#lookMs;
  }

  /** The store was asked: `nextDue` is its earliest timer (undefined: none). */
  looked(nextDue: number | undefined): void {
    this.#lookedAt = this.#wallNow();
    this.#due = nextDue;
  }

  /** Due timers were fired: the next tick looks again (more may be due). */
  fired(): void {
    this.#lookedAt = Number.NEGATIVE_INFINITY;
    this.#due = undefined;
  }

  /** This worker scheduled a timer due at `dueAt`. */
  scheduled(dueAt: number): void {
    this.#due = this.#due === undefined ? dueAt : Math.min(this.#due, dueAt);
  }
}

/**
 * The guarded `store`, with every timer it schedules also told to `pace` (after the store
 * accepted it): by `scheduleTimer`, or along with a document (`putConversationWith`'s
 * `along.timers`, written whatever the document's compare-and-set answers). The rest is the guarded store itself (the prototype of the answer: its
 * methods are closures, so they work on it unchanged; a class instance with private fields
 * would not, which is why this takes the guarded store).
 */
export function notingTimers(store: GuardedStore, pace: SweepPace): GuardedStore {
  const noted = Object.create(store) as GuardedStore;
  noted.scheduleTimer = async (timer) => {
    await store.scheduleTimer(timer);
    pace.scheduled(timer.dueAt);
  };
  if (store.putConversationWith !== undefined)
    noted.putConversationWith = async (conversationId, value, expectedVersion, fence, along) => {
      const result = await store.putConversationWith!(
        conversationId,
        value,
        expectedVersion,
        fence,
        along,
      );
      for (const write of along.timers ?? [])
        if (write.kind === 'schedule') pace.scheduled(write.timer.dueAt);
      return result;
    };
  return noted;
}
