/**
 * The version of the Redis key layout under a prefix, like the SQLite schema version: a
 * key `<prefix>layout` holds it. A prefix without it but with keys was written by code
 * before layout versions (version 1); an older layout is migrated in place, a newer one is
 * refused (this code would misread it).
 *
 * Versions: 1 — the layout of switchboard before versions, whose first send records may
 * still sit in one never-expiring hash (`{<prefix>sends}:rec` and `:mid`); 2 — those records
 * moved to the per-send keys with the send retention, and the hashes removed.
 */
import type { Cluster, Redis } from 'ioredis';
import { z } from 'zod';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../log/logger.js';
import { RedisKeys } from './redis-keys.js';
import type { RedisClient } from './redis-script.js';
import { parseStored, storedSendSchema } from './redis-store-schemas.js';
import { RedisStore } from './redis-store.js';
import { DEFAULT_RETENTION, type StoreRetention } from './store.js';

/** The layout this code reads and writes. */
export const REDIS_LAYOUT_VERSION = 2;

/** The layout under a prefix is newer than this code, unreadable, or could not be migrated. */
export class RedisLayoutError extends Error {
  override readonly name = 'RedisLayoutError';
}

/** What {@link ensureRedisLayout} found and did. */
export interface RedisLayoutResult {
  /** `new`: an empty prefix, stamped; `current`: nothing to do; `migrated`: moved up. */
  readonly status: 'new' | 'current' | 'migrated';
  readonly from: number;
  readonly to: number;
  /** Send records moved out of the first layout's hash (migrations only). */
  readonly sendsMoved?: number;
}

/** Options of {@link ensureRedisLayout}. */
export interface RedisLayoutOptions {
  readonly clock?: Clock;
  /** The send retention decides which old records are still worth moving. */
  readonly retention?: Partial<StoreRetention>;
  readonly logger?: Logger;
  /** How long to wait for another worker's migration (default 60,000 ms). */
  readonly waitMs?: number;
  /** Pause between two looks while waiting (default 200 ms). */
  readonly pollMs?: number;
}

const Version = z.coerce.number().int().positive();
const LOCK_MS = 120_000;

/** The key holding the layout version of a prefix. */
export function layoutKey(prefix: string): string {
  return `${prefix}layout`;
}

/**
 * Makes sure the keys under `prefix` are in {@link REDIS_LAYOUT_VERSION}: stamps an empty
 * prefix, migrates an older layout in place (one worker at a time; the others wait for it),
 * and throws a {@link RedisLayoutError} for a newer or unreadable one. Call it before the
 * first `RedisStore` of a prefix (`switchboard run` does).
 * @example
 * await ensureRedisLayout(redis, 'switchboard:', { logger });
 */
