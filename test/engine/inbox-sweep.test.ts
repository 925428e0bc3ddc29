import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import { INBOX_CLAIM_MS, InboxSweep } from '../../src/engine/inbox-sweep.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { toInboxItem } from '../../src/ingest/normalize.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { acceptingClient } from './accepting-client.js';
import { ConversationScheduler } from '../../src/engine/scheduler.js';
import { SWEEP_LOOK_MS } from '../../src/engine/sweep-pace.js';
import { silentLogger } from '../../src/log/logger.js';
import type { Store } from '../../src/store/store.js';
import { waitUntil } from '../wait-until.js';
import { faultyStore } from './faulty-store.js';
import { inboundHi } from './inbound-event.js';

describe('InboxSweep', () => {
  it('should wake every waiting inbox at a full sweep', () => {
    expect(new InboxSweep().pick(['c1', 'c2'], true)).toEqual(['c1', 'c2']);
  });

  it('should wake on a periodic sweep only what was waiting at the previous one too', () => {
    const sweep = new InboxSweep();
    expect(sweep.pick(['c1', 'c2'], false)).toEqual([]);
    expect(sweep.pick(['c2', 'c3'], false)).toEqual(['c2']);
    expect(sweep.pick(['c3'], false)).toEqual(['c3']);
    // Drained in between: gone from the list, then back: first sight again.
    expect(sweep.pick([], false)).toEqual([]);
    expect(sweep.pick(['c3'], false)).toEqual([]);
    expect(sweep.pick(['c3', 'c4'], true)).toEqual(['c3', 'c4']);
    expect(sweep.pick(['c4'], false)).toEqual(['c4']);
  });
});

describe('ConversationScheduler.wake', () => {
  it('should not mark a running conversation to run again, unlike schedule', async () => {
    const runs: string[] = [];
    let finish: () => void = () => undefined;
    const scheduler = new ConversationScheduler(
      (id) => {
        runs.push(id);
        return runs.length === 1 ? new Promise<void>((r) => (finish = r)) : Promise.resolve();
      },
      4,
      silentLogger,
    );
    scheduler.schedule('c1');
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual(['c1']);
    scheduler.wake('c1');
    finish();
    await scheduler.idle();
    expect(runs).toEqual(['c1']);
    scheduler.wake('c1');
    await scheduler.idle();
    expect(runs).toEqual(['c1', 'c1']);
    // schedule while running: once more after the drain.
    let release: () => void = () => undefined;
    let count = 0;
    const counted = new ConversationScheduler(
      async () => {
        count++;
        if (count === 1) await new Promise<void>((r) => (release = r));
      },
      4,
      silentLogger,
    );
    counted.schedule('c1');
    await new Promise((r) => setImmediate(r));
    counted.schedule('c1');
    release();
    await counted.idle();
    expect(count).toBe(2);
  });
});

const flow = () =>
  compileFlow(
    defineFlow({
      id: 'hello',
      version: 1,
      start: 'a',
      states: {
        a: { ask: { prompt: 'A', var: 'x', goto: 'b' } },
        b: { say: 'bye', final: true },
      },
    }),
  );

const inbound = inboundHi;

/**
 * One worker's view of a shared store: counts its sweeps (inbox listings) and the
 * conversations it took; `hold` makes its lease-taking wait until released.
 */
function workerView(inner: Store): {
  store: Store;
  sweeps: () => number;
  taken: string[];
  hold: (conversationId: string) => () => void;
} {
  let sweeps = 0;
  const taken: string[] = [];
  const held = new Map<string, Promise<void>>();
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]): Promise<unknown> => {
        if (property === 'conversationsWithInbox' || property === 'unclaimedInboxes') sweeps++;
        if (property === 'acquireConversation') {
          const id = String(args[0]);
          await held.get(id);
          taken.push(id);
        }
        return method.apply(target, args);
      };
    },
  });
  return {
    store,
    sweeps: () => sweeps,
    taken,
    hold(conversationId) {
      let release: () => void = () => undefined;
      held.set(conversationId, new Promise<void>((resolve) => (release = resolve)));
      return () => release();
    },
  };
}

