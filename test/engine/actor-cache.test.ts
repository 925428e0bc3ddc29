import { createActor, createMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { ActorCache, type LiveActor } from '../../src/engine/actor-cache.js';
import type { ConversationDoc } from '../../src/engine/conversation-doc.js';

const machine = createMachine({ id: 'm', initial: 'a', states: { a: {} } });
const other = createMachine({ id: 'o', initial: 'a', states: { a: {} } });

function live(): LiveActor {
  return { actor: createActor(machine).start(), machine, failure: undefined };
}
const key = { version: 3, epoch: 1, state: 'a' };

describe('ActorCache', () => {
  it('should give an actor back only for the exact document it produced', () => {
    const cache = new ActorCache(10);
    const a = live();
    cache.put('c1', a, key);
    expect(cache.take('c1', { machine, ...key })).toBe(a);
    // Taken means removed: a second take finds nothing.
    expect(cache.take('c1', { machine, ...key })).toBeUndefined();
  });

  it('should hand its document out once and keep the actor', () => {
    const cache = new ActorCache(10);
    const a = live();
    const doc = { state: 'a' } as unknown as ConversationDoc;
    cache.put('c1', a, key, doc);
    expect(cache.takeDoc('c1')).toEqual({ doc, version: 3 });
    expect(cache.takeDoc('c1')).toBeUndefined();
    expect(cache.take('c1', { machine, ...key })).toBe(a);
    cache.put('c2', live(), key);
    expect(cache.takeDoc('c2')).toBeUndefined();
    expect(cache.takeDoc('nope')).toBeUndefined();
  });

  it('should drop and stop an actor whose document changed since', () => {
    const cache = new ActorCache(10);
    for (const changed of [
      { machine, ...key, version: 4 },
      { machine, ...key, epoch: 2 },
      { machine, ...key, state: 'b' },
      { machine: other, ...key },
    ]) {
      const a = live();
      cache.put('c1', a, key);
      expect(cache.take('c1', changed)).toBeUndefined();
      expect(a.actor.getSnapshot().status).toBe('stopped');
      expect(cache.size).toBe(0);
    }
  });

  it('should evict and stop the least recently used actor beyond its size', () => {
    const cache = new ActorCache(2);
    const [a, b, c] = [live(), live(), live()];
    cache.put('c1', a, key);
    cache.put('c2', b, key);
    cache.put('c1', a, { ...key, version: 4 });
    cache.put('c3', c, key);
    expect(cache.size).toBe(2);
    expect(b.actor.getSnapshot().status).toBe('stopped');
    expect(cache.take('c1', { machine, ...key, version: 4 })).toBe(a);
    expect(cache.take('c3', { machine, ...key })).toBe(c);
  });

  it('should keep nothing with size 0 and stop everything on clear', () => {
    const none = new ActorCache(0);
    const a = live();
    none.put('c1', a, key);
    expect(none.size).toBe(0);
    expect(a.actor.getSnapshot().status).toBe('stopped');
    const cache = new ActorCache(5);
    const b = live();
    cache.put('c1', b, key);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(b.actor.getSnapshot().status).toBe('stopped');
  });
});
