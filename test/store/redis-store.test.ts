import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { StoreDataError } from '../../src/store/store-data-error.js';
import { clusterHashPart, connectTestRedis, deleteByPrefix } from './redis-test-helpers.js';
import { storeContractSuite } from './store-contract.js';

const root = `sbtest:${randomUUID()}:`;
let redis: Redis;
/** False when beforeAll could not connect (the tests fail then; nothing to clean). */
let connected = false;

beforeAll(async () => {
  // This file's own tests count the commands of a single node; the contract on a real
  // cluster runs in redis-cluster-store.test.ts.
  redis = (await connectTestRedis()) as Redis;
  connected = true;
});

afterAll(async () => {
  if (!connected) return;
  await deleteByPrefix(redis, root);
  await redis.quit();
});

storeContractSuite('RedisStore', () => {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const prefix = `${root}${randomUUID()}:`;
  const store = new RedisStore({ redis, prefix, clock });
  return Promise.resolve({
    store,
    clock,
    cleanup: async () => {
      await store.close();
      await deleteByPrefix(redis, prefix);
    },
  });
});

/**
 * The client, counting the commands the store sends through it; `cluster` makes it
 * claim to be a cluster (the store then keeps every script in one slot).
 */
function counting(client: Redis, cluster = false): { client: Redis; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(client, {
    get(target, name, receiver) {
      if (name === 'isCluster') return cluster;
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return (...args: unknown[]): unknown => {
        calls.push(name);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client: proxy, calls };
}

describe('RedisStore', () => {
  it('should list and unlist a conversation with its inbox in one round trip on a single node', async () => {
    const prefix = `${root}indexed:`;
    const { client, calls } = counting(redis);
    const store = new RedisStore({ redis: client, prefix });
    // Load the scripts first (a NOSCRIPT reply costs one more call, once).
    await store.enqueue('c0', { id: 'm0', sortKey: 1, payload: 1 }, 60_000);
    await store.ackInbox('c0', ['m0']);
    calls.length = 0;
    expect(await store.enqueue('c1', { id: 'm1', sortKey: 1, payload: 1 }, 60_000)).toBe(true);
    expect(calls).toEqual(['evalsha']);
    expect(await store.conversationsWithInbox(10)).toEqual(['c1']);
    expect(await store.enqueue('c1', { id: 'm2', sortKey: 2, payload: 2 }, 60_000)).toBe(true);
    calls.length = 0;
    await store.ackInbox('c1', ['m1']);
    expect(calls).toEqual(['evalsha']);
    expect(await store.conversationsWithInbox(10)).toEqual(['c1']);
    calls.length = 0;
    await store.ackInbox('c1', ['m2']);
    expect(calls).toEqual(['evalsha']);
    expect(await store.conversationsWithInbox(10)).toEqual([]);
    // A duplicate is neither appended nor listed.
    expect(await store.enqueue('c1', { id: 'm1', sortKey: 1, payload: 1 }, 60_000)).toBe(false);
    expect(await store.conversationsWithInbox(10)).toEqual([]);
  });

  it('should keep each script in one slot when the client is a cluster', async () => {
    const prefix = `${root}cluster:`;
    const { client, calls } = counting(redis, true);
    const store = new RedisStore({ redis: client, prefix });
    await store.enqueue('c0', { id: 'm0', sortKey: 1, payload: 1 }, 60_000);
    await store.ackInbox('c0', ['m0']);
    calls.length = 0;
    expect(await store.enqueue('c1', { id: 'm1', sortKey: 1, payload: 1 }, 60_000)).toBe(true);
    expect(calls).toEqual(['evalsha', 'zadd']);
    expect(await store.conversationsWithInbox(10)).toEqual(['c1']);
    calls.length = 0;
    await store.ackInbox('c1', ['m1']);
    expect(calls).toEqual(['evalsha', 'zrem', 'zcard']);
    expect(await store.conversationsWithInbox(10)).toEqual([]);
  });

  it('should ack and release a conversation in one script, and keep the cluster path exact', async () => {
    for (const cluster of [false, true]) {
      const prefix = `${root}ackrelease:${String(cluster)}:`;
      const { client, calls } = counting(redis, cluster);
      const store = new RedisStore({ redis: client, prefix });
      const now = Date.now();
      // Load the script first (a NOSCRIPT reply costs one more call, once).
      expect(await store.ackAndRelease('c0', [], 'w0')).toBe(0);
      await store.enqueue('c1', { id: 'm1', sortKey: 1, payload: 1 }, 60_000);
      await store.enqueue('c1', { id: 'm2', sortKey: 2, payload: 2 }, 60_000);
      const taken = await store.acquireConversation('c1', 'w1', 60_000, now);
      expect(taken?.first?.id).toBe('m1');
      expect(taken?.docVersion).toBe(0);
      expect(await store.putConversation('c1', { a: 1 }, 0, taken!.lease.token)).toMatchObject({
        status: 'ok',
      });
      calls.length = 0;
      expect(await store.ackAndRelease('c1', ['m1'], 'w1')).toBe(1);
      expect(calls).toEqual(['evalsha']);
      expect(await store.conversationsWithInbox(10)).toEqual(['c1']);
      expect(await store.acquireConversation('c1', 'w2', 60_000, now)).toBeUndefined();
      calls.length = 0;
      expect(await store.ackAndRelease('c1', ['m2'], 'w1')).toBe(0);
      expect(calls).toEqual(cluster ? ['evalsha', 'zrem', 'zcard'] : ['evalsha']);
      expect(await store.conversationsWithInbox(10)).toEqual([]);
      const next = await store.acquireConversation('c1', 'w2', 60_000, now);
      expect(next?.lease.token).toBeGreaterThan(taken!.lease.token);
      expect(next?.docVersion).toBe(1);
    }
  });

  it('should leave an injected client open on close', async () => {
    const store = new RedisStore({ redis, prefix: `${root}close:` });
    await store.close();
    expect(await redis.ping()).toBe('PONG');
  });

  it('should name the key of a corrupt value', async () => {
    const prefix = `${root}corrupt:`;
    const store = new RedisStore({ redis, prefix });
    await redis.set(`${prefix}v:cursor`, '{"not":"an envelope"}');
    await expect(store.getValue('cursor')).rejects.toThrow(StoreDataError);
    await expect(store.getValue('cursor')).rejects.toThrow(`${prefix}v:cursor`);
    await redis.hset(`{${prefix}sends}:rec`, 'c1:1', 'not json');
    await expect(store.getSend('c1:1')).rejects.toThrow(/not valid JSON/);
  });

  it('should keep the keys of one conversation in one cluster slot', async () => {
    const prefix = `${root}slots:`;
    const store = new RedisStore({ redis, prefix });
    const now = Date.now();
    const lease = await store.acquireLease('conv:c1', 'w1', 1000, now);
    await store.putConversation('c1', { a: 1 }, 0, lease!.token);
    await store.enqueue('c1', { id: 'm1', sortKey: 1, payload: 1 }, 1000);
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `{${prefix}c:c1}*` })) {
      keys.push(...(batch as string[]));
    }
    // doc, lease, seen, inbox, inbox:m, inbox:v, inbox:seq
    expect(keys).toHaveLength(7);
    expect(new Set(keys.map(clusterHashPart))).toEqual(new Set([`${prefix}c:c1`]));
  });

  it('should give every record it writes a real TTL, so Redis forgets what expired', async () => {
    const prefix = `${root}ttl:`;
    const store = new RedisStore({
      redis,
      prefix,
      retention: { sendRecordsMs: 5000, idleConversationMs: 7000 },
    });
    const lease = await store.acquireLease('conv:c1', 'w1', 1000, Date.now());
    await store.putConversation('c1', { a: 1 }, 0, lease!.token);
    await store.putSend({
      id: 'c1:1:1',
      conversationId: 'c1',
      seq: 1,
      state: 'accepted',
      messageId: 'm1',
      startedAt: 1,
      contentType: 'text',
      fingerprint: 'f',
    });
    const ttls = await Promise.all(
      [
        `{${prefix}c:c1}:doc`,
        `{${prefix}c:c1}:lease`,
        `${prefix}send:c1:1:1`,
        `${prefix}sendmid:m1`,
      ].map((key) => redis.pttl(key)),
    );
    expect(ttls.every((ttl) => ttl > 0)).toBe(true);
    expect(ttls[0]).toBeGreaterThan(7000);
    expect(ttls[2]).toBeLessThanOrEqual(5000 + 60_000);
    await store.releaseLease('conv:c1', 'w1');
    expect(await redis.pttl(`{${prefix}c:c1}:lease`)).toBeLessThanOrEqual(60_000);
  });
});

describe('RedisStore.setValueIfAbsent across workers', () => {
  it('should make N fresh workers on their own connections agree on one value', async () => {
    const prefix = `${root}${randomUUID()}:`;
    const clients = await Promise.all(Array.from({ length: 8 }, () => connectTestRedis()));
    try {
      const stores = clients.map((client) => new RedisStore({ redis: client, prefix }));
      const answers = await Promise.all(
        stores.map((store, i) => store.setValueIfAbsent('engine:cutoff', { at: 1_000 + i })),
      );
      const stored = await stores[0]!.getValue('engine:cutoff');
      expect(answers).toEqual(Array.from({ length: 8 }, () => stored));
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    } finally {
      await deleteByPrefix(redis, prefix);
      await Promise.all(clients.map((client) => client.quit()));
    }
  });

  it('should refuse a stored text that is not a value envelope', async () => {
    const prefix = `${root}${randomUUID()}:`;
    const store = new RedisStore({ redis, prefix });
    await redis.set(`${prefix}v:broken`, 'not json');
    await expect(store.setValueIfAbsent('broken', 1)).rejects.toBeInstanceOf(StoreDataError);
    await deleteByPrefix(redis, prefix);
  });
});
