/**
 * ADAPTER, pending the journal contract (see /work/briefs/attach-needs.md): a read-only
 * view of the SQLite state file of `switchboard run`. `new SqliteStore({ path })` cannot
 * serve the attached studio: opening it writes (schema, holder heartbeat) and a running
 * bot holds the file. This opens its own connection with `PRAGMA query_only = ON` (SQLite
 * itself refuses every write on it), never runs the schema, never takes the holder record,
 * and reads while `run` writes (WAL readers do not block the writer). Delete it once the
 * store offers a read-only opening of its own.
 */
import { existsSync } from 'node:fs';
import Database from 'libsql';
import { systemClock, type Clock } from '../../core/clock.js';
import { SQLITE_SCHEMA_VERSION } from '../../store/sqlite-schema.js';
import { parseStored, storedSendSchema } from '../../store/redis-store-schemas.js';
import type { InboxItem, SendRecord, Store, TimerRecord, Versioned } from '../../store/store.js';
import { READ_OPERATIONS, ReadOnlyStoreError } from './read-only-store.js';

/** The state file cannot be attached to (missing, not a state file, or too new). */
export class StateFileAttachError extends Error {
  override readonly name = 'StateFileAttachError';
}

/** One stored conversation, as the journal contract's `listConversations` lists it. */
export interface ListedConversation {
  readonly id: string;
  readonly value: unknown;
  readonly version: number;
}

/** One page of a listing (the contract's `ConversationPage`). */
export interface ConversationPage {
  readonly items: readonly ListedConversation[];
  readonly cursor: string | undefined;
}

type Row = readonly unknown[];

/** A {@link Store} whose reads come from a query-only connection; every write rejects. */
export type ReadOnlyStateFile = Store & {
  /** Live conversations in id order, `limit` at a time (the contract's listing). */
  listConversations(cursor: string | undefined, limit: number): Promise<ConversationPage>;
  /** The pending timers of one conversation, earliest first. */
  timersOf(conversationId: string): Promise<TimerRecord[]>;
};

/**
 * Opens `path` for reading only (see the file comment). Refuses a missing file (SQLite
 * would create one), a file without the state tables, and a newer schema version.
 * @example
 * const store = openStateFileReadOnly('.switchboard/state.db');
 */
export function openStateFileReadOnly(path: string, clock: Clock = systemClock): ReadOnlyStateFile {
  if (!existsSync(path))
    throw new StateFileAttachError(
      `no state file at ${path}: pass --state <file> or set STATE_PATH to the file \`switchboard run\` uses (or REDIS_URL for Redis)`,
    );
  const db = new Database(path);
  const raw = (sql: string) => db.prepare(sql).raw();
  try {
    db.exec('PRAGMA query_only = ON');
    db.exec('PRAGMA busy_timeout = 2000');
    const schema = raw("SELECT value FROM meta WHERE key = 'schema'").get() as Row | undefined;
    const version = schema === undefined ? 0 : Number(schema[0]);
    if (version > SQLITE_SCHEMA_VERSION)
      throw new StateFileAttachError(
        `state file ${path} has schema version ${version}; this switchboard knows ${SQLITE_SCHEMA_VERSION}: upgrade switchboard`,
      );
  } catch (error) {
    db.close();
    if (error instanceof StateFileAttachError) throw error;
    throw new StateFileAttachError(
      `${path} is not a switchboard state file: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const sql = {
    doc: raw('SELECT json, version, expires_at FROM conversations WHERE id = ?'),
    list: raw(
      'SELECT id, json, version FROM conversations WHERE id > ? AND expires_at > ? ORDER BY id LIMIT ?',
    ),
    peek: raw(
      'SELECT id, sort_key, json FROM inbox WHERE conversation_id = ? ORDER BY sort_key, seq LIMIT ?',
    ),
    withInbox: raw(
      'SELECT conversation_id FROM inbox GROUP BY conversation_id ORDER BY MIN(seq) LIMIT ?',
    ),
    value: raw('SELECT json, expires_at FROM kv WHERE key = ?'),
    nextTimer: raw('SELECT MIN(claimable_at) FROM timers'),
    timers: raw(
      'SELECT id, conversation_id, name, due_at FROM timers WHERE conversation_id = ? ORDER BY due_at, id',
    ),
    send: raw('SELECT json, expires_at FROM sends WHERE id = ?'),
    sendByMessage: raw(
      'SELECT json, expires_at FROM sends WHERE message_id = ? ORDER BY expires_at DESC LIMIT 1',
    ),
  };
  const read = <T>(fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const live = (expiresAt: unknown): boolean =>
    expiresAt === null || Number(expiresAt) > clock.now();
  const send = (row: Row | undefined, what: string): SendRecord | undefined =>
    row === undefined || !live(row[1])
      ? undefined
      : parseStored(what, String(row[0]), storedSendSchema);
  let closed = false;

  const reads = {
    getConversation: (id: string) =>
      read((): Versioned<unknown> | undefined => {
        const row = sql.doc.get(id) as Row | undefined;
        if (row === undefined || !live(row[2])) return undefined;
        return { value: JSON.parse(String(row[0])) as unknown, version: Number(row[1]) };
      }),
    listConversations: (cursor: string | undefined, limit: number) =>
      read((): ConversationPage => {
        const items = (sql.list.all(cursor ?? '', clock.now(), limit) as Row[]).map((row) => ({
          id: String(row[0]),
          value: JSON.parse(String(row[1])) as unknown,
          version: Number(row[2]),
        }));
        return { items, cursor: items.length < limit ? undefined : items.at(-1)?.id };
      }),
    timersOf: (id: string) =>
      read(() =>
        (sql.timers.all(id) as Row[]).map((row) => ({
          id: String(row[0]),
          conversationId: String(row[1]),
          name: String(row[2]),
          dueAt: Number(row[3]),
        })),
      ),
    peekInbox: (id: string, limit: number) =>
      read((): InboxItem[] =>
        limit <= 0
          ? []
          : (sql.peek.all(id, limit) as Row[]).map((row) => ({
              id: String(row[0]),
              sortKey: Number(row[1]),
              payload: JSON.parse(String(row[2])) as unknown,
            })),
      ),
    conversationsWithInbox: (limit: number) =>
      read(() => (sql.withInbox.all(limit) as Row[]).map((row) => String(row[0]))),
    getValue: (key: string) =>
      read(() => {
        const row = sql.value.get(key) as Row | undefined;
        return row === undefined || !live(row[1])
          ? undefined
          : (JSON.parse(String(row[0])) as unknown);
      }),
    nextTimerDue: () =>
      read(() => {
        const row = sql.nextTimer.get() as Row | undefined;
        return row?.[0] == null ? undefined : Number(row[0]);
      }),
    getSend: (id: string) => read(() => send(sql.send.get(id) as Row | undefined, `send ${id}`)),
    findSendByMessageId: (id: string) =>
      read(() => send(sql.sendByMessage.get(id) as Row | undefined, `send ${id}`)),
    close: () =>
      read(() => {
        if (!closed) db.close();
        closed = true;
      }),
  };
  // Every other operation of the contract is a write: refused before SQLite sees it.
  return new Proxy(reads, {
    get(target, property) {
      const name = String(property);
      if (Object.hasOwn(target, name)) return target[name as keyof typeof target];
      if (READ_OPERATIONS.has(name)) return undefined; // optional reads it lacks
      if (typeof property === 'symbol' || name === 'then') return undefined;
      return () => Promise.reject(new ReadOnlyStoreError(name));
    },
  }) as unknown as ReadOnlyStateFile;
}
