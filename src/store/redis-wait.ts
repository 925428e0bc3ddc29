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
 * Where and when a write went out, taken just before it by {@link markWrite}: the
 * connection to the key's primary and how many times that connection had closed.
 */
export interface WriteMark {
  readonly node: Redis | undefined;
  readonly closes: number;
}

/** Closes seen per connection (a `close` listener is added the first time one is marked). */
const closesOf = new WeakMap<Redis, { count: number }>();

/**
 * Marks the connection a write of `key` is about to take (on a cluster: the primary of the
 * key's slot in the client's map; none when the map is not loaded). {@link waitForReplicas}
 * then refuses to vouch for the write when that connection closed in between: ioredis
 * resends the commands a closed connection left unanswered (`autoResendUnfulfilledCommands`,
 * its default) on the new connection, which after a Sentinel failover leads to the new
 * primary: a `WAIT` answered there says nothing about a write the old primary acknowledged
 * and the failover dropped.
 * @example
 * const mark = markWrite(redis, docKey);
 * await redis.hset(docKey, 'v', 2);
 * await waitForReplicas(redis, docKey, { replicas: 1, timeoutMs: 500 }, mark);
 */
export function markWrite(client: RedisClient, key: string): WriteMark {
  const cluster = asCluster(client);
  const node = cluster === undefined ? (client as Redis) : findPrimary(cluster, key);
  if (node === undefined) return { node, closes: 0 };
  let closes = closesOf.get(node);
  if (closes === undefined) {
    const counter = { count: 0 };
    node.on('close', () => counter.count++);
    closesOf.set(node, counter);
    closes = counter;
  }
  return { node, closes: closes.count };
}

/**
 * Runs `WAIT replicas timeout` on the connection that carried the last write of `key` (on a
 * cluster: the primary of the key's slot, whose connection ioredis shares for every command
 * of that slot, so the write went before the WAIT). Resolves when enough replicas hold
 * every write made so far on that connection. With the `mark` taken before the write, it
 * also throws when the write and the WAIT may not have met on one connection (the
 * connection closed, or the slot changed primary, in between).
 * @throws {RedisReplicationError} when fewer replicas acknowledged within the timeout, or
 *   the write's connection changed.
 * @example
 * await store.putConversation(id, doc, v);
 * await waitForReplicas(redis, docKey, { replicas: 1, timeoutMs: 500 });
 */
export async function waitForReplicas(
  client: RedisClient,
  key: string,
  durability: RedisDurability,
  mark?: WriteMark,
): Promise<void> {
  const cluster = asCluster(client);
  const node = cluster === undefined ? (client as Redis) : primaryOf(cluster, key);
  if (mark !== undefined) assertSameConnection(node, key, mark);
  const acked = await node.wait(durability.replicas, durability.timeoutMs);
  if (mark !== undefined) assertSameConnection(node, key, mark);
  if (acked < durability.replicas)
    throw new RedisReplicationError(
      `a write of ${key} reached its primary but ${acked} of ${durability.replicas} replica(s) acknowledged it within ${durability.timeoutMs} ms (REDIS_WAIT_REPLICAS)`,
    );
}

function assertSameConnection(node: Redis, key: string, mark: WriteMark): void {
  if (mark.node !== node)
    throw new RedisReplicationError(
      `the primary serving ${key} changed between a write and its WAIT: the write may be lost (REDIS_WAIT_REPLICAS)`,
    );
  if ((closesOf.get(node)?.count ?? 0) !== mark.closes)
    throw new RedisReplicationError(
      `the connection that carried a write of ${key} closed before its WAIT answered: the write may be lost (REDIS_WAIT_REPLICAS)`,
    );
}

/** The connection to the primary that serves `key`'s slot in the client's slot map. */
function primaryOf(client: Cluster, key: string): Redis {
  const node = findPrimary(client, key);
  if (node === undefined)
    throw new RedisReplicationError(
      `no known primary serves the slot of ${key} (cluster slot map not loaded or stale)`,
    );
  return node;
}

function findPrimary(client: Cluster, key: string): Redis | undefined {
  const owner = client.slots[clusterSlot(key)]?.[0];
  return client
    .nodes('master')
    .find((n) => `${n.options.host ?? ''}:${String(n.options.port ?? '')}` === owner);
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
