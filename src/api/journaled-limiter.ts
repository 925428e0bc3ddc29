import { systemClock, type Clock } from '../core/clock.js';
import type { BudgetRule, Limiter, Slot, TakeOptions, TakeResult, Ticket } from './limiter.js';
import { MemoryLimiter } from './memory-limiter.js';

/** A durable record of the units taken recently (the embedded store keeps it). */
export interface BudgetJournal {
  /** A unit taken at `at` from these rule keys. */
  taken(ticket: Ticket, keys: readonly string[], at: number): void;
  /** The unit's request completed at `at`. */
  settled(ticket: Ticket, at: number): void;
  /** Units taken at or after `since`: unsettled ones have `settled: false`. */
  since(since: number): { keys: readonly string[]; at: number; settled: boolean }[];
  /** Forgets units before `before`. */
  prune(before: number): void;
}

/** The longest window of any budget (spec part 8: one minute) and a margin. */
const KEEP_MS = 120_000;

/**
 * A {@link MemoryLimiter} whose recent use survives a restart: each take and completion
 * is written to a journal, and a new limiter starts from the last minutes of it. A unit
 * whose completion was never written (the process died mid-request) counts as completed
 * at the restart, the latest it can have been counted by the server.
 * @example
 * const limiter = JournaledLimiter.open(store.budgetJournal());
 */
export class JournaledLimiter implements Limiter {
  readonly #inner: MemoryLimiter;
  readonly #journal: BudgetJournal;
  #writes = 0;

  private constructor(journal: BudgetJournal, clock: Clock) {
    this.#inner = new MemoryLimiter({ clock });
    this.#journal = journal;
  }

  /** A limiter that starts from what the journal recorded in the last minutes. */
  static open(journal: BudgetJournal, clock: Clock = systemClock): JournaledLimiter {
    const limiter = new JournaledLimiter(journal, clock);
    const now = clock.now();
    journal.prune(now - KEEP_MS);
    limiter.#inner.restore(
      journal
        .since(now - KEEP_MS)
        .flatMap(({ keys, at, settled }) =>
          keys.map((key) => ({ key, at: settled ? at : Math.max(at, now) })),
        ),
    );
    return limiter;
  }

  async take(
    rules: readonly BudgetRule[],
    now: number,
    options?: TakeOptions,
  ): Promise<TakeResult> {
    const result = await this.#inner.take(rules, now, options);
    if (result.ok) {
      this.#journal.taken(
        result.ticket,
        rules.map((r) => r.key),
        now,
      );
      if (++this.#writes % 1000 === 0) this.#journal.prune(now - KEEP_MS);
    }
    return result;
  }

  async complete(rules: readonly BudgetRule[], ticket: Ticket, now: number): Promise<void> {
    await this.#inner.complete(rules, ticket, now);
    this.#journal.settled(ticket, now);
  }

  block(keys: readonly string[], untilMs: number): Promise<void> {
    return this.#inner.block(keys, untilMs);
  }

  acquireSlot(key: string, max: number, ttlMs: number): Promise<Slot | undefined> {
    return this.#inner.acquireSlot(key, max, ttlMs);
  }

  /** Units of `rule` inside its window at `now` (restored ones included). */
  count(rule: BudgetRule, now: number): number {
    return this.#inner.count(rule, now);
  }
}
