import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import type { IngestEvent } from '../../src/engine/types.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { acceptingClient } from './accepting-client.js';
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

const client = acceptingClient();

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

/**
 * A memory store counting calls; `voidAck` makes its ack resolve with nothing, `plain`
 * hides its combined lease calls (`acquireConversation`, `releaseConversation`,
 * `ackAndRelease`), `noAckRelease` only `ackAndRelease`.
 */
function counting(options: CountingOptions = {}): {
  store: Store;
  calls: Map<string, number>;
} {
  const inner = new MemoryStore({ clock: new ManualClock(START) });
  const calls = new Map<string, number>();
  const hidden = new Set([
    ...(options.plain === true ? ['acquireConversation', 'releaseConversation'] : []),
    ...(options.plain === true || options.noAckRelease === true ? ['ackAndRelease'] : []),
  ]);
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      if (typeof property === 'string' && hidden.has(property)) return undefined;
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return async (...args: unknown[]): Promise<unknown> => {
        calls.set(property, (calls.get(property) ?? 0) + 1);
        const result: unknown = await (value as (...a: unknown[]) => unknown).apply(target, args);
        return property === 'ackInbox' && options.voidAck === true ? undefined : result;
      };
    },
  });
  return { store, calls };
}

interface CountingOptions {
  readonly voidAck?: boolean;
  readonly plain?: boolean;
  readonly noAckRelease?: boolean;
}

const LEASE_CALLS = [
  'acquireLease',
  'releaseLease',
  'acquireConversation',
  'releaseConversation',
  'peekInbox',
  'ackInbox',
  'ackAndRelease',
];

/** The lease and inbox calls made, by name (0 left out). */
function leaseCalls(calls: Map<string, number>): Record<string, number> {
  return Object.fromEntries(
    LEASE_CALLS.flatMap((name) => {
      const n = calls.get(name) ?? 0;
      return n === 0 ? [] : [[name, n]];
    }),
  );
}

/**
 * Runs `messages` through a bot on a counting store (all enqueued before the drain starts,
 * which begins on a later turn) and answers the lease and inbox calls made.
 */
async function callsFor(
  options: CountingOptions,
  ...messages: number[]
): Promise<Record<string, number>> {
  const { store, calls } = counting(options);
  const bot = createBot({ flows: [echo], api: { client }, store, tickMs: 0 });
  await bot.start();
  calls.clear();
  await Promise.all(messages.map((n) => bot.handle(message(n))));
  await bot.idle();
  await bot.stop();
  return leaseCalls(calls);
}

describe('drain: store calls per item', () => {
  it('should take the lease with the first item and release it with the ack: 2 calls for one item', async () => {
    expect(await callsFor({}, 1)).toEqual({ acquireConversation: 1, ackAndRelease: 1 });
  });

  it('should peek for the items after the first under the same lease, and release with the last ack', async () => {
    expect(await callsFor({}, 1, 2)).toEqual({
      acquireConversation: 1,
      peekInbox: 1,
      ackAndRelease: 2,
    });
  });

  it('should release with the count after a plain ack (store without ackAndRelease)', async () => {
    expect(await callsFor({ noAckRelease: true }, 1)).toEqual({
      acquireConversation: 1,
      ackInbox: 1,
      releaseConversation: 1,
    });
    expect(await callsFor({ noAckRelease: true }, 1, 2)).toEqual({
      acquireConversation: 1,
      peekInbox: 1,
      ackInbox: 2,
      releaseConversation: 1,
    });
  });

  it('should not peek again after an ack that left the inbox empty (store without combined calls)', async () => {
    // The item's own peek, and the one after the release (nothing in between).
    expect(await callsFor({ plain: true }, 1)).toEqual({
      acquireLease: 1,
      peekInbox: 2,
      ackInbox: 1,
      releaseLease: 1,
    });
  });

  it('should peek as before with a store whose ack says nothing', async () => {
    const calls = await callsFor({ voidAck: true, plain: true }, 1, 2);
    expect(calls.ackInbox).toBe(2);
    expect(calls.peekInbox).toBeGreaterThanOrEqual(3);
  });
});
