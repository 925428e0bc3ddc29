import type { Redis } from 'ioredis';
import { asCluster, type RedisClient } from './redis-script.js';

/** What {@link redisReadiness} found. */
export type RedisReadiness =
  { readonly status: 'ready' } | { readonly status: 'not_ready'; readonly reason: string };

/**
 * Whether Redis can serve every key of the bot now. One node or a Sentinel primary: it
 * answers PING and is a primary (not a replica left behind by a failover). A cluster: every
 * slot has a primary in the client's slot map, and each of those primaries answers and
 * reports `cluster_state:ok` (a conversation's keys can hash to any slot, so one missing
 * primary is enough to say not ready). Each check gives up after `timeoutMs`.
 * @example
 * const r = await redisReadiness(redis);
 * if (r.status === 'not_ready') res.status(503).json(r);
 */
export async function redisReadiness(
  client: RedisClient,
  timeoutMs = 1_000,
): Promise<RedisReadiness> {
  try {
    const cluster = asCluster(client);
    if (cluster === undefined) return await nodeReady(client as Redis, timeoutMs, 'redis');
    const uncovered = cluster.slots.findIndex((nodes) => nodes === undefined || nodes.length === 0);
    if (cluster.slots.length < 16_384 || uncovered !== -1)
      return notReady(
        `no primary serves cluster slot ${uncovered === -1 ? cluster.slots.length : uncovered}`,
      );
    const owners = new Set(cluster.slots.map((nodes) => nodes[0]));
    const masters = cluster.nodes('master');
    for (const owner of owners) {
      const node = masters.find(
        (n) => `${n.options.host ?? ''}:${String(n.options.port ?? '')}` === owner,
      );
      if (node === undefined) {
        // The map names a primary the pool does not know yet: refresh, answer not ready now.
        cluster.refreshSlotsCache();
        return notReady(`cluster primary ${String(owner)} is not connected`);
      }
      const info = String(await within(node.cluster('INFO'), timeoutMs));
      if (!/cluster_state:ok/.test(info))
        return notReady(`cluster primary ${String(owner)} reports the cluster state is not ok`);
      const ready = await nodeReady(node, timeoutMs, `cluster primary ${String(owner)}`);
      if (ready.status !== 'ready') return ready;
    }
    return { status: 'ready' };
  } catch (error) {
    return notReady(`redis: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function nodeReady(node: Redis, timeoutMs: number, label: string): Promise<RedisReadiness> {
  const role = await within(node.role(), timeoutMs);
  if (role[0] !== 'master') {
    // A connection still on a demoted primary: reconnect (Sentinel finds the new one).
    if (!node.isCluster) node.disconnect(true);
    return notReady(`${label} is a ${String(role[0])}, not a primary`);
  }
  return { status: 'ready' };
}

function notReady(reason: string): RedisReadiness {
  return { status: 'not_ready', reason };
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
