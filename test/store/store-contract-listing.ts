import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, type Store } from '../../src/store/store.js';
import type { ContractContext } from './store-contract-context.js';

/** Every id a walk of `listConversations` answers, page by page (`limit` per page). */
export async function walkConversations(
  store: Store,
  limit: number,
): Promise<{ id: string; value: unknown; version: number }[]> {
  if (store.listConversations === undefined) throw new Error('this store has no listConversations');
  const seen: { id: string; value: unknown; version: number }[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await store.listConversations(cursor, limit);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    seen.push(...page.items);
    cursor = page.cursor;
    if (cursor === undefined) return seen;
  }
  throw new Error('listConversations never ended its walk');
}

/** Contract of the operations' read-only listings: conversations and a conversation's timers. */
export function listingContract(ctx: ContractContext): void {
  const store = () => ctx.store();
  const clock = () => ctx.clock();
  describe('listing (operations)', () => {
    it('should list nothing on an empty store', async () => {
      expect(typeof store().listConversations).toBe('function');
      expect(await walkConversations(store(), 10)).toEqual([]);
    });

    it('should list every live document once across pages, with its value and version', async () => {
      const s = store();
      for (let i = 0; i < 7; i++) await s.putConversation(`conv_${i}`, { n: i }, 0);
      await s.putConversation('conv_3', { n: 33 }, 1);
      await s.deleteConversation('conv_5');
      const listed = await walkConversations(s, 3);
      const byId = new Map(listed.map((c) => [c.id, c]));
      expect(listed).toHaveLength(6);
      expect(byId.size).toBe(6);
      expect(byId.get('conv_3')).toEqual({ id: 'conv_3', value: { n: 33 }, version: 2 });
      expect(byId.get('conv_0')).toEqual({ id: 'conv_0', value: { n: 0 }, version: 1 });
      expect(byId.has('conv_5')).toBe(false);
    });

    it('should walk a page size of one to the end', async () => {
      const s = store();
      for (const id of ['b', 'a', 'c']) await s.putConversation(id, { id }, 0);
      const ids = (await walkConversations(s, 1)).map((c) => c.id).sort();
      expect(ids).toEqual(['a', 'b', 'c']);
    });

    it('should leave out documents idle past their retention', async () => {
      const s = store();
      await s.putConversation('old', { a: 1 }, 0);
      clock().advance(DEFAULT_RETENTION.idleConversationMs - 1000);
      await s.putConversation('fresh', { a: 2 }, 0);
      clock().advance(2000);
      expect((await walkConversations(s, 10)).map((c) => c.id)).toEqual(['fresh']);
    });

    it("should answer a conversation's pending timers in due order, claimed ones too", async () => {
      const s = store();
      expect(typeof s.conversationTimers).toBe('function');
      const now = clock().now();
      await s.scheduleTimer({ id: 'c1:b', conversationId: 'c1', name: 'b', dueAt: now + 5000 });
      await s.scheduleTimer({ id: 'c1:a', conversationId: 'c1', name: 'a', dueAt: now + 1000 });
      await s.scheduleTimer({ id: 'c1:x', conversationId: 'c1', name: 'x', dueAt: now + 9000 });
      await s.scheduleTimer({ id: 'c2:a', conversationId: 'c2', name: 'a', dueAt: now + 500 });
      await s.cancelTimer('c1:x');
      clock().advance(1000);
      expect(await s.claimDueTimers(clock().now(), 10, 60_000)).toHaveLength(2);
      expect(await s.conversationTimers?.('c1')).toEqual([
        { id: 'c1:a', conversationId: 'c1', name: 'a', dueAt: now + 1000 },
        { id: 'c1:b', conversationId: 'c1', name: 'b', dueAt: now + 5000 },
      ]);
      expect(await s.conversationTimers?.('c3')).toEqual([]);
    });
  });
}
