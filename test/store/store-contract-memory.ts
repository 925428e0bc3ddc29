import { describe, expect, it } from 'vitest';
import {
  forgetContact,
  latestConversation,
  loadContactMemory,
  rememberConversation,
  saveContactMemory,
} from '../../src/engine/contact-memory.js';
import type { ContractContext } from './store-contract-context.js';

const DAY = 86_400_000;

/**
 * Contact memory and erasure on top of the store's values and conversations: kept per
 * phone for its retention, replaced as a whole, and erased with every conversation
 * recorded for the contact (and only those).
 */
export function contactMemoryContract(ctx: ContractContext): void {
  const store = () => ctx.store();
  describe('contact memory', () => {
    it('should keep a contact memory across reads, replace it, and expire it after its retention', async () => {
      expect(await loadContactMemory(store(), '+15550001')).toEqual({});
      await saveContactMemory(store(), '+15550001', {
        locale: 'fr',
        visits: 2,
        vip: true,
        x: null,
      });
      expect(await loadContactMemory(store(), '+15550001')).toEqual({
        locale: 'fr',
        visits: 2,
        vip: true,
        x: null,
      });
      await saveContactMemory(store(), '+15550001', { locale: 'en' }, 10 * DAY);
      expect(await loadContactMemory(store(), '+15550001')).toEqual({ locale: 'en' });
      expect(await loadContactMemory(store(), '+15550002')).toEqual({});
      ctx.clock().advance(11 * DAY);
      expect(await loadContactMemory(store(), '+15550001')).toEqual({});
    });

    it('should forget a contact: its memory, its conversations and their inbox, not others', async () => {
      const s = store();
      await saveContactMemory(s, '+15550001', { locale: 'fr' });
      await saveContactMemory(s, '+15550002', { locale: 'de' });
      for (const [id, phone] of [
        ['c1', '+15550001'],
        ['c2', '+15550001'],
        ['c3', '+15550002'],
      ] as const) {
        await s.putConversation(id, { epoch: 4, phone }, 0);
        await s.enqueue(id, { id: `m-${id}`, sortKey: 1, payload: { x: 1 } }, DAY);
        await rememberConversation(s, phone, id);
      }
      const r = await forgetContact(s, '+15550001');
      expect(r).toEqual({ phone: '+15550001', memory: true, conversations: ['c1', 'c2'] });
      expect(await loadContactMemory(s, '+15550001')).toEqual({});
      expect(await s.getConversation('c1')).toBeUndefined();
      expect(await s.getConversation('c2')).toBeUndefined();
      expect(await s.peekInbox('c1', 10)).toEqual([]);
      // Another contact is untouched.
      expect(await loadContactMemory(s, '+15550002')).toEqual({ locale: 'de' });
      expect(await s.getConversation('c3')).toMatchObject({ value: { epoch: 4 } });
      expect(await s.peekInbox('c3', 10)).toHaveLength(1);
      // A new conversation there starts above the erased epoch (send record ids stay unique).
      expect(await s.getValue('conv-epoch:c1')).toBe(4);
      expect(await forgetContact(s, '+15550001')).toEqual({
        phone: '+15550001',
        memory: false,
        conversations: [],
      });
    });

    it('should name the latest conversation of a contact, and read the key of earlier versions', async () => {
      const s = store();
      expect(await latestConversation(s, '+15550003')).toBeUndefined();
      await rememberConversation(s, '+15550003', 'a');
      await rememberConversation(s, '+15550003', 'b');
      expect(await latestConversation(s, '+15550003')).toBe('b');
      await rememberConversation(s, '+15550003', 'a');
      expect(await latestConversation(s, '+15550003')).toBe('a');
      expect(await s.getValue('contact-convs:+15550003')).toEqual(['b', 'a']);
      // Data written before the two keys became one: still found, and erased.
      await s.setValue('contact-conv:+15550004', 'old');
      await s.putConversation('old', { epoch: 1 }, 0);
      expect(await latestConversation(s, '+15550004')).toBe('old');
      expect((await forgetContact(s, '+15550004')).conversations).toEqual(['old']);
      expect(await s.getValue('contact-conv:+15550004')).toBeUndefined();
    });
  });
}