describe('periodic sweep', () => {
  it('should leave alone an inbox whose worker is slow to drain it, and take one whose worker died once its claim passed', async () => {
    const storeClock = new ManualClock();
    const shared = new MemoryStore({ clock: storeClock });
    const slow = workerView(shared);
    const other = workerView(shared);
    const slowClient = acceptingClient();
    const otherClient = acceptingClient();
    const sweeper = createBot({
      flows: [flow()],
      api: { client: otherClient },
      store: other.store,
      tickMs: 10,
      workerId: 'other',
    });
    const owner = createBot({
      flows: [flow()],
      api: { client: slowClient },
      store: slow.store,
      tickMs: 0,
      workerId: 'slow',
    });
    await sweeper.start();
    await owner.start();
    // The slow worker acks c1 and schedules it; its drain is held before the lease.
    const release = slow.hold('c1');
    expect(await owner.handle(inbound('c1', 'm1', '+15551230001'))).toEqual({ status: 'accepted' });
    // Three sweeps of the other worker: two in a row used to be enough to take c1.
    const since = other.sweeps();
    expect(await waitUntil(() => other.sweeps() >= since + 3, 10_000, 5)).toBe(true);
    expect(other.taken).toEqual([]);
    release();
    expect(await waitUntil(() => slowClient.sent.length === 1, 5_000, 5)).toBe(true);
    await owner.stop();

    // A worker that enqueued (with its claim) and died before its drain.
    expect(
      await shared.enqueue(
        'c2',
        toInboxItem(inbound('c2', 'm2', '+15551230002')),
        86_400_000,
        INBOX_CLAIM_MS,
      ),
    ).toBe(true);
    const before = other.sweeps();
    expect(await waitUntil(() => other.sweeps() >= before + 3, 10_000, 5)).toBe(true);
    expect(other.taken).toEqual([]);
    storeClock.advance(INBOX_CLAIM_MS);
    expect(await waitUntil(() => otherClient.sent.length === 1, 10_000, 5)).toBe(true);
    expect(other.taken).toEqual(['c2']);
    expect(slowClient.sent).toHaveLength(1);
    await sweeper.stop();
  }, 30_000);

  it('should retry at its next sweep, not after its claim, an item it left because the store did not answer', async () => {
    // The first document write (a new conversation's: it carries the contact's list) fails
    // as in an outage: the drain stops with the item kept.
    const faulty = faultyStore(new MemoryStore(), {
      operation: 'putConversationWith',
      nth: 1,
      when: 'before',
    });
    const client = acceptingClient();
    const bot = createBot({ flows: [flow()], api: { client }, store: faulty.store, tickMs: 20 });
    await bot.start();
    const started = Date.now();
    expect(await bot.handle(inbound('c1', 'm1', '+15551230001'))).toEqual({ status: 'accepted' });
    // Well within the claim (INBOX_CLAIM_MS), which keeps every sweep's listing away from it.
    expect(await waitUntil(() => client.sent.length === 1, INBOX_CLAIM_MS / 2, 5)).toBe(true);
    expect(faulty.tripped).toBe(true);
    expect(Date.now() - started).toBeLessThan(INBOX_CLAIM_MS);
    await bot.stop();
    expect(client.sent).toHaveLength(1);
  });

  it('should ask for the due timers and the inbox listing together (one round trip on Redis)', async () => {
    const inner = new MemoryStore();
    const events: string[] = [];
    let releaseTimers: () => void = () => undefined;
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]): Promise<unknown> => {
          if (property === 'nextTimerDue') {
            events.push('timers asked');
            // Answers only when released: a sweep that waited for it would list nothing.
            return new Promise((resolve) => (releaseTimers = () => resolve(undefined)));
          }
          if (property === 'conversationsWithInbox' || property === 'unclaimedInboxes')
            events.push('inboxes asked');
          return method.apply(target, args);
        };
      },
    });
    const bot = createBot({
      flows: [flow()],
      api: { client: acceptingClient() },
      store,
      tickMs: 0,
    });
    const started = bot.start();
    expect(await waitUntil(() => events.includes('inboxes asked'), 2_000, 5)).toBe(true);
    expect(events).toEqual(['timers asked', 'inboxes asked']);
    releaseTimers();
    await started;
    await bot.stop();
  });

  it('should pick up an item another process left in the store, within two sweeps', async () => {
    const client = acceptingClient();
    const { sent } = client;
    const store = new MemoryStore();
    const bot = createBot({ flows: [flow()], api: { client }, store, tickMs: 25 });
    await bot.start();
    const event = inbound('c1', 'm1', '+15551230001', 'ct1');
    // Written by another process: this bot was not told.
    expect(await store.enqueue('c1', toInboxItem(event), 86_400_000)).toBe(true);
    // Two sweeps of the store (a second apart, SWEEP_LOOK_MS), then the drain.
    await waitUntil(() => sent.length > 0, 2 * SWEEP_LOOK_MS + 2_000, 10);
    expect(sent).toHaveLength(1);
    await bot.stop();
  }, 15_000);
});
