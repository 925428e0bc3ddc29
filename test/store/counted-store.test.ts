import { describe, expect, it } from 'vitest';
import { countStoreOperations, WRITE_OPERATIONS } from '../../src/store/counted-store.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { Store } from '../../src/store/store.js';

describe('countStoreOperations', () => {
  it('should count each call by operation and pass results through', async () => {
    const { store, counts } = countStoreOperations(new MemoryStore());
    expect(await store.markSeen('k1', 60_000)).toBe(true);
    expect(await store.markSeen('k1', 60_000)).toBe(false);
    await store.setValue('v', { a: 1 });
    expect(await store.getValue('v')).toEqual({ a: 1 });
    expect(Object.fromEntries(counts)).toEqual({ markSeen: 2, setValue: 1, getValue: 1 });
  });

  it('should leave out optional operations the inner store does not have', () => {
    const inner = new MemoryStore() as unknown as Record<string, unknown>;
    const lacking = Object.create(inner) as Record<string, unknown>;
    lacking['acquireConversation'] = undefined;
    const { store } = countStoreOperations(lacking as unknown as Store);
    expect(typeof store.acquireConversation).toBe('undefined');
    expect(typeof store.putConversation).toBe('function');
  });

  it('should class the operations that change what is stored as writes', () => {
    expect(WRITE_OPERATIONS.has('putConversation')).toBe(true);
    expect(WRITE_OPERATIONS.has('getConversation')).toBe(false);
  });
});
