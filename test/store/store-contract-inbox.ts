import { describe, expect, it } from 'vitest';
import type { ContractContext } from './store-contract-context.js';

const DAY = 86_400_000;

/** Contract of the inbox: dedup, order, ack, listing; and markSeen. */
export function inboxContract(ctx: ContractContext): void {
  const store = () => ctx.store();
  const clock = () => ctx.clock();
  describe('inbox', () => {
    it('should enqueue once and dedup the same id within the TTL', async () => {
      const item = { id: 'msg:1', sortKey: 1, payload: { text: 'hi' } };
      expect(await store().enqueue('c1', item, DAY)).toBe(true);
      clock().advance(DAY - 1);
      expect(await store().enqueue('c1', item, DAY)).toBe(false);
      expect(await store().peekInbox('c1', 10)).toEqual([item]);
    });

    it('should accept the same id again after the dedup TTL expired', async () => {
      const item = { id: 'msg:1', sortKey: 1, payload: 'p' };
      expect(await store().enqueue('c1', item, 1000)).toBe(true);
      await store().ackInbox('c1', ['msg:1']);
      expect(await store().enqueue('c1', item, 1000)).toBe(false);
      clock().advance(1000);
      expect(await store().enqueue('c1', item, 1000)).toBe(true);
      expect(await store().peekInbox('c1', 10)).toEqual([item]);
    });

    it('should move, not duplicate, an id accepted again while still in the inbox', async () => {
      await store().enqueue('c1', { id: 'a', sortKey: 1, payload: 'old' }, 1000);
      await store().enqueue('c1', { id: 'b', sortKey: 2, payload: 'b' }, 1000);
      clock().advance(1000);
      expect(await store().enqueue('c1', { id: 'a', sortKey: 3, payload: 'new' }, 1000)).toBe(true);
      expect(await store().peekInbox('c1', 10)).toEqual([
        { id: 'b', sortKey: 2, payload: 'b' },
        { id: 'a', sortKey: 3, payload: 'new' },
      ]);
      await store().ackInbox('c1', ['a', 'b']);
      expect(await store().peekInbox('c1', 10)).toEqual([]);
    });

    it('should reject a sortKey that is not finite', async () => {
      await expect(
        store().enqueue('c1', { id: 'a', sortKey: Number.NaN, payload: 1 }, 1000),
      ).rejects.toThrow(RangeError);
      expect(await store().peekInbox('c1', 10)).toEqual([]);
    });

    it('should order by sortKey, then arrival', async () => {
      for (const [id, sortKey] of [
        ['a', 5],
        ['b', 1],
        ['c', 5],
        ['d', 3],
        ['e', 1],
        ['f', -2],
      ] as const) {
        await store().enqueue('c1', { id, sortKey, payload: id }, DAY);
      }
      const items = await store().peekInbox('c1', 10);
      expect(items.map((i) => i.id)).toEqual(['f', 'b', 'e', 'd', 'a', 'c']);
      expect(items.map((i) => i.sortKey)).toEqual([-2, 1, 1, 3, 5, 5]);
    });

    it('should peek a limited prefix without removing and ack only the given ids', async () => {
      for (let i = 1; i <= 4; i++) {
        await store().enqueue('c1', { id: `m${i}`, sortKey: i, payload: { i } }, DAY);
      }
      expect((await store().peekInbox('c1', 2)).map((i) => i.id)).toEqual(['m1', 'm2']);
      expect(await store().peekInbox('c1', 2)).toHaveLength(2);
      // The ack tells how many items are left.
      expect(await store().ackInbox('c1', ['m1', 'm3', 'unknown'])).toBe(2);
      expect(await store().peekInbox('c1', 10)).toEqual([
        { id: 'm2', sortKey: 2, payload: { i: 2 } },
        { id: 'm4', sortKey: 4, payload: { i: 4 } },
      ]);
      expect(await store().ackInbox('c1', ['m2'])).toBe(1);
      expect(await store().ackInbox('c1', ['m4'])).toBe(0);
      expect(await store().ackInbox('empty', ['x'])).toBe(0);
      expect(await store().peekInbox('empty', 10)).toEqual([]);
    });

    it('should return payload copies', async () => {
      const payload = { deep: { n: 1 } };
      await store().enqueue('c1', { id: 'm1', sortKey: 1, payload }, DAY);
      payload.deep.n = 2;
      const [item] = await store().peekInbox('c1', 1);
      (item!.payload as { deep: { n: number } }).deep.n = 3;
      expect((await store().peekInbox('c1', 1))[0]?.payload).toEqual({ deep: { n: 1 } });
    });

    it('should list conversations whose inbox is not empty', async () => {
      expect(await store().conversationsWithInbox(10)).toEqual([]);
      await store().enqueue('c1', { id: 'a', sortKey: 1, payload: 1 }, DAY);
      await store().enqueue('c2', { id: 'b', sortKey: 1, payload: 1 }, DAY);
      await store().enqueue('c2', { id: 'c', sortKey: 2, payload: 1 }, DAY);
      await store().enqueue('c3', { id: 'd', sortKey: 1, payload: 1 }, DAY);
      expect((await store().conversationsWithInbox(10)).sort()).toEqual(['c1', 'c2', 'c3']);
      expect(await store().conversationsWithInbox(2)).toHaveLength(2);
      await store().ackInbox('c1', ['a']);
      await store().ackInbox('c2', ['b']);
      expect((await store().conversationsWithInbox(10)).sort()).toEqual(['c2', 'c3']);
      await store().ackInbox('c2', ['c']);
      await store().ackInbox('c3', ['d']);
      expect(await store().conversationsWithInbox(10)).toEqual([]);
    });

    it('should leave a claimed inbox out of unclaimedInboxes until its claim passed', async () => {
      const unclaimed = async (): Promise<string[] | undefined> =>
        (await store().unclaimedInboxes?.(10))?.sort();
      // Claims are optional: a store without them lists every inbox to its sweeps.
      if (store().unclaimedInboxes === undefined) return;
      await store().enqueue('c1', { id: 'a', sortKey: 1, payload: 1 }, DAY, 1000);
      await store().enqueue('c2', { id: 'b', sortKey: 1, payload: 1 }, DAY);
      expect(await unclaimed()).toEqual(['c2']);
      expect((await store().conversationsWithInbox(10)).sort()).toEqual(['c1', 'c2']);
      // Another item in a waiting inbox does not extend its claim, whoever enqueues it.
      clock().advance(999);
      await store().enqueue('c1', { id: 'c', sortKey: 2, payload: 1 }, DAY, 5000);
      expect(await unclaimed()).toEqual(['c2']);
      clock().advance(1);
      expect(await unclaimed()).toEqual(['c1', 'c2']);
      expect(await store().unclaimedInboxes?.(1)).toHaveLength(1);
      // Emptied, then listed again by a claiming enqueue: claimed again.
      await store().ackInbox('c1', ['a', 'c']);
      await store().enqueue('c1', { id: 'd', sortKey: 3, payload: 1 }, DAY, 1000);
      expect(await unclaimed()).toEqual(['c2']);
      // A duplicate lists nothing new and claims nothing.
      await store().ackInbox('c2', ['b']);
      expect(await store().enqueue('c2', { id: 'b', sortKey: 1, payload: 1 }, DAY, 1000)).toBe(
        false,
      );
      expect(await unclaimed()).toEqual([]);
      clock().advance(1000);
      expect(await unclaimed()).toEqual(['c1']);
    });

    it('should let exactly one of many concurrent enqueues of the same id succeed', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          store().enqueue('c1', { id: 'msg:dup', sortKey: 1, payload: i }, DAY),
        ),
      );
      expect(results.filter((r) => r)).toHaveLength(1);
      expect(await store().peekInbox('c1', 100)).toHaveLength(1);
    });

    it('should reject a payload that is not JSON without marking the id seen', async () => {
      await expect(
        store().enqueue('c1', { id: 'm1', sortKey: 1, payload: () => 1 }, DAY),
      ).rejects.toThrow(TypeError);
      expect(await store().enqueue('c1', { id: 'm1', sortKey: 1, payload: 1 }, DAY)).toBe(true);
    });
  });

  describe('markSeen', () => {
    it('should be true only the first time within the TTL', async () => {
      expect(await store().markSeen('status:w1', 5000)).toBe(true);
      clock().advance(4999);
      expect(await store().markSeen('status:w1', 5000)).toBe(false);
      expect(await store().markSeen('status:w2', 5000)).toBe(true);
      clock().advance(1);
      expect(await store().markSeen('status:w1', 5000)).toBe(true);
      expect(await store().markSeen('status:w1', 5000)).toBe(false);
    });

    it('should be true exactly once under concurrency', async () => {
      const results = await Promise.all(
        Array.from({ length: 30 }, () => store().markSeen('k', DAY)),
      );
      expect(results.filter((r) => r)).toHaveLength(1);
    });
  });
}
