/**
 * The read-only listings of {@link RedisStore} for operations: conversation documents by
 * SCAN (on every primary of a cluster, in a stable order), and one conversation's timers
 * by HSCAN of the timer records.
 */
import type { Cluster, Redis } from 'ioredis';
import { globEscape, type RedisKeys } from './redis-keys.js';
import type { RedisClient } from './redis-script.js';
import { parseStored, storedTimerSchema } from './redis-store-schemas.js';
import type { ConversationPage, ListedConversation, TimerRecord, Versioned } from './store.js';

/**
 * One page of conversation documents. The cursor is `<primary>:<scan cursor>:<skip>`:
 * the primary's index in address order, its SCAN cursor, and how many matching keys of
 * that SCAN step were listed already (a step can answer more keys than a page holds).
 */
export async function listRedisConversations(
  redis: RedisClient,
  keys: RedisKeys,
  read: (conversationId: string) => Promise<Versioned<unknown> | undefined>,
  cursor: string | undefined,
  limit: number,
): Promise<ConversationPage> {
  const size = Math.max(1, Math.floor(limit));
  const nodes = primaries(redis);
  let [node, scan, skip] = parseCursor(cursor, nodes.length);
  const target = nodes[node];
  if (target === undefined) return { items: [], cursor: undefined };
  const [next, found] = await target.scan(
    scan,
    'MATCH',
    keys.conversationDocPattern,
    'COUNT',
    Math.max(size, 100),
  );
  const ids = found.flatMap((key) => keys.conversationIdOfDocKey(key) ?? []);
  const taken = ids.slice(skip, skip + size);
  const items: ListedConversation[] = [];
  for (const [i, doc] of (await Promise.all(taken.map(read))).entries()) {
    const id = taken[i];
    if (doc !== undefined && id !== undefined)
      items.push({ id, value: doc.value, version: doc.version });
  }
  if (skip + size < ids.length) return { items, cursor: `${node}:${scan}:${skip + size}` };
  if (next !== '0') return { items, cursor: `${node}:${next}:0` };
  [node, scan, skip] = [node + 1, '0', 0];
  return { items, cursor: node < nodes.length ? `${node}:${scan}:${skip}` : undefined };
}

/** The timers of one conversation (ids `<conversationId>:…`), in due order. */
export async function redisConversationTimers(
  redis: RedisClient,
  keys: RedisKeys,
  conversationId: string,
): Promise<TimerRecord[]> {
  const records = keys.timers.records;
  const found: TimerRecord[] = [];
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(
      records,
      cursor,
      'MATCH',
      `${globEscape(conversationId)}:*`,
      'COUNT',
      500,
    );
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const timer = parseStored(
        `${records} ${flat[i] ?? ''}`,
        flat[i + 1] ?? '',
        storedTimerSchema,
      );
      if (timer.conversationId === conversationId) found.push(timer);
    }
    cursor = next;
  } while (cursor !== '0');
  return found.sort((a, b) => a.dueAt - b.dueAt || (a.id < b.id ? -1 : 1));
}

/** The primaries to scan, in address order (stable across calls of one walk). */
function primaries(redis: RedisClient): Redis[] {
  if (!redis.isCluster) return [redis as Redis];
  const nodes = (redis as Cluster).nodes('master');
  const address = (n: Redis): string => `${n.options.host ?? ''}:${String(n.options.port ?? '')}`;
  return [...nodes].sort((a, b) => (address(a) < address(b) ? -1 : 1));
}

function parseCursor(cursor: string | undefined, nodes: number): [number, string, number] {
  if (cursor === undefined) return [0, '0', 0];
  const match = /^(\d+):(\d+):(\d+)$/.exec(cursor);
  const node = Number(match?.[1]);
  if (match === null || node >= nodes)
    throw new RangeError(
      `listConversations: "${cursor}" is not a cursor of this store (expected <primary>:<scan cursor>:<skip> from a page)`,
    );
  return [node, match[2] ?? '0', Number(match[3])];
}
