import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import type { EngineClient, IngestEvent } from '../../src/engine/types.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { Store } from '../../src/store/store.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');

const echo = compileFlow(
  defineFlow({
    id: 'echo',
    version: 1,
    start: 'a',
    states: {
      a: { ask: { prompt: 'A', var: 'x', goto: 'b' } },
      b: { ask: { prompt: 'B', var: 'x', goto: 'a' } },
    },
  }),
);

const client: EngineClient = {
  send: () => Promise.resolve({ status: 'accepted', messageId: 'wamid_1' }),
  listConversations: () => Promise.resolve({ items: [], nextCursor: null }),
  listMessages: () => Promise.resolve({ items: [], nextCursor: null }),
  getMessage: () => Promise.reject(new Error('not in this fake')),
};

function message(n: number): IngestEvent {
  return {
    kind: 'inbound',
    contact: { phone: '+15551230001', id: 'ct1', name: 'Ada' },
    message: {
      id: `m${n}`,
      conversationId: 'c1',
      type: 'text',
      text: `hi ${n}`,
      occurredAt: new Date(START + n).toISOString(),
    },
  };
}

/** A memory store counting calls; `voidAck` makes its ack resolve with nothing. */
function counting(voidAck: boolean): { store: Store; calls: Map<string, number> } {
  const inner = new MemoryStore({ clock: new ManualClock(START) });
  const calls = new Map<string, number>();
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return async (...args: unknown[]): Promise<unknown> => {
        calls.set(property, (calls.get(property) ?? 0) + 1);
        const result: unknown = await (value as (...a: unknown[]) => unknown).apply(target, args);
        return property === 'ackInbox' && voidAck ? undefined : result;
      };
    },
  });
  return { store, calls };
}

describe('drain: store calls per item', () => {
  it('should not peek again after an ack that left the inbox empty', async () => {
    const { store, calls } = counting(false);
    const bot = createBot({ flows: [echo], api: { client }, store, tickMs: 0 });
    await bot.start();
    calls.clear();
    await bot.handle(message(1));
    await bot.idle();
    expect(calls.get('ackInbox')).toBe(1);
    // The item's own peek, and the one after the release (nothing in between).
    expect(calls.get('peekInbox')).toBe(2);
    await bot.stop();
  });

  it('should peek as before with a store whose ack says nothing', async () => {
    const { store, calls } = counting(true);
    const bot = createBot({ flows: [echo], api: { client }, store, tickMs: 0 });
    await bot.start();
    calls.clear();
    await bot.handle(message(1));
    await bot.handle(message(2));
    await bot.idle();
    expect(calls.get('ackInbox')).toBe(2);
    expect(calls.get('peekInbox')).toBeGreaterThanOrEqual(3);
    await bot.stop();
  });
});
