import type { Cluster, Redis } from 'ioredis';
import { asCluster, type RedisClient } from './redis-script.js';

/** How many replicas must hold a write before the store answers (see {@link waitForReplicas}). */
export interface RedisDurability {
  /** Replicas that must acknowledge (1: the write survives the loss of its primary). */
  readonly replicas: number;
  /** How long to wait for them, in ms; fewer acknowledgements then fail the write. */
  readonly timeoutMs: number;
}

/**
 * Thrown when a write reached its primary but fewer replicas than asked acknowledged it in
 * time. The write may survive or not: callers treat it like any write whose reply was lost
 * (the engine's compare-and-set and send records make a retry safe).
 */
export class RedisReplicationError extends Error {
  override readonly name = 'RedisReplicationError';
}

/**
 * Runs `WAIT replicas timeout` on the connection that carried the last write of `key` (on a
 * cluster: the primary of the key's slot, whose connection ioredis shares for every command
 * of that slot, so the write went before the WAIT). Resolves when enough replicas hold
 * every write made so far on that connection.
 * @throws {RedisReplicationError} when fewer replicas acknowledged within the timeout.
 * @example
 * await store.putConversation(id, doc, v);
 * await waitForReplicas(redis, docKey, { replicas: 1, timeoutMs: 500 });
 */
export async function waitForReplicas(
  client: RedisClient,
  key: string,
  durability: RedisDurability,
): Promise<void> {
  const cluster = asCluster(client);
  const node = cluster === undefined ? (client as Redis) : primaryOf(cluster, key);
  const acked = await node.wait(durability.replicas, durability.timeoutMs);
  if (acked < durability.replicas)
    throw new RedisReplicationError(
      `a write of ${key} reached its primary but ${acked} of ${durability.replicas} replica(s) acknowledged it within ${durability.timeoutMs} ms (REDIS_WAIT_REPLICAS)`,
    );
}

/** The connection to the primary that serves `key`'s slot in the client's slot map. */
function primaryOf(client: Cluster, key: string): Redis {
  const owner = client.slots[clusterSlot(key)]?.[0];
  const node = client
    .nodes('master')
    .find((n) => `${n.options.host ?? ''}:${String(n.options.port ?? '')}` === owner);
  if (node === undefined)
    throw new RedisReplicationError(
      `no known primary serves the slot of ${key} (cluster slot map not loaded or stale)`,
    );
  return node;
}

/**
 * The Redis Cluster slot of a key: CRC16 (XMODEM) of its hash tag (the text between the
 * first `{` and the next `}` when not empty) or of the whole key, modulo 16384.
 * @example
 * clusterSlot('{user1000}.following') === clusterSlot('{user1000}.followers'); // true
 */
export function clusterSlot(key: string): number {
  const open = key.indexOf('{');
  let part = key;
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) part = key.slice(open + 1, close);
  }
  let crc = 0;
  for (const byte of Buffer.from(part, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16_384;
}
