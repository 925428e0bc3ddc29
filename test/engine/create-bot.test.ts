import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import { TurnGate } from '../../src/engine/turn-gate.js';
import { BotConfigError, type EngineClient, type IngestEvent } from '../../src/engine/types.js';
import type { SendRequest } from '../../src/messages/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { echoFlow } from './echo-machine.js';
import { demoFlow } from './harness.js';
import { sendRecordOf } from './send-record-of.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');
const contact = { phone: '+15551230001', id: 'ct_1', name: 'Ada' };

/** A fake client that accepts every send (or answers `unknown`) and has an empty history. */
function fakeClient(mode: { unknown?: boolean } = {}): EngineClient & { sent: SendRequest[] } {
  const sent: SendRequest[] = [];
  return {
    sent,
    send(request) {
      sent.push(request);
      if (mode.unknown === true) {
        return Promise.resolve({
          status: 'unknown',
          reason: 'timeout',
          startedAt: START,
          to: request.to,
          type: request.type,
          fingerprint: 'x',
          cause: new Error('timeout'),
        });
      }
      return Promise.resolve({ status: 'accepted', messageId: `wamid_${sent.length}` });
    },
    listConversations: () => Promise.resolve({ items: [], nextCursor: null }),
    listMessages: () => Promise.resolve({ items: [], nextCursor: null }),
    getMessage: () => Promise.reject(new Error('not in this fake')),
  };
}

let n = 0;
function text(body: string, clock: ManualClock): IngestEvent {
  n += 1;
  return {
    kind: 'inbound',
    contact,
    message: {
      id: `m${n}`,
      conversationId: 'c1',
      type: 'text',
      text: body,
      occurredAt: new Date(clock.now()).toISOString(),
    },
  };
}

