import { z } from 'zod';
import type { Conversation } from '../api/resources.js';

/**
 * The stored history line of a number (store value {@link HISTORY_LINE_KEY}, kept forever).
 * `at`: epoch ms of the newest message the first successful read of the number saw, on the
 * API's clock (0: the number had no message, so there is no history). `ids`: the messages
 * at exactly `at` that the read saw (the `lastMessage` of each conversation last active at
 * that ms). `source` is absent in lines written before 0.x (the local clock at first start).
 */
export const HistoryLineValue = z.object({
  at: z.number().int(),
  ids: z.array(z.string()).optional(),
  source: z.enum(['api', 'empty']).optional(),
});
export type HistoryLineValue = z.infer<typeof HistoryLineValue>;

/** Store key of the history line (the same key as before: a line once written is kept). */
export const HISTORY_LINE_KEY = 'engine:cutoff';

/** Conversations asked for in the read that decides the line (the API's maximum page). */
export const FIRST_READ_LIMIT = 100;

/** The time of a conversation's newest message, epoch ms (NaN when unreadable). */
function newestOf(conversation: Conversation): number {
  const last = conversation.lastMessage?.occurredAt;
  const at = Date.parse(conversation.lastMessageAt);
  return last === undefined ? at : Math.max(at, Date.parse(last));
}

/**
 * The line a first read of `GET /v1/conversations` (its first page, newest first) gives:
 * the newest `occurredAt` it shows, with the ids of the messages it shows at that very ms.
 * No conversation at all: no history (`at` 0).
 * @example
 * lineOfFirstRead((await client.listConversations({ limit: 100 })).items);
 */
export function lineOfFirstRead(conversations: readonly Conversation[]): HistoryLineValue {
  let at = Number.NEGATIVE_INFINITY;
  for (const conversation of conversations) {
    const newest = newestOf(conversation);
    if (newest > at) at = newest;
  }
  if (!Number.isFinite(at)) return { at: 0, ids: [], source: 'empty' };
  const ids: string[] = [];
  for (const conversation of conversations) {
    const last = conversation.lastMessage;
    if (last !== null && last !== undefined && Date.parse(last.occurredAt) === at)
      ids.push(last.id);
  }
  return { at, ids, source: 'api' };
}

/**
 * The rule: with no backfill, a message is history when it occurred before the line, or at
 * the line's very ms and the first read saw it; with a backfill, when it occurred before the
 * line less the backfill.
 */
export function isBeforeLine(
  line: HistoryLineValue,
  backfillMs: number,
  occurredAt: number,
  messageId?: string,
): boolean {
  if (backfillMs > 0) return occurredAt < line.at - backfillMs;
  if (occurredAt < line.at) return true;
  return occurredAt === line.at && messageId !== undefined && (line.ids ?? []).includes(messageId);
}
