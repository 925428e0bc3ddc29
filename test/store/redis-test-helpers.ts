import { Redis } from 'ioredis';

/** Where the Redis tests connect (CI guarantees a server there). */
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Connects a client for a test. An unreachable Redis rejects with a clear error, so the
 * tests fail instead of being skipped.
 */
export async function connectTestRedis(): Promise<Redis> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await client.connect();
  } catch (cause) {
    client.disconnect();
    throw new Error(`Redis at ${REDIS_URL} is unreachable; set REDIS_URL or start Redis`, {
      cause,
    });
  }
  return client;
}

/** Deletes every key starting with `prefix` (SCAN + DEL), including hash-tagged ones. */
export async function deleteByPrefix(redis: Redis, prefix: string): Promise<void> {
  for (const pattern of [`${escapeGlob(prefix)}*`, `{${escapeGlob(prefix)}*`]) {
    for await (const batch of redis.scanStream({ match: pattern, count: 500 })) {
      const keys = batch as string[];
      if (keys.length > 0) await redis.del(...keys);
    }
  }
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/**
 * The part of a key Redis Cluster hashes to pick its slot: the text between the first
 * `{` and the next `}` when not empty, else the whole key.
 */
export function clusterHashPart(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}