describe('createBot', () => {
  it('should fail at creation with a clear message for an unknown handler', () => {
    expect(() =>
      createBot({ flows: [demoFlow], handlers: {}, api: { client: fakeClient() } }),
    ).toThrow(/calls handler "lookup" but no handler of that name/);
  });

  it('should fail at creation without an API key or flows', () => {
    expect(() =>
      createBot({ flows: [], api: { baseUrl: 'http://127.0.0.1:1', apiKey: '' } }),
    ).toThrow(BotConfigError);
    expect(() =>
      createBot({ flows: [echoFlow], api: { baseUrl: 'http://127.0.0.1:1', apiKey: ' ' } }),
    ).toThrow(/api\.apiKey is missing/);
    expect(() =>
      createBot({ flows: [echoFlow], entry: 'nope', api: { client: fakeClient() } }),
    ).toThrow(/entry flow "nope"/);
  });

  it('should fail at creation for a concurrency that is not a whole number ≥ 1', () => {
    const client = fakeClient();
    expect(() => createBot({ flows: [echoFlow], api: { client }, concurrency: 0 })).toThrow(
      /concurrency must be a whole number ≥ 1 \(got 0\)/,
    );
    expect(() => createBot({ flows: [echoFlow], api: { client }, burstConcurrency: 2.5 })).toThrow(
      /burstConcurrency must be a whole number ≥ 1 \(got 2\.5\)/,
    );
  });

  it('should fail at creation for sends options that are not { resendAfterAbsence: boolean }', () => {
    const client = fakeClient();
    const yes = 'yes' as unknown as boolean;
    expect(() =>
      createBot({ flows: [echoFlow], api: { client }, sends: { resendAfterAbsence: yes } }),
    ).toThrow('sends.resendAfterAbsence must be true or false (got "yes")');
    const flag = true as unknown as { resendAfterAbsence: boolean };
    expect(() => createBot({ flows: [echoFlow], api: { client }, sends: flag })).toThrow(
      'sends must be an object like { resendAfterAbsence: true } (got true)',
    );
    expect(() =>
      createBot({ flows: [echoFlow], api: { client }, sends: { resendAfterAbsence: false } }),
    ).not.toThrow();
  });

  it('should handle a duplicate inbound once', async () => {
    const clock = new ManualClock(START);
    const client = fakeClient();
    const bot = createBot({ flows: [echoFlow], api: { client }, clock, tickMs: 0 });
    const event = text('hi', clock);
    expect(await bot.handle(event)).toEqual({ status: 'accepted' });
    expect(await bot.handle(event)).toEqual({ status: 'duplicate' });
    await bot.idle();
    expect(client.sent.map((r) => r.type)).toEqual(['text']);
    await bot.stop();
  });

  it('should restart a conversation whose flow version changed', async () => {
    const clock = new ManualClock(START);
    const store = new MemoryStore({ clock });
    const client = fakeClient();
    const v1 = createBot({ flows: [echoFlow], api: { client }, clock, store, tickMs: 0 });
    await v1.handle(text('one', clock));
    await v1.stop();
    const v2 = createBot({
      flows: [{ ...echoFlow, version: 2 }],
      api: { client },
      clock,
      store,
      tickMs: 0,
    });
    await v2.handle(text('two', clock));
    await v2.idle();
    const view = await v2.inspect('c1');
    expect(view?.flowVersion).toBe(2);
    expect(client.sent).toHaveLength(2);
    await v2.stop();
  });

  it('should never replay a send left pending by a crash', async () => {
    const clock = new ManualClock(START);
    const store = new MemoryStore({ clock });
    const client = fakeClient();
    const bot = createBot({ flows: [echoFlow], api: { client }, clock, store, tickMs: 0 });
    await bot.handle(text('hi', clock));
    await bot.idle();
    // Simulate a crash after the POST started: the effect is not marked done and its record is pending.
    const stored = await store.getConversation('c1');
    const doc = structuredClone(stored?.value) as {
      lastEffectSeq: number;
      pending: unknown[];
      snapshot: unknown;
    };
    const recordId = await sendRecordOf(store, 'c1', 1);
    const record = await store.getSend(recordId);
    expect(record?.state).toBe('accepted');
    await store.putSend({ ...record!, state: 'pending' });
    const ctx = (doc.snapshot as { context: { outbox: unknown[] } }).context;
    await store.putConversation(
      'c1',
      { ...doc, lastEffectSeq: 0, pending: ctx.outbox },
      stored?.version ?? 0,
    );
    const restarted = createBot({ flows: [echoFlow], api: { client }, clock, store, tickMs: 0 });
    await restarted.handle(text('again', clock));
    await restarted.idle();
    // One send for "hi" (before the crash) and one for "again": "hi" was not replayed.
    expect(client.sent).toHaveLength(2);
    expect((await store.getSend(recordId))?.state).toBe('unknown');
    await restarted.stop();
  });

  it('should emit effect events for observability', async () => {
    const clock = new ManualClock(START);
    const bot = createBot({
      flows: [echoFlow],
      api: { client: fakeClient({ unknown: true }) },
      clock,
      tickMs: 0,
    });
    const outcomes: string[] = [];
    bot.on('effect', (e) => outcomes.push(`${e.effect.kind}:${e.outcome}`));
    await bot.handle(text('hi', clock));
    await bot.idle();
    expect(outcomes).toEqual(['send:unknown']);
    await bot.stop();
  });

  it('should press its turn gate for every callback it is handed (acknowledgements first)', async () => {
    const press = vi.spyOn(TurnGate.prototype, 'press');
    try {
      const bot = createBot({
        flows: [echoFlow],
        api: { client: fakeClient() },
        store: new MemoryStore({ clock: new ManualClock(START) }),
        callbacks: { secret: 'cb_secret' },
        tickMs: 0,
      });
      await bot.start();
      const unsigned = await bot.handleCallback({ body: Buffer.from('{}'), headers: {} });
      expect(unsigned.status).toBe(401);
      await bot.handleCallback({ body: Buffer.from('{}'), headers: {} });
      expect(press).toHaveBeenCalledTimes(2);
      await bot.stop();
    } finally {
      press.mockRestore();
    }
  });
});