export async function ensureRedisLayout(
  redis: RedisClient,
  prefix: string,
  options: RedisLayoutOptions = {},
): Promise<RedisLayoutResult> {
  const key = layoutKey(prefix);
  const found = await readVersion(redis, prefix);
  if (found === REDIS_LAYOUT_VERSION) return { status: 'current', from: found, to: found };
  if (found > REDIS_LAYOUT_VERSION)
    throw new RedisLayoutError(
      `Redis prefix "${prefix}" has layout version ${found}; this switchboard knows ${REDIS_LAYOUT_VERSION}: upgrade switchboard (or use another REDIS_PREFIX)`,
    );
  const lock = `${key}:lock`;
  const token = `${process.pid}:${Date.now()}:${Math.random()}`;
  if ((await redis.set(lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK')
    return waitForMigration(redis, prefix, found, options);
  try {
    // Read again under the lock: another worker may have finished meanwhile.
    const from = await readVersion(redis, prefix);
    if (from >= REDIS_LAYOUT_VERSION) return { status: 'current', from, to: from };
    if (from === 0) {
      await redis.set(key, String(REDIS_LAYOUT_VERSION));
      return { status: 'new', from: 0, to: REDIS_LAYOUT_VERSION };
    }
    options.logger?.info('migrating the Redis layout', { prefix, from, to: REDIS_LAYOUT_VERSION });
    const sendsMoved = await moveLegacySends(redis, prefix, options).catch((error: unknown) => {
      throw new RedisLayoutError(
        `Redis prefix "${prefix}": migrating layout ${from} to ${REDIS_LAYOUT_VERSION} failed (nothing is lost: it is tried again at the next start): ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    });
    await redis.set(key, String(REDIS_LAYOUT_VERSION));
    options.logger?.info('Redis layout migrated', { prefix, from, sendsMoved });
    return { status: 'migrated', from, to: REDIS_LAYOUT_VERSION, sendsMoved };
  } finally {
    if ((await redis.get(lock)) === token) await redis.del(lock);
  }
}

/** The version under a prefix: its key, else 1 when any key exists, else 0 (empty). */
async function readVersion(redis: RedisClient, prefix: string): Promise<number> {
  const key = layoutKey(prefix);
  const raw = await redis.get(key);
  if (raw !== null) {
    const parsed = Version.safeParse(raw);
    if (!parsed.success)
      throw new RedisLayoutError(
        `Redis key ${key} holds "${raw.slice(0, 40)}", not a layout version: remove it only if nothing else uses this prefix`,
      );
    return parsed.data;
  }
  return (await anyKeyUnder(redis, prefix)) ? 1 : 0;
}

/** Whether a key of the prefix exists (plain or hash-tagged), on every primary of a cluster. */
async function anyKeyUnder(redis: RedisClient, prefix: string): Promise<boolean> {
  const nodes: Redis[] = redis.isCluster ? (redis as Cluster).nodes('master') : [redis as Redis];
  const glob = prefix.replace(/[*?[\]\\]/g, '\\$&');
  for (const node of nodes)
    for (const match of [`${glob}*`, `{${glob}*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', match, 'COUNT', 1000);
        if (keys.some((k) => k !== `${prefix}layout:lock`)) return true;
        cursor = next;
      } while (cursor !== '0');
    }
  return false;
}

async function waitForMigration(
  redis: RedisClient,
  prefix: string,
  from: number,
  options: RedisLayoutOptions,
): Promise<RedisLayoutResult> {
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  options.logger?.info('another worker migrates the Redis layout; waiting', { prefix });
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
    const raw = await redis.get(layoutKey(prefix));
    const version = raw === null ? undefined : Version.safeParse(raw).data;
    if (version !== undefined && version >= REDIS_LAYOUT_VERSION)
      return { status: 'current', from, to: version };
  }
  throw new RedisLayoutError(
    `Redis prefix "${prefix}": another worker holds the layout migration lock (${layoutKey(prefix)}:lock) and did not finish within ${(options.waitMs ?? 60_000) / 1000} s; start again once it has`,
  );
}

/**
 * Moves the send records of the first layout's hash to per-send keys (skipping ids that
 * have one already, and records older than the send retention), then removes the hashes.
 */
async function moveLegacySends(
  redis: RedisClient,
  prefix: string,
  options: RedisLayoutOptions,
): Promise<number> {
  const keys = new RedisKeys(prefix);
  const legacy = keys.legacySends;
  const clock = options.clock ?? systemClock;
  const retention = { ...DEFAULT_RETENTION, ...options.retention };
  const store = new RedisStore({ redis, prefix, clock, retention });
  let moved = 0;
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(legacy.records, cursor, 'COUNT', 500);
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const id = flat[i] ?? '';
      const record = parseStored(legacy.records, flat[i + 1] ?? '', storedSendSchema);
      if (record.startedAt + retention.sendRecordsMs <= clock.now()) continue;
      if ((await redis.exists(keys.send(id))) === 1) continue;
      await store.putSend(record);
      moved++;
    }
    cursor = next;
  } while (cursor !== '0');
  await redis.del(legacy.records);
  await redis.del(legacy.byMessageId);
  return moved;
}
