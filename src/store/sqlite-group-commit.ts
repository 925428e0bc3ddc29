import type Database from 'libsql';
import { setImmediate as afterThisTurn } from 'node:timers';
import { asError } from './store-data-error.js';

/** A write done inside the open group transaction, told its result once that commits. */
interface PendingWrite {
  readonly result: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Group commit on one SQLite connection: the writes of one event-loop turn share one
 * transaction, committed right after the turn (`setImmediate`), and each write's promise
 * settles only then, so "resolved" still means "committed". A webhook burst costs one
 * commit per turn instead of one per write (commits were half the bot's CPU). Reads on the
 * connection see the writes of the open group. A write that asks for a savepoint is undone
 * alone when it throws; a single statement is atomic by itself. A failed commit rejects
 * every write of its group. The group begins IMMEDIATE, taking the writer lock first: when
 * another connection holds it (a tool with the file open), the group waits in the busy
 * handler; a deferred one whose first statement read would fail at its first write with
 * SQLITE_BUSY, as SQLite never waits to turn a read into a write. Work that must run on
 * the connection outside any transaction (the WAL catch-up) goes {@link betweenGroups}.
 * @example
 * const group = new GroupCommit(db);
 * await group.write(() => insert.run(1), false);
 */
export class GroupCommit {
  readonly #db: Database.Database;
  readonly #sql: Record<
    'begin' | 'commit' | 'savepoint' | 'release' | 'rollbackTo',
    Database.Statement
  >;
  /** The writes of the open group transaction (undefined: none open). */
  #group: PendingWrite[] | undefined;
  /** Tasks that run on the connection once the open group has committed. */
  #between: Array<() => void> = [];
  /** Writes that go first in the next group ({@link soon}), oldest first. */
  #soon: Array<{ apply: () => void; onError: (error: Error) => void }> = [];
  #soonTimer: NodeJS.Timeout | undefined;
  /** The open group commits after this turn (a write waits for it). */
  #commitSoon = false;
  /** Commits an open group of {@link lazy} writes alone when no write came. */
  #lazyTimer: NodeJS.Timeout | undefined;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#sql = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      savepoint: db.prepare('SAVEPOINT write'),
      release: db.prepare('RELEASE write'),
      rollbackTo: db.prepare('ROLLBACK TO write'),
    };
  }

  /**
   * Runs `apply` in the open group (opening one for this turn), in a savepoint of its own
   * when `savepoint` is true; resolves with its result once the group commits.
   */
  write<T>(apply: () => T, savepoint: boolean): Promise<T> {
    let result: T;
    try {
      this.#open();
      this.#commitAfterThisTurn();
      result = savepoint ? this.#inSavepoint(apply) : apply();
    } catch (error) {
      return Promise.reject(asError(error));
    }
    const group = this.#group ?? [];
    return new Promise<T>((resolve, reject) => {
      group.push({ result, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /**
   * Runs `apply` in the open group now (opening one), in a savepoint of its own when
   * `savepoint` is true, and returns its result at once, throwing as it throws; it commits
   * with the group: that of the next {@link write} (the same turn or a later one), or
   * `withinMs` later when none comes. For writes whose loss in a crash before that commit
   * costs nothing but time (a lease taken or given back, an item acknowledged that the
   * document records as applied): they share the commit of a write that waits.
   */
  lazy<T>(apply: () => T, savepoint: boolean, withinMs: number): T {
    this.#open();
    this.#lazyTimer ??= setTimeout(() => {
      this.#lazyTimer = undefined;
      this.#commitAfterThisTurn();
    }, withinMs).unref();
    return savepoint ? this.#inSavepoint(apply) : apply();
  }

  /**
   * Runs `apply`, one statement (atomic by itself), with the next group: in the open one
   * now, else first thing in the next one to open, or in one of its own `withinMs` later
   * when no write comes before. Nobody waits for it; a throw goes to `onError`. For writes
   * whose loss in a crash within `withinMs` costs little (the budget journal): they ride
   * the next write's commit instead of making one of their own (two commits of nine per
   * real-load message were journal rows alone, measured).
   */
  soon(apply: () => void, withinMs: number, onError: (error: Error) => void): void {
    if (this.#group !== undefined) {
      runReporting(apply, onError);
      return;
    }
    this.#soon.push({ apply, onError });
    this.#soonTimer ??= setTimeout(() => {
      this.#soonTimer = undefined;
      if (this.#soon.length === 0) return;
      this.#open();
      this.#commitAfterThisTurn();
    }, withinMs).unref();
  }

  /**
   * Runs `task` on the connection outside any transaction: now when no group is open, else
   * right after the open group commits (before the next one can begin).
   */
  betweenGroups(task: () => void): void {
    if (this.#group === undefined) task();
    else this.#between.push(task);
  }

  /**
   * Commits the open group now (with the {@link soon} writes still waiting) and tells its
   * writes; a failed commit rejects them all.
   */
  flush(): void {
    if (this.#group === undefined && this.#soon.length > 0) this.#open();
    const group = this.#group;
    if (group === undefined) return;
    this.#group = undefined;
    this.#commitSoon = false;
    clearTimeout(this.#lazyTimer);
    this.#lazyTimer = undefined;
    try {
      this.#sql.commit.run();
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      for (const write of group) write.reject(asError(error));
      return;
    } finally {
      const tasks = this.#between;
      this.#between = [];
      for (const task of tasks) task();
    }
    for (const write of group) write.resolve(write.result);
  }

  #open(): void {
    if (this.#group !== undefined) return;
    this.#sql.begin.run();
    this.#group = [];
    if (this.#soon.length === 0) return;
    const soon = this.#soon;
    this.#soon = [];
    clearTimeout(this.#soonTimer);
    this.#soonTimer = undefined;
    for (const write of soon) runReporting(write.apply, write.onError);
  }

  /** Has the open group commit right after this turn (once). */
  #commitAfterThisTurn(): void {
    if (this.#commitSoon) return;
    this.#commitSoon = true;
    afterThisTurn(() => this.flush());
  }

  #inSavepoint<T>(apply: () => T): T {
    this.#sql.savepoint.run();
    try {
      const result = apply();
      this.#sql.release.run();
      return result;
    } catch (error) {
      this.#sql.rollbackTo.run();
      this.#sql.release.run();
      throw error;
    }
  }
}

function runReporting(apply: () => void, onError: (error: Error) => void): void {
  try {
    apply();
  } catch (error) {
    onError(asError(error));
  }
}
