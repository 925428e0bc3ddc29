import { describe, expect, it } from 'vitest';
import { UNCHANGED, type SendRecord } from '../../src/store/store.js';
import type { ContractContext } from './store-contract-context.js';

/** Contract of conversation documents: CAS versions, fencing, copies. */
export function conversationContract(ctx: ContractContext): void {
  const store = () => ctx.store();
  const clock = () => ctx.clock();
  describe('conversations', () => {
    it('should return undefined for an unknown conversation', async () => {
      expect(await store().getConversation('nope')).toBeUndefined();
    });

    it('should create with expectedVersion 0 and read it back at version 1', async () => {
      const doc = { state: 'welcome', vars: { n: 1, s: 'é😀' }, list: [1, null, true] };
      expect(await store().putConversation('c1', doc, 0)).toEqual({ status: 'ok', version: 1 });
      expect(await store().getConversation('c1')).toEqual({ value: doc, version: 1 });
    });

    it('should answer unchanged at the known version, and the document otherwise', async () => {
      const s = store();
      if (s.getConversationIfChanged === undefined) return;
      expect(await s.getConversationIfChanged('c1', 0)).toBeUndefined();
      await s.putConversation('c1', { a: 1 }, 0);
      expect(await s.getConversationIfChanged('c1', 1)).toBe(UNCHANGED);
      expect(await s.getConversationIfChanged('c1', 0)).toEqual({ value: { a: 1 }, version: 1 });
      await s.putConversation('c1', { a: 2 }, 1);
      expect(await s.getConversationIfChanged('c1', 1)).toEqual({ value: { a: 2 }, version: 2 });
      expect(await s.getConversationIfChanged('c1', 2)).toBe(UNCHANGED);
      await s.deleteConversation('c1');
      expect(await s.getConversationIfChanged('c1', 2)).toBeUndefined();
    });

    it('should report a conflict with the current version on a stale write', async () => {
      await store().putConversation('c1', { a: 1 }, 0);
      expect(await store().putConversation('c1', { a: 2 }, 0)).toEqual({
        status: 'conflict',
        currentVersion: 1,
      });
      expect(await store().putConversation('c1', { a: 2 }, 1)).toEqual({
        status: 'ok',
        version: 2,
      });
      expect(await store().putConversation('c1', { a: 3 }, 1)).toEqual({
        status: 'conflict',
        currentVersion: 2,
      });
      expect(await store().putConversation('c2', { a: 3 }, 5)).toEqual({
        status: 'conflict',
        currentVersion: 0,
      });
      expect((await store().getConversation('c1'))?.value).toEqual({ a: 2 });
    });

    it('should return copies, unaffected by later mutation', async () => {
      const doc = { nested: { n: 1 } };
      await store().putConversation('c1', doc, 0);
      doc.nested.n = 99;
      const read = await store().getConversation('c1');
      (read?.value as { nested: { n: number } }).nested.n = 42;
      expect((await store().getConversation('c1'))?.value).toEqual({ nested: { n: 1 } });
    });

    it('should delete a conversation so it can be created again', async () => {
      await store().putConversation('c1', { a: 1 }, 0);
      await store().deleteConversation('c1');
      await store().deleteConversation('never-existed');
      expect(await store().getConversation('c1')).toBeUndefined();
      expect(await store().putConversation('c1', { a: 2 }, 0)).toEqual({
        status: 'ok',
        version: 1,
      });
    });

    it('should reject a value that is not JSON', async () => {
      await expect(store().putConversation('c1', undefined, 0)).rejects.toThrow(TypeError);
      expect(await store().getConversation('c1')).toBeUndefined();
    });

    it('should fence a write whose lease token is no longer the newest', async () => {
      const now = clock().now();
      const first = await store().acquireLease('conv:c1', 'w1', 1000, now);
      expect(first).toBeDefined();
      const t1 = first!.token;
      expect(await store().putConversation('c1', { by: 'w1' }, 0, t1)).toEqual({
        status: 'ok',
        version: 1,
      });
      const second = await store().acquireLease('conv:c1', 'w2', 1000, now + 1000);
      expect(second!.token).toBeGreaterThan(t1);
      expect(await store().putConversation('c1', { by: 'w1' }, 1, t1)).toEqual({
        status: 'fenced',
      });
      expect(await store().putConversation('c1', { by: 'w2' }, 1, second!.token)).toEqual({
        status: 'ok',
        version: 2,
      });
      // Unfenced writes are only version-checked.
      expect(await store().putConversation('c1', { by: 'x' }, 2)).toEqual({
        status: 'ok',
        version: 3,
      });
      expect((await store().getConversation('c1'))?.value).toEqual({ by: 'x' });
    });

    it('should fence a write when the lease never existed', async () => {
      expect(await store().putConversation('c9', { a: 1 }, 0, 1)).toEqual({ status: 'fenced' });
      expect(await store().getConversation('c9')).toBeUndefined();
    });

    it('should write send records with a document, whatever its compare-and-set answers', async () => {
      const s = store();
      if (s.putConversationWith === undefined) return;
      const sent = (seq: number, state: SendRecord['state'], messageId?: string): SendRecord => ({
        id: `c1:7:${seq}`,
        conversationId: 'c1',
        seq,
        state,
        startedAt: 1_700_000_000_000,
        contentType: 'text',
        ...(messageId === undefined ? {} : { messageId }),
      });
      const lease = await s.acquireLease('conv:c1', 'w1', 1000, clock().now());
      const t1 = lease!.token;
      const records = [sent(1, 'accepted', 'm1'), sent(2, 'accepted', 'm2')];
      expect(await s.putConversationWith('c1', { n: 1 }, 0, t1, { sends: records })).toEqual({
        status: 'ok',
        version: 1,
      });
      expect(await s.getConversation('c1')).toEqual({ value: { n: 1 }, version: 1 });
      expect(await s.getSend('c1:7:1')).toEqual(records[0]);
      expect(await s.findSendByMessageId('m2')).toEqual(records[1]);
      // A stale version: the document is not written, the record is (it says what the API did).
      expect(
        await s.putConversationWith('c1', { n: 2 }, 0, t1, { sends: [sent(3, 'accepted', 'm3')] }),
      ).toEqual({ status: 'conflict', currentVersion: 1 });
      expect(await s.findSendByMessageId('m3')).toEqual(sent(3, 'accepted', 'm3'));
      // Fenced: the same.
      await s.acquireLease('conv:c1', 'w2', 1000, clock().now() + 2000);
      expect(
        await s.putConversationWith('c1', { n: 2 }, 1, t1, { sends: [sent(4, 'rejected')] }),
      ).toEqual({ status: 'fenced' });
      expect((await s.getSend('c1:7:4'))?.state).toBe('rejected');
      expect((await s.getConversation('c1'))?.value).toEqual({ n: 1 });
      // No records, and no fence: a plain compare-and-set.
      expect(await s.putConversationWith('c1', { n: 3 }, 1, undefined, {})).toEqual({
        status: 'ok',
        version: 2,
      });
      // Values, with a TTL and without one, as setValue writes them.
      const values = [
        { key: 'list', value: ['c1'], ttlMs: 1000 },
        { key: 'kept', value: { a: [1, 'é'] } },
      ];
      expect(await s.putConversationWith('c1', { n: 4 }, 2, undefined, { values })).toEqual({
        status: 'ok',
        version: 3,
      });
      expect(await s.getValue('list')).toEqual(['c1']);
      clock().advance(1000);
      expect(await s.getValue('list')).toBeUndefined();
      expect(await s.getValue('kept')).toEqual({ a: [1, 'é'] });
    });

    it('should make timer changes with a document, in their order', async () => {
      const s = store();
      if (s.putConversationWith === undefined) return;
      const due = clock().now() + 1000;
      const timer = (name: string, dueAt = due) => ({
        id: `c1:${name}`,
        conversationId: 'c1',
        name,
        dueAt,
      });
      await s.scheduleTimer(timer('old'));
      const timers = [
        { kind: 'schedule', timer: timer('idle') },
        { kind: 'cancel', id: 'c1:old' },
        { kind: 'cancel', id: 'c1:again' },
        { kind: 'schedule', timer: timer('again', due + 5) },
      ] as const;
      expect(await s.putConversationWith('c1', { n: 1 }, 0, undefined, { timers })).toEqual({
        status: 'ok',
        version: 1,
      });
      // A conflict changes the document not, the timers all the same.
      expect(
        await s.putConversationWith('c1', { n: 2 }, 0, undefined, {
          timers: [{ kind: 'schedule', timer: timer('late', due + 9) }],
        }),
      ).toEqual({ status: 'conflict', currentVersion: 1 });
      expect(await s.nextTimerDue()).toBe(due);
      const fired = await s.claimDueTimers(due + 10, 10, 60_000);
      expect(fired.map((t) => t.name).sort()).toEqual(['again', 'idle', 'late']);
    });

    it('should write nothing along when the document is not JSON', async () => {
      const s = store();
      if (s.putConversationWith === undefined) return;
      await expect(
        s.putConversationWith('c1', undefined, 0, undefined, { values: [{ key: 'k', value: 1 }] }),
      ).rejects.toThrow(TypeError);
      expect(await s.getValue('k')).toBeUndefined();
      expect(await s.getConversation('c1')).toBeUndefined();
    });

    it('should let exactly one of many concurrent CAS writes win', async () => {
      await store().putConversation('c1', { n: 0 }, 0);
      const results = await Promise.all(
        Array.from({ length: 25 }, (_, i) => store().putConversation('c1', { n: i + 1 }, 1)),
      );
      const ok = results.filter((r) => r.status === 'ok');
      expect(ok).toEqual([{ status: 'ok', version: 2 }]);
      expect(results.filter((r) => r.status === 'conflict')).toHaveLength(24);
      const winner = results.findIndex((r) => r.status === 'ok');
      expect(await store().getConversation('c1')).toEqual({ value: { n: winner + 1 }, version: 2 });
    });
  });
}
