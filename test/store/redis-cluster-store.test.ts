import { randomUUID } from 'node:crypto';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { RedisKeys } from '../../src/store/redis-keys.js';
import { enqueue } from '../../src/store/redis-store-scripts.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { RedisReplicationError } from '../../src/store/redis-wait.js';
import {
  connectTestRedis,
  deleteByPrefix,
  REDIS_CLUSTER_URL,
  scanAll,
} from './redis-test-helpers.js';
import { storeContractSuite } from './store-contract.js';

/**
 * The store contract on a real Redis Cluster (`.ci/redis-cluster.sh`): a script whose keys
 * span two slots fails there with CROSSSLOT, so every passing case proves its scripts stay
 * in one slot. Once plain, once with the durability mode (WAIT for one replica).
 */
const root = `sbtest:${randomUUID()}:`;
let redis: Cluster;
let connected = false;

beforeAll(async () => {
  redis = (await connectTestRedis(REDIS_CLUSTER_URL)) as Cluster;
  connected = true;
});

afterAll(async () => {
  if (!connected) return;
  await deleteByPrefix(redis, root);
  await redis.quit();
});

for (const durable of [false, true]) {
  storeContractSuite(`RedisStore on a cluster${durable ? ' with WAIT 1' : ''}`, () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const prefix = `${root}${randomUUID()}:`;
    const store = new RedisStore({
      redis,
      prefix,
      clock,
      ...(durable ? { durability: { replicas: 1, timeoutMs: 2_000 } } : {}),
    });
    return Promise.resolve({
      store,
      clock,
      cleanup: async () => {
        await store.close();
        await deleteByPrefix(redis, prefix);
      },
    });
  });
}

describe('RedisStore on a cluster', () => {
  it('should spread conversations over the primaries', async () => {
    const prefix = `${root}spread:`;
    const store = new RedisStore({ redis, prefix });
    for (let i = 0; i < 30; i++)
      await store.enqueue(`c${i}`, { id: `m${i}`, sortKey: i, payload: i }, 60_000);
    const holders = await Promise.all(
      redis.nodes('master').map(async (node) => {
        let n = 0;
        for await (const batch of node.scanStream({ match: `{${prefix}c:*` }))
          n += (batch as string[]).length;
        return n;
      }),
    );
    expect(holders.filter((n) => n > 0).length).toBe(3);
    expect(await store.conversationsWithInbox(100)).toHaveLength(30);
  });

  it('should list an unlisted inbox again when its item is delivered again (a worker died between)', async () => {
    const prefix = `${root}crash:`;
    const store = new RedisStore({ redis, prefix });
    // What a worker killed after the append and before the listing leaves behind.
    const keys = new RedisKeys(prefix).conversation('c1');
    const now = Date.now();
    const item = '{"id":"m1","sortKey":1,"payload":1}';
    await enqueue.run(
      redis,
      [keys.seen('m1'), keys.inbox, keys.inboxMembers, keys.inboxItems, keys.inboxSeq],
      [now, now + 60_000, 120_000, 'm1', 1, item],
    );
    expect(await store.conversationsWithInbox(10)).toEqual([]);
    // The redelivery is a duplicate, and lists the conversation.
    expect(await store.enqueue('c1', { id: 'm1', sortKey: 1, payload: 1 }, 60_000)).toBe(false);
    expect(await store.conversationsWithInbox(10)).toEqual(['c1']);
    // A duplicate of an item already handled lists nothing.
    await store.ackInbox('c1', ['m1']);
    expect(await store.enqueue('c1', { id: 'm1', sortKey: 1, payload: 1 }, 60_000)).toBe(false);
    expect(await store.conversationsWithInbox(10)).toEqual([]);
  });

  it('should have a replica hold a document once a durable write returns', async () => {
    const prefix = `${root}durable:`;
    const store = new RedisStore({ redis, prefix, durability: { replicas: 1, timeoutMs: 2_000 } });
    const lease = await store.acquireLease('conv:c1', 'w1', 10_000, Date.now());
    expect(await store.putConversation('c1', { step: 1 }, 0, lease!.token)).toEqual({
      status: 'ok',
      version: 1,
    });
    const [docKey] = await scanAll(redis, `{${prefix}c:c1}:doc`);
    // Ask the replicas directly: the one of the key's slot has it already.
    const copies = await Promise.all(
      redis.nodes('slave').map(async (node) => {
        await node.readonly();
        return node.hget(docKey!, 'v').catch(() => null);
      }),
    );
    expect(copies).toContain('1');
  });

  it('should fail a write that fewer replicas than asked acknowledged, naming the key', async () => {
    const prefix = `${root}toomany:`;
    // Each primary has one replica: three can never acknowledge.
    const store = new RedisStore({ redis, prefix, durability: { replicas: 3, timeoutMs: 50 } });
    const write = store.enqueue('c1', { id: 'm1', sortKey: 1, payload: 1 }, 60_000);
    await expect(write).rejects.toThrow(RedisReplicationError);
    await expect(store.enqueue('c1', { id: 'm2', sortKey: 2, payload: 1 }, 60_000)).rejects.toThrow(
      /c:c1}:inbox reached its primary but 1 of 3 replica\(s\)/,
    );
  });

  it('should wait for replicas after a timer is scheduled or cancelled, and after a lease is taken or renewed', async () => {
    const prefix = `${root}toomany-timers:`;
    const store = new RedisStore({ redis, prefix, durability: { replicas: 3, timeoutMs: 50 } });
    const timer = { id: 't1', conversationId: 'c1', name: 'reconcile', dueAt: Date.now() };
    // Lost with its primary, a timer would never fire (an unknown send never reconciled).
    await expect(store.scheduleTimer(timer)).rejects.toThrow(
      /timers}:due reached its primary but 1 of 3 replica\(s\)/,
    );
    await expect(store.cancelTimer('t1')).rejects.toThrow(RedisReplicationError);
    // Lost, a renewal would shorten the lease behind its holder: another worker could run
    // the conversation's sends at the same time.
    const now = Date.now();
    await expect(store.acquireLease('conv:c1', 'w1', 10_000, now)).rejects.toThrow(
      /c:c1}:lease reached its primary but 1 of 3 replica\(s\)/,
    );
    await expect(store.acquireLease('conv:c1', 'w1', 10_000, now + 1)).rejects.toThrow(
      RedisReplicationError,
    );
    // A lease held by another is refused without waiting for anything (nothing was written).
    expect(await store.acquireLease('conv:c1', 'w2', 10_000, now + 2)).toBeUndefined();
    // Without the mode the same writes answer at once.
    const plain = new RedisStore({ redis, prefix });
    await expect(plain.scheduleTimer(timer)).resolves.toBeUndefined();
    expect(await plain.acquireLease('conv:c2', 'w1', 10_000, now)).toMatchObject({ owner: 'w1' });
  });
});
