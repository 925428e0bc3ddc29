import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import type { IngestEvent } from '../../src/engine/types.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { acceptingClient, sentTexts } from './accepting-client.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');

/** Alternates between two asks, so a stale actor would answer from the wrong state. */
const pingPong = compileFlow(
  defineFlow({
    id: 'ping-pong',
    version: 1,
    start: 'a',
    states: {
      a: { ask: { prompt: 'A', var: 'x', goto: 'b' } },
      b: { ask: { prompt: 'B {{x}}', var: 'y', goto: 'a' } },
    },
  }),
);

let n = 0;
function text(body: string): IngestEvent {
  n += 1;
  return {
    kind: 'inbound',
    contact: { phone: '+15551230001', id: 'ct1', name: 'Ada' },
    message: {
      id: `m${n}`,
      conversationId: 'c1',
      type: 'text',
      text: body,
      occurredAt: new Date(START + n).toISOString(),
    },
  };
}

describe('live actors across processes', () => {
  it('should restore from the store when another process moved the conversation on', async () => {
    const clock = new ManualClock(START);
    const store = new MemoryStore({ clock });
    const client = acceptingClient();
    const options = { flows: [pingPong], api: { client }, clock, store, tickMs: 0 };
    const one = createBot(options);
    const two = createBot(options);
    for (const [bot, body] of [
      [one, 'hello'],
      [one, 'first'],
      [two, 'second'],
      [one, 'third'],
      [one, 'fourth'],
    ] as const) {
      await bot.handle(text(body));
      await bot.idle();
    }
    expect(sentTexts(client)).toEqual(['A', 'B first', 'A', 'B third', 'A']);
    expect((await one.inspect('c1'))?.vars).toEqual({ x: 'third', y: 'fourth' });
    await one.stop();
    await two.stop();
  });

  /**
   * A memory store counting calls; `plain` hides `acquireConversation`, so the drain asks
   * for the lease and the document apart.
   */
  function countingStore(clock: ManualClock, plain: boolean) {
    const inner = new MemoryStore({ clock });
    const calls = new Map<string, number>();
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        if (plain && property === 'acquireConversation') return undefined;
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return (...args: unknown[]): unknown => {
          calls.set(property, (calls.get(property) ?? 0) + 1);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    return { inner, store, calls };
  }

  /** Another writer (a teammate's takeover recorded by another worker) changes it. */
  async function takeOver(inner: MemoryStore): Promise<void> {
    const stored = await inner.getConversation('c1');
    const value = { ...(stored!.value as Record<string, unknown>), humanOwned: true };
    expect(await inner.putConversation('c1', value, stored!.version)).toMatchObject({
      status: 'ok',
    });
  }

  /** A bot on a counting store (see countingStore) that answered three messages. */
  async function afterThree(plain: boolean) {
    const clock = new ManualClock(START);
    const counted = countingStore(clock, plain);
    const client = acceptingClient();
    const bot = createBot({
      flows: [pingPong],
      api: { client },
      clock,
      store: counted.store,
      tickMs: 0,
    });
    for (const body of ['hello', 'first', 'second']) {
      await bot.handle(text(body));
      await bot.idle();
    }
    expect(sentTexts(client)).toEqual(['A', 'B first', 'A']);
    return { ...counted, client, bot };
  }

  /** Another writer takes the conversation over; the bot's next message is not answered. */
  async function thirdAfterTakeover(t: Awaited<ReturnType<typeof afterThree>>): Promise<void> {
    await takeOver(t.inner);
    await t.bot.handle(text('third'));
    await t.bot.idle();
    expect(sentTexts(t.client)).toEqual(['A', 'B first', 'A']);
  }

  it('should not read back the document it wrote itself, and see one written by another', async () => {
    const t = await afterThree(true);
    // Read once (absent: the first message); then only asked whether it changed.
    expect(t.calls.get('getConversation')).toBe(1);
    expect(t.calls.get('getConversationIfChanged')).toBe(2);
    await thirdAfterTakeover(t);
    expect((await t.bot.inspect('c1'))?.humanOwned).toBe(true);
    await t.bot.stop();
  });

  it('should take the document version with the lease and ask nothing more while it is its own', async () => {
    const t = await afterThree(false);
    // acquireConversation said "no document", then each time the version it wrote itself.
    expect(t.calls.get('acquireConversation')).toBe(3);
    expect(t.calls.get('getConversation')).toBeUndefined();
    expect(t.calls.get('getConversationIfChanged')).toBeUndefined();
    await thirdAfterTakeover(t);
    // Another version than its own: read once, and the takeover holds.
    expect(t.calls.get('getConversation')).toBe(1);
    expect((await t.bot.inspect('c1'))?.humanOwned).toBe(true);
    await t.bot.stop();
  });

  it('should store the outbox empty while its effects wait in pending', async () => {
    const clock = new ManualClock(START);
    const inner = new MemoryStore({ clock });
    const written: Record<string, unknown>[] = [];
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        if (property !== 'putConversation' && property !== 'putConversationWith')
          return (...args: unknown[]): unknown =>
            (value as (...a: unknown[]) => unknown).apply(target, args);
        return (id: string, doc: Record<string, unknown>, ...rest: unknown[]): unknown => {
          written.push(JSON.parse(JSON.stringify(doc)) as Record<string, unknown>);
          return (value as (...a: unknown[]) => unknown).call(target, id, doc, ...rest);
        };
      },
    });
    const client = acceptingClient();
    const bot = createBot({ flows: [pingPong], api: { client }, clock, store, tickMs: 0 });
    await bot.handle(text('hello'));
    await bot.idle();
    const withPending = written.filter((d) => Array.isArray(d['pending']));
    expect(withPending.length).toBeGreaterThan(0);
    for (const doc of withPending) {
      // Empty: left out of the compact snapshot (format 4), or stored as [].
      const snapshot = doc['snapshot'] as { context: { outbox?: unknown[] } };
      expect(snapshot.context.outbox ?? []).toEqual([]);
      expect((doc['pending'] as { kind: string }[]).map((e) => e.kind)).toContain('send');
    }
    expect(sentTexts(client)).toEqual(['A']);
    await bot.stop();
  });

  it('should behave the same with the actor cache off', async () => {
    const clock = new ManualClock(START);
    const client = acceptingClient();
    const bot = createBot({
      flows: [pingPong],
      api: { client },
      clock,
      tickMs: 0,
      actorCacheSize: 0,
    });
    for (const body of ['hello', 'first', 'second', 'third']) {
      await bot.handle(text(body));
      await bot.idle();
    }
    expect(sentTexts(client)).toEqual(['A', 'B first', 'A', 'B third']);
    await bot.stop();
  });

  it('should keep in applied only the items whose ack it has not seen', async () => {
    const clock = new ManualClock(START);
    const inner = new MemoryStore({ clock });
    let failNextAck = false;
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const method = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
        if (property !== 'ackAndRelease') return method;
        return async (...args: unknown[]) => {
          if (failNextAck) {
            failNextAck = false;
            throw new Error('injected: ack lost');
          }
          return method(...args);
        };
      },
    });
    const applied = async (): Promise<unknown> =>
      ((await inner.getConversation('c1'))?.value as { applied?: string[] }).applied;
    const client = acceptingClient();
    const bot = createBot({ flows: [pingPong], api: { client }, clock, store, tickMs: 0 });
    const first = n + 1;
    for (const body of ['hello', 'first', 'second', 'third']) {
      await bot.handle(text(body));
      await bot.idle();
    }
    // Only the last item: every earlier one was acknowledged before the next save.
    expect(await applied()).toEqual([`msg:m${first + 3}`]);
    // An ack that fails: its item stays applied (and in the inbox) until an ack is seen.
    failNextAck = true;
    await bot.handle(text('fourth'));
    await bot.idle();
    expect(await applied()).toEqual([`msg:m${first + 4}`]);
    expect((await inner.peekInbox('c1', 5)).map((i) => i.id)).toEqual([`msg:m${first + 4}`]);
    // The next drain meets it first: recognised as applied (not answered again), acked.
    await bot.handle(text('fifth'));
    await bot.idle();
    expect(sentTexts(client)).toEqual(['A', 'B first', 'A', 'B third', 'A', 'B fifth']);
    expect(await applied()).toEqual([`msg:m${first + 5}`]);
    expect(await inner.peekInbox('c1', 5)).toEqual([]);
    await bot.stop();
  });
});
