import type Database from 'libsql';
import { systemClock, type Clock } from '../core/clock.js';
import {
  DEFAULT_CACHE_MB,
  HOLDER_BEAT_MS,
  beat,
  openStateFile,
  releaseStateFile,
  type OpenStateFileOptions,
} from './sqlite-schema.js';
import {
  CHECKPOINT_EVERY_MS,
  startCheckpointer,
  type Checkpointer,
} from './sqlite-checkpointer.js';
import { SqliteBudgetJournal } from './sqlite-budget-journal.js';
import { GroupCommit } from './sqlite-group-commit.js';
import { SqlitePrefetch, prefetchWanted } from './sqlite-prefetch.js';
import { CONVERSATION_TIMERS_SQL, LIST_DOCS_SQL, listDocs, timersOf } from './sqlite-listing.js';
import { asError } from './store-data-error.js';
import { parseStored, storedSendSchema, storedTimerSchema } from './redis-store-schemas.js';
import {
  DEFAULT_RETENTION,
  LEASE_GRACE_MS,
  nextLeaseToken,
  type AcquiredConversation,
  type AlongWrites,
  type CasResult,
  type ConversationPage,
  type InboxItem,
  type Lease,
  type SendRecord,
  type Store,
  type StoreRetention,
  type TimerRecord,
  type TimerWrite,
  UNCHANGED,
  type Versioned,
} from './store.js';
import { assertSortKey, fromJson, toJson } from './to-json.js';

/** Options of {@link SqliteStore}. */
export interface SqliteStoreOptions extends OpenStateFileOptions {
  /** The state file (created with its folder), or `:memory:`. */
  readonly path: string;
  /** Time source for every expiry. Default: the wall clock. */
  readonly clock?: Clock;
  /** What expires when (defaults: {@link DEFAULT_RETENTION}). */
  readonly retention?: Partial<StoreRetention>;
  /**
   * WAL checkpoints on a worker thread (default true), started once the file has seen
   * {@link CHECKPOINTER_AFTER_WRITES} writes; false keeps SQLite's automatic ones.
   */
  readonly backgroundCheckpoints?: boolean;
  /**
   * Told when background work fails: the checkpointer (automatic checkpoints take over),
   * or a budget journal row, which nobody waits for.
   */
  readonly onCheckpointError?: (message: string) => void;
  /**
   * Threads that read each enqueued conversation's pages before its turn, so that the
   * event loop's reads hit the OS page cache ({@link SqlitePrefetch}); enqueues wait for
   * them while their reads are seen going to the disk. Default: on once the file is larger
   * than the page cache (`cacheMb`), checked at open and every {@link SWEEP_EVERY} writes;
   * `true`: on whatever the size, enqueues waiting from the start.
   */
  readonly prefetch?: boolean;
}

/** Writes after which the checkpointer thread starts (small files never need one). */
export const CHECKPOINTER_AFTER_WRITES = 256;

/** The longest a budget journal row waits for a write to ride with (then it commits alone). */
export const JOURNAL_WITHIN_MS = 1_000;

/**
 * The longest a lazy write (a conversation's lease taken, an item acknowledged with the
 * lease given back) waits for a write to commit with (then it commits alone).
 */
export const LAZY_WITHIN_MS = 1_000;

/** Writes between two sweeps of expired rows. */
const SWEEP_EVERY = 2000;
/** A write of several statements (it needs a savepoint of its own). */
const MANY = 2;

type Row = readonly unknown[];

/**
 * The durable embedded {@link Store}: one SQLite file (through `libsql`, a
 * better-sqlite3-compatible binding with prebuilt binaries on the npm registry), WAL
 * journal, one process per file (see sqlite-schema.ts). Every write is atomic (a savepoint
 * of its own) and survives a crash of the process once its promise resolved, but for the
 * lazy ones (`acquireConversation`, `ackAndRelease`), which commit with the next write.
 *
 * The writes of one event-loop turn are committed together ({@link GroupCommit}).
 * Expired rows are swept every {@link SWEEP_EVERY} writes (indexed by expiry).
 * @example
 * const store = new SqliteStore({ path: '.switchboard/state.db' });
 */
