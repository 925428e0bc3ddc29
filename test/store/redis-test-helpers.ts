import type { Redis } from 'ioredis';
import { connectRedis } from '../../src/store/redis-connection.js';
import { asCluster, type RedisClient } from '../../src/store/redis-script.js';

/** Where the Redis tests connect (CI guarantees a server there). */
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** The local cluster of `.ci/redis-cluster.sh` (3 primaries + 3 replicas). */
export const REDIS_CLUSTER_URL =
  process.env['REDIS_CLUSTER_URL'] ??
  'redis+cluster://127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002';

/** The local Sentinel setup of `.ci/redis-cluster.sh` (primary, replica, 3 Sentinels). */
export const REDIS_SENTINEL_URL =
  process.env['REDIS_SENTINEL_URL'] ??
  'redis+sentinel://127.0.0.1:27100,127.0.0.1:27101,127.0.0.1:27102/mymaster';

/** The deployments the Redis adapters' suites run on: one node, then a real cluster. */
export const REDIS_TARGETS = [
  { name: 'one node', url: REDIS_URL },
  { name: 'cluster', url: REDIS_CLUSTER_URL },
] as const;

/**
 * Connects a client for a test (default: REDIS_URL). An unreachable Redis rejects with a
 * clear error, so the tests fail instead of being skipped.
 */
export async function connectTestRedis(url: string = REDIS_URL): Promise<RedisClient> {
  try {
    return await connectRedis(url, {
      maxRetriesPerRequest: 1,
      autoPipelining: false,
      timeoutMs: 15_000,
    });
  } catch (cause) {
    throw new Error(
      `Redis at ${url} is unreachable; start it (.ci/redis-cluster.sh start for the cluster and Sentinel) or set REDIS_URL / REDIS_CLUSTER_URL / REDIS_SENTINEL_URL`,
      { cause },
    );
  }
}

/** Deletes every key starting with `prefix` (SCAN + DEL on every primary), hash-tagged ones too. */
export async function deleteByPrefix(redis: RedisClient, prefix: string): Promise<void> {
  const cluster = asCluster(redis);
  const nodes: Redis[] = cluster === undefined ? [redis as Redis] : cluster.nodes('master');
  for (const node of nodes) {
    for (const pattern of [`${escapeGlob(prefix)}*`, `{${escapeGlob(prefix)}*`]) {
      for await (const batch of node.scanStream({ match: pattern, count: 500 })) {
        // One DEL per key: on a cluster the keys of one batch may span slots.
        for (const key of batch as string[]) await node.del(key);
      }
    }
  }
}

/** Every key matching `pattern` on every primary (SCAN). */
export async function scanAll(redis: RedisClient, pattern: string): Promise<string[]> {
  const cluster = asCluster(redis);
  const nodes: Redis[] = cluster === undefined ? [redis as Redis] : cluster.nodes('master');
  const keys: string[] = [];
  for (const node of nodes)
    for await (const batch of node.scanStream({ match: pattern, count: 500 }))
      keys.push(...(batch as string[]));
  return keys;
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
