import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import type { EngineClient } from '../../src/engine/types.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { AlongWrites, SendRecord, Store } from '../../src/store/store.js';
import { latestConversation } from '../../src/engine/contact-memory.js';
import { acceptingClient } from './accepting-client.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');

/** One inbound message → three sends in a row ("got", "and", then the next prompt). */
const threeSends = compileFlow(
  defineFlow({
    id: 'three',
    version: 1,
    start: 'listen',
    states: {
      listen: { ask: { prompt: 'Say something.', var: 'text', goto: 'got' } },
      got: { say: 'got {{text}}', goto: 'and' },
      and: { say: 'and more', goto: 'listen' },
    },
  }),
);

/**
 * A memory store whose send-record writes take a few milliseconds, logging when each
 * write starts and ends and each document write (with the records it carries), with the
 * client's POSTs in the same log. `combined: false` hides `putConversationWith` (a
 * store without it); `failDocWrite` fails the first document write that carries send records.
 */
function slowRecords(options: { combined?: boolean; failDocWrite?: boolean } = {}): {
  store: Store;
  client: EngineClient & { readonly sent: unknown[] };
  clock: ManualClock;
  log: string[];
} {
  const clock = new ManualClock(START);
  const inner = new MemoryStore({ clock });
  const log: string[] = [];
  let failed = false;
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
      if (property === 'putConversation')
        return (...args: unknown[]) => {
          log.push('save');
          return method(...args);
        };
      if (property === 'putConversationWith') {
        if (options.combined === false) return undefined;
        return async (...args: unknown[]) => {
          const along = args[4] as AlongWrites;
          const records = (along.sends ?? []).map((r) => `${r.state}:${String(r.seq)}`);
          const values = (along.values ?? []).map((v) => `${v.key}=${JSON.stringify(v.value)}`);
          const timers = (along.timers ?? []).map((t) =>
            t.kind === 'cancel' ? `cancel ${t.id}` : `schedule ${t.timer.id}`,
          );
          log.push(`save with ${[...records, ...values, ...timers].join(',')}`);
          if (options.failDocWrite === true && !failed && records.length > 0) {
            failed = true;
            throw new Error('injected: document write failed');
          }
          return method(...args);
        };
      }
      if (property === 'scheduleTimer' || property === 'cancelTimer')
        return (...args: unknown[]) => {
          log.push(`${property} ${JSON.stringify(args[0])}`);
          return method(...args);
        };
      if (property === 'setValue')
        return (...args: unknown[]) => {
          log.push(`setValue ${String(args[0])}`);
          return method(...args);
        };
      if (property !== 'putSend') return method;
      return async (record: SendRecord) => {
        const what = `${record.state}:${String(record.seq)}`;
        log.push(`start ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await method(record);
        log.push(`end ${what}`);
      };
    },
  });
  const accepting = acceptingClient();
  const client = {
    ...accepting,
    send: (request: Parameters<EngineClient['send']>[0]) => {
      log.push(`POST ${request.type === 'text' ? request.text.body : request.type}`);
      return accepting.send(request);
    },
  };
  return { store, client, clock, log };
}

function hello(id: string, text: string) {
  return {
    kind: 'inbound' as const,
    contact: { phone: '+15551230001', id: 'ct1', name: 'Ada' },
    message: {
      id,
      conversationId: 'c1',
      type: 'text' as const,
      text,
      occurredAt: new Date(START + 1000).toISOString(),
    },
  };
}

/** Asks, and says goodbye after 30 idle minutes. */
const idleGoodbye = compileFlow(
  defineFlow({
    id: 'idle',
    version: 1,
    start: 'listen',
    states: {
      listen: {
        ask: { prompt: 'Say something.', var: 'text', goto: 'got' },
        timeout: { after: '30m', goto: 'bye' },
      },
      got: { say: 'got {{text}}', goto: 'listen' },
      bye: { say: 'Bye.', final: true },
    },
  }),
);

/** The records of the three sends of the second message (seqs 2 to 4). */
async function recordsOf(store: Store): Promise<(SendRecord | undefined)[]> {
  const stored = (await store.getConversation('c1'))?.value as { epoch: number };
  return Promise.all(
    [2, 3, 4].map((seq) => store.getSend(`c1:${String(stored.epoch)}:${String(seq)}`)),
  );
}

/**
 * Two turns of `threeSends` on a slowRecords store (`options` as slowRecords takes them): the
 * log holds the second turn's writes and POSTs only.
 */
async function secondTurn(
  options?: Parameters<typeof slowRecords>[0],
): Promise<{ store: Store; log: string[] }> {
  const { store, client, clock, log } = slowRecords(options);
  const bot = createBot({ flows: [threeSends], api: { client }, store, clock, tickMs: 0 });
  await bot.start();
  await bot.handle(hello('m1', 'hi'));
  await bot.idle();
  log.length = 0;
  await bot.handle(hello('m2', 'there'));
  await bot.idle();
  await bot.stop();
  return { store, log };
}

describe('send records written with the document', () => {
  it("should write each send's intent before its POST, and its accepted record with the document write that ends the turn", async () => {
    const { store, log } = await secondTurn();
    expect(log.filter((l) => l.startsWith('POST'))).toEqual([
      'POST got there',
      'POST and more',
      'POST Say something.',
    ]);
    // Each POST only after its own pending record is written.
    for (const [i, line] of log.entries()) {
      if (!line.startsWith('POST')) continue;
      const before = log.slice(0, i);
      const pendingEnds = before.filter((l) => l.startsWith('end pending')).length;
      const posts = before.filter((l) => l.startsWith('POST')).length;
      expect(pendingEnds).toBe(posts + 1);
    }
    // No accepted record is a write of its own: all three go with the last document write.
    expect(log.filter((l) => l.includes('start accepted'))).toEqual([]);
    expect(log.at(-1)).toBe('save with accepted:2,accepted:3,accepted:4');
    const records = await recordsOf(store);
    expect(records.map((r) => r?.state)).toEqual(['accepted', 'accepted', 'accepted']);
    for (const record of records)
      expect(await store.findSendByMessageId(record?.messageId ?? '')).toEqual(record);
  });

  it('should write the accepted records before the document on a store that cannot take them together', async () => {
    const { store, log } = await secondTurn({ combined: false });
    const save = log.lastIndexOf('save');
    expect(log.slice(save - 6, save).sort()).toEqual(
      ['accepted:2', 'accepted:3', 'accepted:4'].flatMap((w) => [`end ${w}`, `start ${w}`]).sort(),
    );
    expect((await recordsOf(store)).map((r) => r?.state)).toEqual([
      'accepted',
      'accepted',
      'accepted',
    ]);
  });

  it('should still write the accepted records when the document write fails, so a retry sends nothing again', async () => {
    const { store, client, clock, log } = slowRecords({ failDocWrite: true });
    const bot = createBot({ flows: [threeSends], api: { client }, store, clock, tickMs: 0 });
    await bot.start();
    await bot.handle(hello('m1', 'hi')).catch(() => undefined);
    await bot.idle();
    expect(log).toContain('save with accepted:1');
    // The document still lists the send as pending and the item is still in the inbox;
    // the record was written after the failure, so the retry finds the send done.
    expect((await store.peekInbox('c1', 5)).map((i) => i.id)).toEqual(['msg:m1']);
    const stored = (await store.getConversation('c1'))?.value as {
      epoch: number;
      pending: { seq: number }[];
    };
    expect(stored.pending.map((e) => e.seq)).toEqual([1]);
    expect((await store.getSend(`c1:${String(stored.epoch)}:1`))?.state).toBe('accepted');
    await bot.stop();
    const again = createBot({ flows: [threeSends], api: { client }, store, clock, tickMs: 0 });
    await again.start();
    await again.idle();
    await again.stop();
    expect((await store.peekInbox('c1', 5)).map((i) => i.id)).toEqual([]);
    expect(log.filter((l) => l.startsWith('POST'))).toEqual(['POST Say something.']);
  });

  it("should write a new conversation's entry in its contact's list with its first document write", async () => {
    const { store, client, clock, log } = slowRecords();
    const bot = createBot({ flows: [threeSends], api: { client }, store, clock, tickMs: 0 });
    await bot.start();
    await bot.handle(hello('m1', 'hi'));
    await bot.idle();
    const first = log.find((l) => l.startsWith('save'));
    expect(first).toBe('save with contact-convs:+15551230001=["c1"]');
    expect(log.filter((l) => l.startsWith('setValue'))).toEqual([]);
    expect(await latestConversation(store, '+15551230001')).toBe('c1');
    log.length = 0;
    await bot.handle(hello('m2', 'there'));
    await bot.idle();
    await bot.stop();
    // A known conversation: no list write at all.
    expect(log.filter((l) => l.includes('contact-convs'))).toEqual([]);
  });

  it("should write a new conversation's list entry before its document on a store that cannot take them together", async () => {
    const { store, client, clock, log } = slowRecords({ combined: false });
    const bot = createBot({ flows: [threeSends], api: { client }, store, clock, tickMs: 0 });
    await bot.start();
    await bot.handle(hello('m1', 'hi'));
    await bot.idle();
    await bot.stop();
    expect(log.indexOf('setValue contact-convs:+15551230001')).toBeGreaterThanOrEqual(0);
    expect(log.indexOf('setValue contact-convs:+15551230001')).toBeLessThan(log.indexOf('save'));
    expect(await latestConversation(store, '+15551230001')).toBe('c1');
  });

  it("should write a state's timer changes with the document write after them, never on their own", async () => {
    const { store, client, clock, log } = slowRecords();
    const bot = createBot({ flows: [idleGoodbye], api: { client }, store, clock, tickMs: 0 });
    await bot.start();
    await bot.handle(hello('m1', 'hi'));
    await bot.idle();
    await bot.handle(hello('m2', 'there'));
    await bot.idle();
    expect(log.filter((l) => l.startsWith('scheduleTimer') || l.startsWith('cancelTimer'))).toEqual(
      [],
    );
    const saves = log.filter((l) => l.startsWith('save with') && l.includes('c1:'));
    expect(saves.some((l) => l.includes('schedule c1:'))).toBe(true);
    // The timer is there: 30 idle minutes later the goodbye goes out, once.
    const due = await store.nextTimerDue();
    expect(due).toBeGreaterThan(clock.now());
    clock.advance((due ?? 0) - clock.now());
    await bot.runDueTimers();
    await bot.idle();
    await bot.stop();
    expect(log.filter((l) => l.startsWith('POST'))).toEqual([
      'POST Say something.',
      'POST got there',
      'POST Say something.',
      'POST Bye.',
    ]);
  });
});
