import { describe, expect, it } from 'vitest';
import type { ContractContext } from './store-contract-context.js';
import { DEFAULT_RETENTION, type SendRecord } from '../../src/store/store.js';

const DAY = 86_400_000;

function send(seq: number, extra: Partial<SendRecord> = {}): SendRecord {
  return {
    id: `c1:${seq}`,
    conversationId: 'c1',
    seq,
    state: 'pending',
    startedAt: 1_700_000_000_000,
    contentType: 'text',
    fingerprint: `fp${seq}`,
    ...extra,
  };
}

/** Contract of values, send records and leases. */
export function recordContract(ctx: ContractContext): void {
  const store = () => ctx.store();
  const clock = () => ctx.clock();
  describe('values', () => {
    it('should store, overwrite and copy JSON values', async () => {
      expect(await store().getValue('cursor')).toBeUndefined();
      const value = { after: 'abc', n: [1, 2] };
      await store().setValue('cursor', value);
      value.n.push(3);
      const read = (await store().getValue('cursor')) as { n: number[] };
      read.n.push(4);
      expect(await store().getValue('cursor')).toEqual({ after: 'abc', n: [1, 2] });
      await store().setValue('cursor', 'next');
      expect(await store().getValue('cursor')).toBe('next');
      await store().setValue('flag', false);
      expect(await store().getValue('flag')).toBe(false);
      await store().setValue('nothing', null);
      expect(await store().getValue('nothing')).toBeNull();
    });

    it('should expire a value after its TTL and keep one without a TTL', async () => {
      await store().setValue('short', 1, 1000);
      await store().setValue('forever', 2);
      clock().advance(999);
      expect(await store().getValue('short')).toBe(1);
      clock().advance(1);
      expect(await store().getValue('short')).toBeUndefined();
      clock().advance(365 * DAY);
      expect(await store().getValue('forever')).toBe(2);
    });

    it('should clear a TTL when a value is set again without one', async () => {
      await store().setValue('k', 1, 1000);
      await store().setValue('k', 2);
      clock().advance(2000);
      expect(await store().getValue('k')).toBe(2);
    });
  });

  describe('send records', () => {
    it('should store, update and find send records by message id', async () => {
      expect(await store().getSend('c1:1')).toBeUndefined();
      await store().putSend(send(1));
      expect(await store().getSend('c1:1')).toEqual(send(1));
      expect(await store().findSendByMessageId('wamid.1')).toBeUndefined();
      const accepted = send(1, { state: 'accepted', messageId: 'wamid.1' });
      await store().putSend(accepted);
      expect(await store().getSend('c1:1')).toEqual(accepted);
      expect(await store().findSendByMessageId('wamid.1')).toEqual(accepted);
      expect(await store().findSendByMessageId('wamid.2')).toBeUndefined();
    });

    it('should not find a record by a message id it no longer has', async () => {
      await store().putSend(send(1, { state: 'accepted', messageId: 'old' }));
      await store().putSend(send(1, { state: 'reconciled', messageId: 'new' }));
      expect(await store().findSendByMessageId('old')).toBeUndefined();
      expect((await store().findSendByMessageId('new'))?.state).toBe('reconciled');
    });

    it('should return copies', async () => {
      await store().putSend(send(2, { code: 'x' }));
      const read = (await store().getSend('c1:2')) as { state: string };
      read.state = 'failed';
      expect((await store().getSend('c1:2'))?.state).toBe('pending');
    });

    it('should keep its own copy of a record, nested request included', async () => {
      const request = { to: '+15550001', text: { body: 'hi' } };
      await store().putSend(send(3, { state: 'accepted', messageId: 'wamid.3', request }));
      request.text.body = 'changed by the writer';
      const found = (await store().findSendByMessageId('wamid.3')) as { request: typeof request };
      found.request.text.body = 'changed by a reader';
      expect((await store().getSend('c1:3'))?.request).toEqual({
        to: '+15550001',
        text: { body: 'hi' },
      });
    });
  });

  describe('leases', () => {
    it('should take, renew with the same token, and refuse another owner', async () => {
      const now = clock().now();
      const lease = await store().acquireLease('sweeper', 'w1', 1000, now);
      expect(lease).toEqual({
        name: 'sweeper',
        owner: 'w1',
        token: lease!.token,
        expiresAt: now + 1000,
      });
      expect(lease!.token).toBeGreaterThan(0);
      expect(await store().acquireLease('sweeper', 'w2', 1000, now + 999)).toBeUndefined();
      const renewed = await store().acquireLease('sweeper', 'w1', 1000, now + 500);
      expect(renewed).toEqual({ ...lease, expiresAt: now + 1500 });
      expect(await store().acquireLease('sweeper', 'w2', 1000, now + 1499)).toBeUndefined();
    });

    it('should let another owner take an expired lease with a larger token', async () => {
      const now = clock().now();
      const first = await store().acquireLease('L', 'w1', 1000, now);
      const second = await store().acquireLease('L', 'w2', 1000, now + 1000);
      expect(second?.owner).toBe('w2');
      expect(second!.token).toBeGreaterThan(first!.token);
      expect(await store().acquireLease('L', 'w1', 1000, now + 1500)).toBeUndefined();
      const third = await store().acquireLease('L', 'w1', 1000, now + 2000);
      expect(third!.token).toBeGreaterThan(second!.token);
    });

    it('should release only for the owner and keep tokens increasing', async () => {
      const now = clock().now();
      const first = await store().acquireLease('L', 'w1', 60_000, now);
      await store().releaseLease('L', 'w2');
      expect(await store().acquireLease('L', 'w2', 60_000, now)).toBeUndefined();
      await store().releaseLease('L', 'w1');
      const second = await store().acquireLease('L', 'w2', 60_000, now);
      expect(second!.token).toBeGreaterThan(first!.token);
      await store().releaseLease('never', 'w1');
    });

    it('should take a conversation lease with its first inbox item, as acquireLease + peekInbox do', async () => {
      const s = store();
      expect(typeof s.acquireConversation).toBe('function'); // every built-in store has it
      if (s.acquireConversation === undefined) return;
      const now = clock().now();
      await s.enqueue('c1', { id: 'b', sortKey: 2, payload: { n: 2 } }, 60_000);
      await s.enqueue('c1', { id: 'a', sortKey: 1, payload: { n: 1 } }, 60_000);
      const taken = await s.acquireConversation('c1', 'w1', 1000, now);
      expect(taken).toEqual({
        lease: { name: 'conv:c1', owner: 'w1', token: taken!.lease.token, expiresAt: now + 1000 },
        first: { id: 'a', sortKey: 1, payload: { n: 1 } },
        docVersion: 0, // no document yet
      });
      // It is the lease `conv:c1`: acquireLease sees it held, and it fences writes.
      expect(await s.acquireLease('conv:c1', 'w2', 1000, now + 999)).toBeUndefined();
      expect(await s.acquireConversation('c1', 'w2', 1000, now + 999)).toBeUndefined();
      expect(await s.putConversation('c1', { v: 1 }, 0, taken!.lease.token)).toEqual({
        status: 'ok',
        version: 1,
      });
      // The same owner renews with the same token; the item is still there (a peek); the
      // document's live version comes with it.
      const again = await s.acquireConversation('c1', 'w1', 1000, now + 500);
      expect(again?.lease.token).toBe(taken!.lease.token);
      expect(again?.first?.id).toBe('a');
      expect(again?.docVersion).toBe(1);
      // An empty inbox: the lease, and no item.
      const other = await s.acquireConversation('c2', 'w1', 1000, now);
      expect(other?.first).toBeUndefined();
      expect(other?.lease.name).toBe('conv:c2');
    });

    it('should release a conversation lease and count its inbox, only for the owner', async () => {
      const s = store();
      expect(typeof s.releaseConversation).toBe('function');
      if (s.acquireConversation === undefined || s.releaseConversation === undefined) return;
      const now = clock().now();
      await s.enqueue('c1', { id: 'a', sortKey: 1, payload: 1 }, 60_000);
      await s.enqueue('c1', { id: 'b', sortKey: 2, payload: 2 }, 60_000);
      const first = await s.acquireConversation('c1', 'w1', 60_000, now);
      // Not the owner: nothing released, the count still answered.
      expect(await s.releaseConversation('c1', 'w2')).toBe(2);
      expect(await s.acquireConversation('c1', 'w2', 60_000, now)).toBeUndefined();
      await s.ackInbox('c1', ['a']);
      expect(await s.releaseConversation('c1', 'w1')).toBe(1);
      const second = await s.acquireConversation('c1', 'w2', 60_000, now);
      expect(second!.lease.token).toBeGreaterThan(first!.lease.token);
      expect(second!.first?.id).toBe('b');
      await s.ackInbox('c1', ['b']);
      expect(await s.releaseConversation('c1', 'w2')).toBe(0);
      expect(await s.releaseConversation('never', 'w1')).toBe(0);
    });

    it('should tell the document version of an expired document as 0 with the lease', async () => {
      const s = store();
      if (s.acquireConversation === undefined) return;
      expect(await s.putConversation('c1', { v: 1 }, 0)).toMatchObject({ status: 'ok' });
      expect(await s.putConversation('c1', { v: 2 }, 1)).toMatchObject({ status: 'ok' });
      const live = await s.acquireConversation('c1', 'w1', 1000, clock().now());
      expect(live?.docVersion).toBe(2);
      clock().advance(DEFAULT_RETENTION.idleConversationMs);
      // Expired reads as absent, as getConversation says.
      expect(await s.getConversation('c1')).toBeUndefined();
      const idle = await s.acquireConversation('c1', 'w1', 1000, clock().now());
      expect(idle?.docVersion).toBe(0);
    });

    it('should ack and release in one call only when the inbox is left empty', async () => {
      const s = store();
      expect(typeof s.ackAndRelease).toBe('function'); // every built-in store has it
      if (s.acquireConversation === undefined || s.ackAndRelease === undefined) return;
      const now = clock().now();
      await s.enqueue('c1', { id: 'a', sortKey: 1, payload: 1 }, 60_000);
      await s.enqueue('c1', { id: 'b', sortKey: 2, payload: 2 }, 60_000);
      const first = await s.acquireConversation('c1', 'w1', 60_000, now);
      // One left: the lease stays with w1.
      expect(await s.ackAndRelease('c1', ['a'], 'w1')).toBe(1);
      expect(await s.acquireConversation('c1', 'w2', 60_000, now)).toBeUndefined();
      expect((await s.peekInbox('c1', 5)).map((i) => i.id)).toEqual(['b']);
      // Not the owner: the item is acked, the lease is not released.
      expect(await s.ackAndRelease('c1', ['b'], 'w2')).toBe(0);
      expect(await s.acquireConversation('c1', 'w2', 60_000, now)).toBeUndefined();
      // The owner's last one: released, and the next owner's token is larger.
      await s.enqueue('c1', { id: 'c', sortKey: 3, payload: 3 }, 60_000);
      expect(await s.ackAndRelease('c1', ['c'], 'w1')).toBe(0);
      expect(await s.peekInbox('c1', 5)).toEqual([]);
      expect(await s.conversationsWithInbox(10)).not.toContain('c1');
      const second = await s.acquireConversation('c1', 'w2', 60_000, now);
      expect(second!.lease.token).toBeGreaterThan(first!.lease.token);
      expect(second!.first).toBeUndefined();
      // Empty already: released all the same.
      expect(await s.ackAndRelease('c1', [], 'w2')).toBe(0);
      expect(await s.acquireConversation('c1', 'w3', 60_000, now)).toBeDefined();
    });

    it('should grant a lease to exactly one of many concurrent owners', async () => {
      const now = clock().now();
      const leases = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store().acquireLease('L', `w${i}`, 10_000, now)),
      );
      expect(leases.filter((l) => l !== undefined)).toHaveLength(1);
    });
  });
}
