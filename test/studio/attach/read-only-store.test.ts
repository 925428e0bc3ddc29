import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import {
  READ_OPERATIONS,
  ReadOnlyStoreError,
  readOnlyStore,
} from '../../../src/studio/attach/read-only-store.js';
import { MemoryStore } from '../../../src/store/memory-store.js';
import { RedisStore } from '../../../src/store/redis-store.js';
import { connectRedis } from '../../../src/store/redis-connection.js';
import type { Store } from '../../../src/store/store.js';

const clock = new ManualClock(Date.parse('2026-11-01T00:00:00Z'));

/** Every write of the store contract, with arguments that would succeed on a real store. */
const WRITES: readonly [keyof Store, unknown[]][] = [
  ['putConversation', ['c1', { x: 2 }, 1]],
  ['deleteConversation', ['c1']],
  ['enqueue', ['c1', { id: 'i2', sortKey: 1, payload: {} }, 60_000]],
  ['ackInbox', ['c1', ['i1']]],
  ['markSeen', ['k', 60_000]],
  ['setValue', ['v', 2]],
  ['deleteValue', ['v']],
  ['setValueIfAbsent', ['w', 1]],
  ['scheduleTimer', [{ id: 't2', conversationId: 'c1', name: 'n', dueAt: 1 }]],
  ['cancelTimer', ['t1']],
  ['claimDueTimers', [Date.parse('2027-01-01T00:00:00Z'), 10, 1000]],
  ['completeTimer', ['t1', 1]],
  [
    'putSend',
    [
      {
        id: 's2',
        conversationId: 'c1',
        seq: 1,
        state: 'pending',
        startedAt: 1,
        contentType: 'text',
      },
    ],
  ],
  ['acquireLease', ['conv:c1', 'me', 1000, 1]],
  ['releaseLease', ['conv:c1', 'me']],
  ['acquireConversation', ['c1', 'me', 1000, 1]],
  ['releaseConversation', ['c1', 'me']],
  ['ackAndRelease', ['c1', ['i1'], 'me']],
];

async function seed(store: Store): Promise<void> {
  await store.putConversation('c1', { x: 1 }, 0);
  await store.enqueue('c1', { id: 'i1', sortKey: 0, payload: { a: 1 } }, 60_000);
  await store.setValue('v', 1);
  await store.scheduleTimer({ id: 't1', conversationId: 'c1', name: 'remind', dueAt: 5 });
}

async function contents(store: Store) {
  return {
    doc: await store.getConversation('c1'),
    inbox: await store.peekInbox('c1', 10),
    value: await store.getValue('v'),
    w: await store.getValue('w'),
    seen: await store.getValue('k'),
    next: await store.nextTimerDue(),
    timers: await store.conversationTimers?.('c1'),
    send: await store.getSend('s2'),
  };
}

async function expectEveryWriteRefused(store: Store): Promise<void> {
  const wrapped = readOnlyStore(store);
  const before = await contents(store);
  for (const [name, args] of WRITES) {
    const method = (...a: unknown[]): Promise<unknown> =>
      (Reflect.get(wrapped, name) as (...b: unknown[]) => Promise<unknown>).apply(wrapped, a);
    await expect(method(...args), name).rejects.toThrow(ReadOnlyStoreError);
    await expect(method(...args)).rejects.toThrow(
      `the attached studio only reads the store: ${name}() would change it and was refused (nothing was written)`,
    );
  }
  expect(await contents(store)).toEqual(before);
  // Reads answer as the store does.
  expect(await wrapped.getConversation('c1')).toEqual(await store.getConversation('c1'));
  expect(await wrapped.peekInbox('c1', 5)).toEqual(await store.peekInbox('c1', 5));
  expect(await wrapped.getValue('v')).toBe(1);
  // The listing is walked to its end (a Redis SCAN page may be empty with a cursor).
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await wrapped.listConversations?.(cursor, 10);
    ids.push(...(page?.items.map((i) => i.id) ?? []));
    cursor = page?.cursor;
  } while (cursor !== undefined);
  expect(ids).toEqual(['c1']);
}

describe('readOnlyStore', () => {
  it('should refuse every write of the contract on the memory store and leave it as it was', async () => {
    const store = new MemoryStore({ clock });
    await seed(store);
    await expectEveryWriteRefused(store);
  });

  it('should refuse a method it does not know (an allow-list) and any property change', async () => {
    const odd = { getValue: () => Promise.resolve(1), wipe: () => Promise.resolve('wiped') };
    const wrapped = readOnlyStore(odd);
    await expect(wrapped.wipe()).rejects.toThrow('wipe() would change it');
    expect(() => {
      (wrapped as { getValue: unknown }).getValue = () => 2;
    }).toThrow(ReadOnlyStoreError);
    expect(READ_OPERATIONS.has('putConversation')).toBe(false);
  });

  describe('on Redis', () => {
    const prefix = `sb-attach-ro-${process.pid}:`;
    let redis: Awaited<ReturnType<typeof connectRedis>> | undefined;
    afterAll(async () => {
      if (redis === undefined) return;
      const keys = await redis.keys(`*${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it('should refuse every write and leave every key as it was', async () => {
      redis = await connectRedis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
      const store = new RedisStore({ redis, prefix, clock });
      await seed(store);
      const dump = async () => {
        const keys = (await redis!.keys(`*${prefix}*`)).sort();
        return Promise.all(keys.map(async (k) => [k, await redis!.type(k), await redis!.dump(k)]));
      };
      const before = await dump();
      await expectEveryWriteRefused(store);
      expect(await dump()).toEqual(before);
    });
  });
});
