import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, LEASE_GRACE_MS, type SendRecord } from '../../src/store/store.js';
import type { ContractContext } from './store-contract-context.js';

const record: SendRecord = {
  id: 'c1:1:1',
  conversationId: 'c1',
  seq: 1,
  state: 'accepted',
  messageId: 'wamid.r1',
  startedAt: 1_700_000_000_000,
  contentType: 'text',
  fingerprint: 'fp',
};

/** Contract of bounded growth: what expires, and what must not break when it does. */
export function retentionContract(ctx: ContractContext): void {
  const store = () => ctx.store();
  const clock = () => ctx.clock();

  describe('retention', () => {
    it('should delete a value and ignore deleting an absent one', async () => {
      await store().setValue('contact:c1', { name: 'Ana' });
      await store().deleteValue('contact:c1');
      expect(await store().getValue('contact:c1')).toBeUndefined();
      await store().deleteValue('never-set');
    });

    it('should forget a send record and its message id after the send retention', async () => {
      await store().putSend(record);
      clock().advance(DEFAULT_RETENTION.sendRecordsMs - 1);
      expect(await store().getSend(record.id)).toEqual(record);
      expect(await store().findSendByMessageId('wamid.r1')).toEqual(record);
      clock().advance(1);
      expect(await store().getSend(record.id)).toBeUndefined();
      expect(await store().findSendByMessageId('wamid.r1')).toBeUndefined();
    });

    it('should count the send retention from the last write', async () => {
      await store().putSend({ ...record, state: 'pending' });
      clock().advance(DEFAULT_RETENTION.sendRecordsMs - 1000);
      await store().putSend(record);
      clock().advance(2000);
      expect(await store().getSend(record.id)).toEqual(record);
    });

    it('should forget an idle conversation and continue its version numbers', async () => {
      expect(await store().putConversation('c1', { n: 1 }, 0)).toEqual({
        status: 'ok',
        version: 1,
      });
      clock().advance(DEFAULT_RETENTION.idleConversationMs - 1);
      expect(await store().putConversation('c1', { n: 2 }, 1)).toEqual({
        status: 'ok',
        version: 2,
      });
      clock().advance(DEFAULT_RETENTION.idleConversationMs - 1);
      expect((await store().getConversation('c1'))?.value).toEqual({ n: 2 });
      clock().advance(1);
      expect(await store().getConversation('c1')).toBeUndefined();
      // Expired reads as absent through the version check too, even at its last version.
      if (store().getConversationIfChanged !== undefined)
        expect(await store().getConversationIfChanged?.('c1', 2)).toBeUndefined();
      // Absent now: a writer expecting the old version conflicts, a new document is written
      // with a version above every earlier one.
      expect(await store().putConversation('c1', { n: 3 }, 2)).toEqual({
        status: 'conflict',
        currentVersion: 0,
      });
      expect(await store().putConversation('c1', { n: 3 }, 0)).toEqual({
        status: 'ok',
        version: 3,
      });
    });

    it('should give a larger token after a lease record was forgotten', async () => {
      const now = clock().now();
      const first = await store().acquireLease('L', 'w1', 1000, now);
      await store().releaseLease('L', 'w1');
      clock().advance(1000 + LEASE_GRACE_MS + 1);
      const later = clock().now();
      const second = await store().acquireLease('L', 'w2', 1000, later);
      expect(second!.token).toBeGreaterThan(first!.token);
      const expired = await store().acquireLease('M', 'w1', 1000, later);
      clock().advance(1000 + LEASE_GRACE_MS + 1);
      const taken = await store().acquireLease('M', 'w2', 1000, clock().now());
      expect(taken!.token).toBeGreaterThan(expired!.token);
    });
  });
}
