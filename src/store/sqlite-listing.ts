/**
 * The read-only listing queries of a SQLite state file, shared by {@link SqliteStore}
 * (the bot's own connection) and {@link SqliteStateReader} (`switchboard inspect` on a
 * file another process holds).
 */
import type Database from 'libsql';
import { parseStored, storedTimerSchema } from './redis-store-schemas.js';
import type { ConversationPage, TimerRecord } from './store.js';
import { fromJson } from './to-json.js';

/** A page of live documents after an id (`?1` cursor, `?2` now, `?3` limit), in id order. */
export const LIST_DOCS_SQL =
  'SELECT id, json, version FROM conversations WHERE id > ?1 AND expires_at > ?2 ORDER BY id LIMIT ?3';

/** The timers of one conversation, in due order. */
export const CONVERSATION_TIMERS_SQL =
  'SELECT id, conversation_id, name, due_at FROM timers WHERE conversation_id = ? ORDER BY due_at, id';

/** Runs {@link LIST_DOCS_SQL} (a raw statement: rows are arrays) as one page. */
export function listDocs(
  statement: Database.Statement,
  cursor: string | undefined,
  limit: number,
  now: number,
): ConversationPage {
  const size = Math.max(1, Math.floor(limit));
  // One more than asked: whether another page follows is known without a second query.
  const rows = statement.all(cursor ?? '', now, size + 1) as unknown[][];
  const page = rows.slice(0, size);
  const items = page.map((row) => ({
    id: String(row[0]),
    value: fromJson(String(row[1])),
    version: Number(row[2]),
  }));
  return { items, cursor: rows.length > size ? items.at(-1)?.id : undefined };
}

/** Runs {@link CONVERSATION_TIMERS_SQL} (raw rows), each row validated. */
export function timersOf(statement: Database.Statement, conversationId: string): TimerRecord[] {
  const rows = statement.all(conversationId) as unknown[][];
  return rows.map((row) =>
    parseStored(
      `timer ${String(row[0])}`,
      JSON.stringify({ id: row[0], conversationId: row[1], name: row[2], dueAt: Number(row[3]) }),
      storedTimerSchema,
    ),
  );
}
