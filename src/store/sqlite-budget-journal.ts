import type Database from 'libsql';
import { z } from 'zod';
import type { BudgetJournal } from '../api/journaled-limiter.js';
import type { Ticket } from '../api/limiter.js';

const Keys = z.array(z.string());

/** Runs one write statement of the journal (see {@link SqliteBudgetJournal}'s constructor). */
export type JournalWrite = (apply: () => void) => void;

const autocommit: JournalWrite = (apply) => apply();

/**
 * The {@link BudgetJournal} of the embedded store: the `budget_log` table of the state
 * file. Tickets are made unique per process start, so a restarted limiter never confuses
 * its tickets with the dead process's.
 * @example
 * const limiter = JournaledLimiter.open(store.budgetJournal());
 */
export class SqliteBudgetJournal implements BudgetJournal {
  readonly #taken: Database.Statement;
  readonly #settled: Database.Statement;
  readonly #since: Database.Statement;
  readonly #prune: Database.Statement;
  readonly #run = `${Date.now().toString(36)}.${process.pid}.`;
  readonly #write: JournalWrite;

  /**
   * `write` runs each `taken`/`settled` statement: by default on its own (an autocommit
   * transaction each); `SqliteStore.budgetJournal()` passes the store's group commit,
   * so that they ride the commit of the store's next write.
   */
  constructor(db: Database.Database, write: JournalWrite = autocommit) {
    this.#write = write;
    this.#taken = db.prepare(
      'INSERT OR REPLACE INTO budget_log (ticket, rules, at, settled) VALUES (?, ?, ?, 0)',
    );
    this.#settled = db.prepare('UPDATE budget_log SET at = ?, settled = 1 WHERE ticket = ?');
    this.#since = db.prepare('SELECT rules, at, settled FROM budget_log WHERE at >= ?').raw();
    this.#prune = db.prepare('DELETE FROM budget_log WHERE at < ?');
  }

  taken(ticket: Ticket, keys: readonly string[], at: number): void {
    this.#write(() => void this.#taken.run(this.#run + ticket, JSON.stringify(keys), at));
  }

  settled(ticket: Ticket, at: number): void {
    this.#write(() => void this.#settled.run(at, this.#run + ticket));
  }

  since(since: number): { keys: readonly string[]; at: number; settled: boolean }[] {
    return (this.#since.all(since) as unknown[][]).map((row) => ({
      keys: Keys.parse(JSON.parse(String(row[0]))),
      at: Number(row[1]),
      settled: Number(row[2]) === 1,
    }));
  }

  prune(before: number): void {
    this.#prune.run(before);
  }
}
