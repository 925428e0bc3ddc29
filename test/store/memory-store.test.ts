import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { storeContractSuite } from './store-contract.js';

storeContractSuite('MemoryStore', () => {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const store = new MemoryStore({ clock });
  return Promise.resolve({ store, clock, cleanup: () => store.close() });
});

describe('MemoryStore', () => {
  it('should hold 100,000 idle conversations with their dedup keys', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const store = new MemoryStore({ clock });
    for (let i = 0; i < 100_000; i++) {
      const id = `conv-${i}`;
      await store.putConversation(id, { flow: 'support@3', state: 'idle', vars: { i } }, 0);
      await store.enqueue(id, { id: `msg:${i}`, sortKey: i, payload: { i } }, 86_400_000);
      await store.ackInbox(id, [`msg:${i}`]);
    }
    expect(await store.getConversation('conv-99999')).toEqual({
      value: { flow: 'support@3', state: 'idle', vars: { i: 99999 } },
      version: 1,
    });
    expect(await store.conversationsWithInbox(10)).toEqual([]);
  });
});
