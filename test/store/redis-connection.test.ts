import { randomUUID } from 'node:crypto';
import { Redis, type Cluster } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis, createRedisClient } from '../../src/store/redis-connection.js';
import { redisReadiness } from '../../src/store/redis-readiness.js';
import type { RedisClient } from '../../src/store/redis-script.js';
import { RedisUrlError } from '../../src/store/redis-url.js';
import { clusterSlot, markWrite, waitForReplicas } from '../../src/store/redis-wait.js';
import { REDIS_CLUSTER_URL, REDIS_SENTINEL_URL, REDIS_URL } from './redis-test-helpers.js';

const open: RedisClient[] = [];
const connect = async (url: string): Promise<RedisClient> => {
  const client = await connectRedis(url, { timeoutMs: 15_000 });
  open.push(client);
  return client;
};
afterAll(async () => {
  await Promise.all(open.map((c) => c.quit()));
});

describe('connectRedis', () => {
  it('should build a node client, a Cluster and a Sentinel client from REDIS_URL forms', async () => {
    const single = await connect(REDIS_URL);
    const cluster = await connect(REDIS_CLUSTER_URL);
    const sentinel = (await connect(REDIS_SENTINEL_URL)) as Redis;
    expect(single.isCluster).toBe(false);
    expect(cluster.isCluster).toBe(true);
    expect((cluster as Cluster).nodes('master')).toHaveLength(3);
    expect(sentinel.options.name).toBe('mymaster');
    expect((await sentinel.role())[0]).toBe('master');
    const key = `sbtest:${randomUUID()}`;
    for (const client of [single, cluster, sentinel]) {
      await client.set(key, 'v', 'PX', 10_000);
      expect(await client.get(key)).toBe('v');
      await client.del(key);
    }
  });

  it('should say ready for each form while every primary serves', async () => {
    for (const url of [REDIS_URL, REDIS_CLUSTER_URL, REDIS_SENTINEL_URL])
      expect(await redisReadiness(await connect(url))).toEqual({ status: 'ready' });
  });

  it('should say not ready, naming the node, when a connection is on a replica', async () => {
    const cluster = (await connect(REDIS_CLUSTER_URL)) as Cluster;
    const replica = cluster.nodes('slave')[0]!;
    const direct = (await connect(
      `redis://${replica.options.host ?? ''}:${String(replica.options.port)}`,
    )) as Redis;
    expect(await redisReadiness(direct)).toEqual({
      status: 'not_ready',
      reason: 'redis is a slave, not a primary',
    });
  });

  it('should refuse a malformed URL before connecting, and name an unreachable target', async () => {
    expect(() => createRedisClient('redis+sentinel://127.0.0.1:1')).toThrow(RedisUrlError);
    await expect(connectRedis('redis+cluster://127.0.0.1:1', { timeoutMs: 500 })).rejects.toThrow(
      /cannot connect to the Redis Cluster \(seeds 127\.0\.0\.1:1\)/,
    );
  });
});

describe('clusterSlot', () => {
  it('should agree with CLUSTER KEYSLOT, hash tags included', async () => {
    const cluster = (await connect(REDIS_CLUSTER_URL)) as Cluster;
    const node = cluster.nodes('master')[0]!;
    for (const key of [
      'a',
      'foo',
      '{user1000}.following',
      'x{}y',
      '{sb:c:+15551230001}:doc',
      'é',
    ]) {
      expect(clusterSlot(key), key).toBe(await node.cluster('KEYSLOT', key));
    }
  });
});

describe('waitForReplicas', () => {
  it('should wait on the primary of the key on a cluster, and refuse too few replicas', async () => {
    const cluster = await connect(REDIS_CLUSTER_URL);
    const key = `{sbtest:${randomUUID()}}:k`;
    await cluster.set(key, '1', 'PX', 10_000);
    await expect(waitForReplicas(cluster, key, { replicas: 1, timeoutMs: 2_000 })).resolves.toBe(
      undefined,
    );
    await expect(waitForReplicas(cluster, key, { replicas: 2, timeoutMs: 20 })).rejects.toThrow(
      /1 of 2 replica\(s\) acknowledged it within 20 ms/,
    );
  });

  it('should refuse to vouch for a write whose connection closed before the WAIT (a resent WAIT may reach a new primary)', async () => {
    // A cluster's node connections do not reconnect (ioredis rejects their unanswered
    // commands and refreshes the slot map), so the resend happens with Sentinel (or one node).
    for (const url of [REDIS_SENTINEL_URL]) {
      const client = await connect(url);
      const key = `{sbtest:${randomUUID()}}:k`;
      const durability = { replicas: 1, timeoutMs: 2_000 };
      const kept = markWrite(client, key);
      await client.set(key, '1', 'PX', 10_000);
      await expect(waitForReplicas(client, key, durability, kept)).resolves.toBe(undefined);
      const mark = markWrite(client, key);
      await client.set(key, '2', 'PX', 10_000);
      // What a Sentinel failover does to the connection (CLIENT KILL TYPE normal on the old
      // primary) while a WAIT blocks there: closed, reconnected, the WAIT resent and answered.
      const node = mark.node!;
      const id = await node.client('ID');
      const admin = new Redis({ host: '127.0.0.1', port: node.stream.remotePort! });
      open.push(admin);
      const waiting = waitForReplicas(client, key, { replicas: 2, timeoutMs: 1_500 }, mark);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await admin.client('KILL', 'ID', String(id));
      await expect(waiting).rejects.toThrow(
        /closed before its WAIT answered: the write may be lost/,
      );
    }
  });
});
