/**
 * A read-only view of a SQLite state file for operations (`switchboard inspect`,
 * `switchboard conversations`, `switchboard studio --attach`): it opens the file
 * read-only (`mode=ro`) with `PRAGMA query_only`, takes no holder record and never
 * writes, so it runs beside the bot that holds the file.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'libsql';
import { systemClock, type Clock } from '../core/clock.js';
import { parseStored, storedSendSchema } from './redis-store-schemas.js';
import { SQLITE_SCHEMA_VERSION } from './sqlite-schema.js';
import { CONVERSATION_TIMERS_SQL, LIST_DOCS_SQL, listDocs, timersOf } from './sqlite-listing.js';
import type { ConversationPage, SendRecord, TimerRecord, Versioned } from './store.js';
import { fromJson } from './to-json.js';

/** The state file cannot be read (absent, not a state file, or of a newer schema). */
export class StateFileReadError extends Error {
  override readonly name = 'StateFileReadError';
}

/**
 * Opens a state file for reading only: a `file:` URI with `mode=ro` (SQLite's read-only
 * open; libsql ignores the `readonly` constructor option, so it cannot be used), and
 * `PRAGMA query_only` on top, so that a statement that would write through this
 * connection (a bug) is refused with SQLITE_READONLY instead of touching the file a
 * running bot holds.
 * @example
 * const db = openStateFileReadOnly('.switchboard/state.db');
 * db.exec('DELETE FROM conversations'); // throws: attempt to write a readonly database
 */
export function openStateFileReadOnly(path: string): Database.Database {
  // A URI, so the path is percent-encoded ('?', '#' and '%' are literal in a file name).
  const db = new Database(`${pathToFileURL(resolve(path)).href}?mode=ro`);
  try {
    db.exec('PRAGMA query_only = 1');
    db.exec('PRAGMA busy_timeout = 5000');
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * The reading half of the store contract over a state file another process may hold.
 * @example
 * const reader = new SqliteStateReader('.switchboard/state.db');
 * const doc = await reader.getConversation('conv_1');
 * reader.close();
 */
export class SqliteStateReader {
  readonly #db: Database.Database;
  readonly #clock: Clock;
  readonly #sql: {
    getDoc: Database.Statement;
    listDocs: Database.Statement;
    timers: Database.Statement;
    getSend: Database.Statement;
    sendByMessage: Database.Statement;
  };

  constructor(path: string, options: { readonly clock?: Clock } = {}) {
    if (!existsSync(path)) throw new StateFileReadError(`${path}: no such state file`);
    this.#clock = options.clock ?? systemClock;
    this.#db = openStateFileReadOnly(path);
    try {
      const meta = this.#db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
        .raw()
        .get();
      const schema =
        meta === undefined
          ? undefined
          : (this.#db.prepare("SELECT value FROM meta WHERE key = 'schema'").raw().get() as
              [string] | undefined);
      if (schema === undefined)
        throw new StateFileReadError(`${path} is not a switchboard state file (no schema version)`);
      if (Number(schema[0]) > SQLITE_SCHEMA_VERSION)
        throw new StateFileReadError(
          `${path} has schema version ${schema[0]}; this switchboard reads up to ${SQLITE_SCHEMA_VERSION}: upgrade switchboard`,
        );
      const raw = (text: string): Database.Statement => this.#db.prepare(text).raw();
      this.#sql = {
        getDoc: raw('SELECT json, version, expires_at FROM conversations WHERE id = ?'),
        listDocs: raw(LIST_DOCS_SQL),
        timers: raw(CONVERSATION_TIMERS_SQL),
        getSend: raw('SELECT json, expires_at FROM sends WHERE id = ?'),
        sendByMessage: raw(
          'SELECT json, expires_at FROM sends WHERE message_id = ? ORDER BY expires_at DESC LIMIT 1',
        ),
      };
    } catch (error) {
      this.#db.close();
      throw error;
    }
  }

  getConversation(conversationId: string): Promise<Versioned<unknown> | undefined> {
    return attempt(() => {
      const row = this.#sql.getDoc.get(conversationId) as unknown[] | undefined;
      if (row === undefined || Number(row[2]) <= this.#clock.now()) return undefined;
      return { value: fromJson(String(row[0])), version: Number(row[1]) };
    });
  }

  listConversations(cursor: string | undefined, limit: number): Promise<ConversationPage> {
    return attempt(() => listDocs(this.#sql.listDocs, cursor, limit, this.#clock.now()));
  }

  conversationTimers(conversationId: string): Promise<TimerRecord[]> {
    return attempt(() => timersOf(this.#sql.timers, conversationId));
  }

  getSend(id: string): Promise<SendRecord | undefined> {
    return attempt(() => this.#send(this.#sql.getSend.get(id), `send ${id}`));
  }

  findSendByMessageId(messageId: string): Promise<SendRecord | undefined> {
    return attempt(() =>
      this.#send(this.#sql.sendByMessage.get(messageId), `send of message ${messageId}`),
    );
  }

  close(): Promise<void> {
    this.#db.close();
    return Promise.resolve();
  }

  #send(row: unknown, what: string): SendRecord | undefined {
    if (!Array.isArray(row) || Number(row[1]) <= this.#clock.now()) return undefined;
    return parseStored(what, String(row[0]), storedSendSchema);
  }
}

function attempt<T>(operation: () => T): Promise<T> {
  try {
    return Promise.resolve(operation());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