export class SqliteStore implements Store {
  readonly #db: Database.Database;
  readonly #clock: Clock;
  readonly #retention: StoreRetention;
  readonly #sql: Record<keyof typeof STATEMENTS, Database.Statement>;
  readonly #path: string;
  readonly #heartbeat: NodeJS.Timeout;
  #writes = 0;
  #closed = false;
  #closing: Promise<void> | undefined;
  readonly #group: GroupCommit;
  /** Writes left before the checkpointer starts (never: -1). */
  #untilCheckpointer: number;
  #checkpointer: Checkpointer | undefined;
  readonly #onCheckpointError: (message: string) => void;
  #prefetch: SqlitePrefetch | undefined;
  /** Starts the prefetch thread when the file wants it (and it is not running). */
  readonly #startPrefetch: () => void;

  constructor(options: SqliteStoreOptions) {
    this.#path = options.path;
    this.#db = openStateFile(options.path, options);
    // Wall-clock heartbeat of the holder record (a silent holder is taken over).
    this.#heartbeat = setInterval(() => {
      if (options.path !== ':memory:') beat(this.#db, Date.now());
    }, HOLDER_BEAT_MS).unref();
    this.#untilCheckpointer =
      options.path === ':memory:' || options.backgroundCheckpoints === false
        ? -1
        : CHECKPOINTER_AFTER_WRITES;
    this.#onCheckpointError = options.onCheckpointError ?? (() => undefined);
    this.#clock = options.clock ?? systemClock;
    this.#retention = { ...DEFAULT_RETENTION, ...options.retention };
    const prepared = {} as Record<keyof typeof STATEMENTS, Database.Statement>;
    for (const [name, text] of Object.entries(STATEMENTS)) {
      const statement = this.#db.prepare(text);
      prepared[name as keyof typeof STATEMENTS] = statement.reader ? statement.raw() : statement;
    }
    this.#sql = prepared;
    this.#group = new GroupCommit(this.#db);
    this.#startPrefetch = () => {
      if (this.#prefetch !== undefined || this.#closed) return;
      if (prefetchWanted(this.#path, options.cacheMb ?? DEFAULT_CACHE_MB, options.prefetch))
        this.#prefetch = new SqlitePrefetch(this.#path, {
          onError: this.#onCheckpointError,
          // Told to prefetch: callers wait from the start.
          startCold: options.prefetch === true,
        });
    };
    this.#startPrefetch();
  }

  /** True while the prefetch threads run ({@link SqliteStoreOptions.prefetch}). */
  get prefetching(): boolean {
    return this.#prefetch?.running === true;
  }

  /** The open connection, for the budget journal that shares the file. */
  get database(): Database.Database {
    return this.#db;
  }

  /**
   * The budget journal on this file, its `taken`/`settled` rows written with the next
   * group transaction ({@link GroupCommit.soon}, at most {@link JOURNAL_WITHIN_MS} later):
   * they share the commit of the store's next write instead of one of their own (measured
   * on the real-load bench: see bench/RESULTS.md). A crash loses the rows of that last
   * moment at most: the restarted limiter counts those few sends less.
   */
  budgetJournal(): SqliteBudgetJournal {
    const onError = (error: Error): void =>
      this.#onCheckpointError(`budget journal row not written: ${error.message}`);
    return new SqliteBudgetJournal(this.#db, (apply) => {
      if (this.#closed) throw new Error('The SQLite store is closed');
      this.#group.soon(apply, JOURNAL_WITHIN_MS, onError);
    });
  }

  getConversation(conversationId: string): Promise<Versioned<unknown> | undefined> {
    return run(() => {
      const row = this.#row('getDoc', conversationId);
      if (row === undefined || Number(row[2]) <= this.#clock.now()) return undefined;
      return { value: fromJson(String(row[0])), version: Number(row[1]) };
    });
  }

  getConversationIfChanged(
    conversationId: string,
    knownVersion: number,
  ): Promise<Versioned<unknown> | typeof UNCHANGED | undefined> {
    return run(() => {
      // The JSON is not even read out of the file when the version is the known one.
      const row = this.#row('getDocIfChanged', knownVersion, conversationId);
      if (row === undefined || Number(row[2]) <= this.#clock.now()) return undefined;
      const json = row[0];
      if (typeof json !== 'string') return UNCHANGED;
      return { value: fromJson(json), version: Number(row[1]) };
    });
  }

  putConversation(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence?: number,
  ): Promise<CasResult> {
    return this.#write((now) => this.#cas(conversationId, value, expectedVersion, fence, now));
  }

  /** The `along` writes and the document in one savepoint of the turn's group transaction. */
  putConversationWith(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence: number | undefined,
    along: AlongWrites,
  ): Promise<CasResult> {
    return this.#write((now) => {
      for (const record of along.sends ?? []) this.#putSend(record, now);
      for (const v of along.values ?? []) this.#putValue(v.key, v.value, v.ttlMs, now);
      for (const t of along.timers ?? []) this.#timer(t);
      return this.#cas(conversationId, value, expectedVersion, fence, now);
    }, MANY);
  }

  #cas(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence: number | undefined,
    now: number,
  ): CasResult {
    const json = toJson(value, `conversation ${conversationId}`);
    if (fence !== undefined) {
      // The fence holds while its token is the newest and not released, expired or not.
      const lease = this.#row('getLease', `conv:${conversationId}`);
      if (lease === undefined || lease[0] === '' || Number(lease[1]) !== fence)
        return { status: 'fenced' };
    }
    const row = this.#row('getDoc', conversationId);
    const stored = row === undefined ? 0 : Number(row[1]);
    const current = row !== undefined && Number(row[2]) > now ? stored : 0;
    if (current !== expectedVersion) return { status: 'conflict', currentVersion: current };
    const version = stored + 1;
    this.#sql.putDoc.run(conversationId, json, version, now + this.#retention.idleConversationMs);
    return { status: 'ok', version };
  }

  deleteConversation(conversationId: string): Promise<void> {
    return this.#write(() => void this.#sql.deleteDoc.run(conversationId));
  }

  /** Pages in id order (the primary key); the cursor is the last id listed. */
  listConversations(cursor: string | undefined, limit: number): Promise<ConversationPage> {
    return run(() => listDocs(this.#sql.listDocs, cursor, limit, this.#clock.now()));
  }

  conversationTimers(conversationId: string): Promise<TimerRecord[]> {
    return run(() => timersOf(this.#sql.conversationTimers, conversationId));
  }

  enqueue(conversationId: string, item: InboxItem, dedupTtlMs: number): Promise<boolean> {
    const warming = this.#prefetch?.warm(conversationId, inboxSeenKey(conversationId, item.id));
    if (warming === undefined) return this.#enqueue(conversationId, item, dedupTtlMs);
    return warming.then(() => this.#enqueue(conversationId, item, dedupTtlMs));
  }

  #enqueue(conversationId: string, item: InboxItem, dedupTtlMs: number): Promise<boolean> {
    return this.#write((now) => {
      assertSortKey(item);
      const json = toJson(item.payload, `inbox item ${item.id}`);
      if (!this.#markSeen(inboxSeenKey(conversationId, item.id), now, now + dedupTtlMs)) {
        return false;
      }
      // An id still in the inbox (its dedup expired) is moved (REPLACE: a new seq), not
      // duplicated.
      this.#sql.insertInboxItem.run(conversationId, item.id, item.sortKey, json);
      return true;
    }, MANY);
  }

  peekInbox(conversationId: string, limit: number): Promise<InboxItem[]> {
    return run(() => this.#peek(conversationId, limit));
  }

  #peek(conversationId: string, limit: number): InboxItem[] {
    return limit <= 0
      ? []
      : (this.#sql.peekInbox.all(conversationId, limit) as Row[]).map((row) => ({
          id: String(row[0]),
          sortKey: Number(row[1]),
          payload: fromJson(String(row[2])),
        }));
  }

  ackInbox(conversationId: string, ids: readonly string[]): Promise<number> {
    return this.#write(() => {
      for (const id of ids) this.#sql.deleteInboxItem.run(conversationId, id);
      return Number(this.#row('inboxLeft', conversationId)?.[0] ?? 0);
    }, MANY);
  }

  conversationsWithInbox(limit: number): Promise<string[]> {
    return run(() =>
      limit <= 0
        ? []
        : (this.#sql.inboxConversations.all(limit) as Row[]).map((row) => String(row[0])),
    );
  }

  markSeen(key: string, ttlMs: number): Promise<boolean> {
    return this.#write((now) => this.#markSeen(`k\u0000${key}`, now, now + ttlMs));
  }

  getValue(key: string): Promise<unknown> {
    return run(() => {
      const row = this.#row('getValue', key);
      if (row === undefined || (row[1] !== null && Number(row[1]) <= this.#clock.now()))
        return undefined;
      return fromJson(String(row[0]));
    });
  }

  setValue(key: string, value: unknown, ttlMs?: number): Promise<void> {
    return this.#write((now) => this.#putValue(key, value, ttlMs, now));
  }

  #putValue(key: string, value: unknown, ttlMs: number | undefined, now: number): void {
    const json = toJson(value, `value ${key}`);
    this.#sql.putValue.run(key, json, ttlMs === undefined ? null : now + ttlMs);
  }

  deleteValue(key: string): Promise<void> {
    return this.#write(() => void this.#sql.deleteValue.run(key));
  }

  setValueIfAbsent(key: string, value: unknown): Promise<unknown> {
    const json = toJson(value, `value ${key}`);
    // Read and write inside one write transaction: SQLite serialises writers, so a second
    // process (or a second call) sees the first one's row.
    return this.#write((now) => {
      const row = this.#row('getValue', key);
      if (row !== undefined && (row[1] === null || Number(row[1]) > now))
        return fromJson(String(row[0]));
      this.#sql.putValue.run(key, json, null);
      return fromJson(json);
    }, MANY);
  }

  scheduleTimer(timer: TimerRecord): Promise<void> {
    return this.#write(() => this.#timer({ kind: 'schedule', timer }));
  }

  cancelTimer(id: string): Promise<void> {
    return this.#write(() => this.#timer({ kind: 'cancel', id }));
  }

  #timer(write: TimerWrite): void {
    if (write.kind === 'cancel') this.#sql.deleteTimer.run(write.id);
    else {
      const { id, conversationId, name, dueAt } = write.timer;
      this.#sql.putTimer.run(id, conversationId, name, dueAt);
    }
  }

  claimDueTimers(now: number, limit: number, claimMs: number): Promise<TimerRecord[]> {
    return this.#write(() => {
      if (limit <= 0) return [];
      const rows = this.#sql.dueTimers.all(now, limit) as Row[];
      return rows.map((row) => {
        this.#sql.claimTimer.run(now + claimMs, row[0]);
        return parseStored(
          `timer ${String(row[0])}`,
          JSON.stringify({ id: row[0], conversationId: row[1], name: row[2], dueAt: row[3] }),
          storedTimerSchema,
        );
      });
    }, MANY);
  }

  completeTimer(id: string, dueAt: number): Promise<void> {
    return this.#write(() => void this.#sql.completeTimer.run(id, dueAt));
  }

  /** The earliest time a claim can return a timer (for a claimed one: when its claim ends). */
  nextTimerDue(): Promise<number | undefined> {
    return run(() => {
      const row = this.#sql.nextTimer.get() as Row | undefined;
      return row === undefined || row[0] === null ? undefined : Number(row[0]);
    });
  }

  putSend(record: SendRecord): Promise<void> {
    return this.#write((now) => this.#putSend(record, now));
  }

  #putSend(record: SendRecord, now: number): void {
    const json = toJson(record, `send record ${record.id}`);
    this.#sql.putSend.run(
      record.id,
      json,
      record.messageId ?? null,
      now + this.#retention.sendRecordsMs,
    );
  }

  getSend(id: string): Promise<SendRecord | undefined> {
    return run(() => this.#send(this.#row('getSend', id), `send ${id}`));
  }

  findSendByMessageId(messageId: string): Promise<SendRecord | undefined> {
    return run(() => this.#send(this.#row('sendByMessage', messageId), `send ${messageId}`));
  }

  acquireLease(
    name: string,
    owner: string,
    ttlMs: number,
    now: number,
  ): Promise<Lease | undefined> {
    return this.#write(() => this.#acquire(name, owner, ttlMs, now));
  }

  releaseLease(name: string, owner: string): Promise<void> {
    return this.#write((now) => void this.#sql.releaseLease.run(now, name, owner));
  }

  acquireConversation(
    conversationId: string,
    owner: string,
    ttlMs: number,
    now: number,
  ): Promise<AcquiredConversation | undefined> {
    // Lazy: a lease lost in a crash is nothing (it guards this process's drains; the file
    // has one process); the turn's document write commits it.
    return this.#write(
      () => {
        const lease = this.#acquire(`conv:${conversationId}`, owner, ttlMs, now);
        if (lease === undefined) return undefined;
        const doc = this.#row('docVersion', conversationId);
        const docVersion =
          doc === undefined || Number(doc[1]) <= this.#clock.now() ? 0 : Number(doc[0]);
        return { lease, first: this.#peek(conversationId, 1)[0], docVersion };
      },
      1,
      true,
    );
  }

  releaseConversation(conversationId: string, owner: string): Promise<number> {
    return this.#write((now) => {
      this.#sql.releaseLease.run(now, `conv:${conversationId}`, owner);
      return Number(this.#row('inboxLeft', conversationId)?.[0] ?? 0);
    });
  }

  /**
   * Lazy ({@link GroupCommit.lazy}): an acknowledgement lost in a crash brings the item
   * back, and the engine finds it recorded as applied in the document (written and
   * committed before); a release lost leaves the lease to expire.
   */
  ackAndRelease(conversationId: string, ids: readonly string[], owner: string): Promise<number> {
    return this.#write(
      (now) => {
        for (const id of ids) this.#sql.deleteInboxItem.run(conversationId, id);
        const left = Number(this.#row('inboxLeft', conversationId)?.[0] ?? 0);
        if (left === 0) this.#sql.releaseLease.run(now, `conv:${conversationId}`, owner);
        return left;
      },
      MANY,
      true,
    );
  }

  #acquire(name: string, owner: string, ttlMs: number, now: number): Lease | undefined {
    if (owner === '') throw new RangeError('A lease owner must not be empty');
    const current = this.#row('getLease', name);
    if (
      current !== undefined &&
      current[0] !== '' &&
      current[0] !== owner &&
      Number(current[2]) > now
    ) {
      return undefined;
    }
    const last = current === undefined ? 0 : Number(current[1]);
    const token = current?.[0] === owner ? last : nextLeaseToken(last, now);
    const expiresAt = now + ttlMs;
    this.#sql.putLease.run(name, owner, token, expiresAt);
    return { name, owner, token, expiresAt };
  }

  /** Closes the file (and releases it for another process). Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    // Enqueues waiting for the prefetch threads go on first and join the last group.
    if (this.#prefetch !== undefined) await this.#prefetch.stop();
    this.#group.flush();
    this.#closed = true;
    clearInterval(this.#heartbeat);
    await this.#checkpointer?.stop();
    releaseStateFile(this.#db, this.#path);
    this.#db.close();
    this.#checkpointer?.closeFile();
  }

  #row(statement: keyof typeof STATEMENTS, ...params: unknown[]): Row | undefined {
    return this.#sql[statement].get(...params) as Row | undefined;
  }

  #send(row: Row | undefined, what: string): SendRecord | undefined {
    if (row === undefined || Number(row[1]) <= this.#clock.now()) return undefined;
    return parseStored(what, String(row[0]), storedSendSchema);
  }

  /** One statement: inserts the key, or renews it when expired; false when it is live. */
  #markSeen(key: string, now: number, expiresAt: number): boolean {
    return this.#sql.markSeen.run(key, expiresAt, now).changes > 0;
  }

  /**
   * Runs a write in the group transaction ({@link GroupCommit}); sweeps expired rows now
   * and then. A write of several statements (`MANY`), or one that sweeps, gets a savepoint
   * so that a failure undoes it alone. Settles once the group commits; a `lazy` one at once
   * ({@link GroupCommit.lazy}: it commits with the next write, at most
   * {@link LAZY_WITHIN_MS} later).
   */
  #write<T>(
    operation: (now: number) => T,
    statements: 1 | typeof MANY = 1,
    lazy = false,
  ): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('The SQLite store is closed'));
    const now = this.#clock.now();
    const sweep = ++this.#writes >= SWEEP_EVERY;
    const apply = (): T => {
      const result = operation(now);
      if (sweep) this.#sweep(now);
      return result;
    };
    const savepoint = statements === MANY || sweep;
    const written = lazy
      ? run(() => this.#group.lazy(apply, savepoint, LAZY_WITHIN_MS))
      : this.#group.write(apply, savepoint);
    if (this.#untilCheckpointer > 0 && --this.#untilCheckpointer === 0)
      this.#checkpointer = startCheckpointer(
        this.#db,
        this.#path,
        this.#onCheckpointError,
        CHECKPOINT_EVERY_MS,
        (task) => this.#group.betweenGroups(task),
      );
    return written;
  }

  #sweep(now: number): void {
    this.#writes = 0;
    this.#startPrefetch();
    this.#sql.sweepDocs.run(now);
    this.#sql.sweepSeen.run(now);
    this.#sql.sweepValues.run(now);
    this.#sql.sweepSends.run(now);
    this.#sql.sweepLeases.run(now - LEASE_GRACE_MS);
  }
}

