import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { ConversationProcessor } from '../../src/engine/conversation-processor.js';
import { createDrain, HEARTBEAT_MS, LEASE_MS } from '../../src/engine/drain.js';
import type { EngineDeps } from '../../src/engine/engine-deps.js';
import { HistoryLine } from '../../src/engine/history-line.js';
import type { HandlerResult } from '../../src/engine/types.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { silentLogger } from '../../src/log/logger.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { acceptingClient } from './accepting-client.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');
const CONV = 'c1';
const LEASE = `conv:${CONV}`;

/** A flow whose first state calls the `slow` handler. */
const slowFlow = compileFlow(
  defineFlow({
    id: 'slow',
    version: 1,
    start: 'work',
    states: {
      work: {
        call: { handler: 'slow', outcomes: { ok: 'done' }, onError: 'done', timeout: '10m' },
      },
      done: { say: 'Done.', final: true },
    },
  }),
);

const client = acceptingClient();

/** Calls the `slow` handler twice in a row: the second call is another inbox item. */
const twiceSlowFlow = compileFlow(
  defineFlow({
    id: 'twice-slow',
    version: 1,
    start: 'work',
    states: {
      work: {
        call: { handler: 'slow', outcomes: { ok: 'again' }, onError: 'done', timeout: '10m' },
      },
      again: {
        call: { handler: 'slow', outcomes: { ok: 'done' }, onError: 'done', timeout: '10m' },
      },
      done: { say: 'Done.', final: true },
    },
  }),
);

/**
 * A drain over a memory store whose `slow` handler waits until the test releases it;
 * `handlerStarted` resolves at its first call, `nextStart()` at the following one.
 */
function setup(flow = slowFlow) {
  const clock = new ManualClock(START);
  const store = new MemoryStore({ clock });
  let release: (result: HandlerResult) => void = () => undefined;
  let started: () => void = () => undefined;
  const handlerStarted = new Promise<void>((resolve) => (started = resolve));
  const nextStart = (): Promise<void> => new Promise<void>((resolve) => (started = resolve));
  const errors: unknown[] = [];
  const deps: EngineDeps = {
    client,
    store,
    clock,
    logger: silentLogger,
    flows: new Map([[flow.id, flow]]),
    entry: flow,
    handlers: {
      slow: () =>
        new Promise<HandlerResult>((resolve) => {
          release = resolve;
          started();
        }),
    },
    handlerTimeoutMs: 600_000,
    dedupTtlMs: 86_400_000,
    history: new HistoryLine({ store, client, logger: silentLogger, backfillMs: 0 }),
    reconcileAttempts: 3,
    absenceProofMs: 15_000,
    resendAfterAbsence: false,
    reconcileDelaysMs: [0],
    sendRetries: 0,
    sleep: () => Promise.resolve(),
    stopSignal: new AbortController().signal,
    emit: (event, payload) => {
      if (event === 'error') errors.push(payload);
    },
    enqueue: (conversationId, item) => store.enqueue(conversationId, item, 86_400_000),
  };
  const drain = createDrain(deps, new ConversationProcessor(deps), 'owner-a');
  const enqueueInbound = () =>
    deps.enqueue(CONV, {
      id: 'msg:m1',
      sortKey: START,
      payload: {
        kind: 'inbound',
        contact: { phone: '+15551230001', id: 'ct1', name: 'Ada' },
        message: {
          id: 'm1',
          conversationId: CONV,
          type: 'text',
          text: 'hi',
          occurredAt: new Date(START).toISOString(),
        },
      },
    });
  return {
    clock,
    store,
    drain,
    errors,
    enqueueInbound,
    handlerStarted,
    nextStart,
    release: (result: HandlerResult) => release(result),
  };
}

describe('createDrain lease heartbeat', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('should keep the lease while a long handler runs so another owner cannot take it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const t = setup();
    await t.enqueueInbound();
    const draining = t.drain(CONV);
    await t.handlerStarted;
    // Two heartbeats, each renewing the lease at the clock's current time.
    t.clock.advance(HEARTBEAT_MS);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    t.clock.advance(HEARTBEAT_MS);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    // Past the first lease's expiry: without the heartbeat it would be free now.
    t.clock.advance(LEASE_MS - 2 * HEARTBEAT_MS + 1_000);
    expect(await t.store.acquireLease(LEASE, 'owner-b', LEASE_MS, t.clock.now())).toBeUndefined();
    t.release({ outcome: 'ok' });
    await draining;
    expect(t.errors).toEqual([]);
    // The continuation (handler.done) was processed under the same lease: the flow ended.
    const stored = await t.store.getConversation(CONV);
    expect(stored?.value).toMatchObject({ state: 'done', ended: true });
    expect(await t.store.peekInbox(CONV, 10)).toEqual([]);
  });

  it('should keep renewing the lease for the next item after an ack that left items', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const t = setup(twiceSlowFlow);
    await t.enqueueInbound();
    const draining = t.drain(CONV);
    await t.handlerStarted;
    // The first call returns: its continuation is the next item (the ack leaves one).
    const second = t.nextStart();
    t.release({ outcome: 'ok' });
    await second;
    // The second call runs long: the heartbeat, restarted after that ack, renews.
    for (let beat = 0; beat < 4; beat++) {
      t.clock.advance(HEARTBEAT_MS);
      vi.advanceTimersByTime(HEARTBEAT_MS);
      await Promise.resolve();
    }
    expect(await t.store.acquireLease(LEASE, 'owner-b', LEASE_MS, t.clock.now())).toBeUndefined();
    t.release({ outcome: 'ok' });
    await draining;
    expect(t.errors).toEqual([]);
    expect((await t.store.getConversation(CONV))?.value).toMatchObject({ state: 'done' });
    // Released with the last ack: another owner takes it at once.
    expect(await t.store.acquireLease(LEASE, 'owner-b', LEASE_MS, t.clock.now())).toBeDefined();
  });

  it('should stop without writing once another owner took the lease (fenced)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const t = setup();
    await t.enqueueInbound();
    const draining = t.drain(CONV);
    await t.handlerStarted;
    const before = await t.store.getConversation(CONV);
    // No heartbeat fires (the process was paused): the lease expires and owner-b takes it.
    t.clock.advance(LEASE_MS + 1);
    const taken = await t.store.acquireLease(LEASE, 'owner-b', LEASE_MS, t.clock.now());
    expect(taken).toBeDefined();
    t.release({ outcome: 'ok' });
    await draining;
    const after = await t.store.getConversation(CONV);
    expect(after?.version).toBe(before?.version);
    expect(after?.value).toEqual(before?.value);
    // The item is not acknowledged: owner-b will process it again.
    expect((await t.store.peekInbox(CONV, 10)).map((i) => i.id)).toContain('msg:m1');
    // owner-b still holds the lease (owner-a did not release it on its way out).
    expect(await t.store.acquireLease(LEASE, 'owner-c', LEASE_MS, t.clock.now())).toBeUndefined();
  });
});