const STATEMENTS = {
  getDoc: 'SELECT json, version, expires_at FROM conversations WHERE id = ?',
  docVersion: 'SELECT version, expires_at FROM conversations WHERE id = ?',
  getDocIfChanged:
    'SELECT CASE WHEN version = ? THEN NULL ELSE json END, version, expires_at FROM conversations WHERE id = ?',
  putDoc:
    'INSERT OR REPLACE INTO conversations (id, json, version, expires_at) VALUES (?, ?, ?, ?)',
  deleteDoc: 'DELETE FROM conversations WHERE id = ?',
  listDocs: LIST_DOCS_SQL,
  conversationTimers: CONVERSATION_TIMERS_SQL,
  markSeen:
    'INSERT INTO seen (key, expires_at) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET expires_at = ?2 WHERE seen.expires_at <= ?3',
  insertInboxItem:
    'INSERT OR REPLACE INTO inbox (conversation_id, id, sort_key, json) VALUES (?, ?, ?, ?)',
  deleteInboxItem: 'DELETE FROM inbox WHERE conversation_id = ? AND id = ?',
  peekInbox:
    'SELECT id, sort_key, json FROM inbox WHERE conversation_id = ? ORDER BY sort_key, seq LIMIT ?',
  inboxLeft: 'SELECT COUNT(*) FROM inbox WHERE conversation_id = ?',
  inboxConversations:
    'SELECT conversation_id FROM inbox GROUP BY conversation_id ORDER BY MIN(seq) LIMIT ?',
  getValue: 'SELECT json, expires_at FROM kv WHERE key = ?',
  putValue: 'INSERT OR REPLACE INTO kv (key, json, expires_at) VALUES (?, ?, ?)',
  deleteValue: 'DELETE FROM kv WHERE key = ?',
  putTimer:
    'INSERT OR REPLACE INTO timers (id, conversation_id, name, due_at, claimable_at) VALUES (?, ?, ?, ?4, ?4)',
  deleteTimer: 'DELETE FROM timers WHERE id = ?',
  dueTimers:
    'SELECT id, conversation_id, name, due_at FROM timers WHERE claimable_at <= ? ORDER BY claimable_at, id LIMIT ?',
  claimTimer: 'UPDATE timers SET claimable_at = ? WHERE id = ?',
  completeTimer: 'DELETE FROM timers WHERE id = ? AND due_at = ?',
  nextTimer: 'SELECT MIN(claimable_at) FROM timers',
  putSend: 'INSERT OR REPLACE INTO sends (id, json, message_id, expires_at) VALUES (?, ?, ?, ?)',
  getSend: 'SELECT json, expires_at FROM sends WHERE id = ?',
  sendByMessage:
    'SELECT json, expires_at FROM sends WHERE message_id = ? ORDER BY expires_at DESC LIMIT 1',
  getLease: 'SELECT owner, token, expires_at FROM leases WHERE name = ?',
  putLease: 'INSERT OR REPLACE INTO leases (name, owner, token, expires_at) VALUES (?, ?, ?, ?)',
  releaseLease: "UPDATE leases SET owner = '', expires_at = ? WHERE name = ? AND owner = ?",
  sweepDocs: 'DELETE FROM conversations WHERE expires_at <= ?',
  sweepSeen: 'DELETE FROM seen WHERE expires_at <= ?',
  sweepValues: 'DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= ?',
  sweepSends: 'DELETE FROM sends WHERE expires_at <= ?',
  sweepLeases: 'DELETE FROM leases WHERE expires_at <= ?',
} as const;

function inboxSeenKey(conversationId: string, itemId: string): string {
  return `i\u0000${conversationId}\u0000${itemId}`;
}

/** Runs a synchronous operation as a promise; an unexpected throw becomes a rejection. */
function run<T>(operation: () => T): Promise<T> {
  try {
    return Promise.resolve(operation());
  } catch (error) {
    return Promise.reject(asError(error));
  }
}
