import { describe, expect, it } from 'vitest';
import { SweepPace, notingTimers } from '../../src/engine/sweep-pace.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { createBot } from '../../src/engine/create-bot.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { acceptingClient } from './accepting-client.js';
import { StoreUnavailableError, guardStore } from '../../src/store/guarded-store.js';
import { silentLogger } from '../../src/log/logger.js';
import { waitUntil } from '../wait-until.js';
import { inboundHi } from './inbound-event.js';

describe('SweepPace', () => {
  it('should look once per period of wall-clock time while no known timer is due', () => {
    let wall = 0;
    const pace = new SweepPace(1_000, () => wall);
    expect(pace.shouldLook(0)).toBe(true);
    pace.looked(undefined);
    wall = 999;
    expect(pace.shouldLook(999)).toBe(false);
    wall = 1_000;
    expect(pace.shouldLook(1_000)).toBe(true);
  });

  it('should look on the tick at which the store’s earliest or a scheduled timer is due', () => {
    let wall = 0;
    const pace = new SweepPace(1_000, () => wall);
    pace.looked(500);
    expect(pace.shouldLook(499)).toBe(false);
    expect(pace.shouldLook(500)).toBe(true);
    pace.looked(5_000);
    wall = 10;
    pace.scheduled(300);
    pace.scheduled(700);
    expect(pace.shouldLook(299)).toBe(false);
    expect(pace.shouldLook(300)).toBe(true);
    // Fired: the next tick looks again, whatever the period.
    pace.fired();
    expect(pace.shouldLook(301)).toBe(true);
  });

  it('should tell the pace of every timer the store accepted, and of none it refused', async () => {
    let wall = 0;
    const pace = new SweepPace(1_000, () => wall);
    const inner = guardStore(new MemoryStore(), { logger: silentLogger });
    const noted = notingTimers(inner, pace);
    pace.looked(undefined);
    await noted.scheduleTimer({ id: 't1', conversationId: 'c1', name: 'remind', dueAt: 200 });
    expect(await inner.nextTimerDue()).toBe(200);
    expect(pace.shouldLook(200)).toBe(true);
    const refusing = guardStore(
      Object.assign(new MemoryStore(), {
        scheduleTimer: () => Promise.reject(new Error('down')),
      }),
      { logger: silentLogger },
    );
    const pace2 = new SweepPace(1_000, () => wall);
    pace2.looked(undefined);
    await expect(
      notingTimers(refusing, pace2).scheduleTimer({
        id: 't2',
        conversationId: 'c1',
        name: 'r',
        dueAt: 1,
      }),
    ).rejects.toThrow(StoreUnavailableError);
    expect(pace2.shouldLook(1)).toBe(false);
    // Everything else is the store's own.
    expect(await noted.peekInbox('c1', 1)).toEqual([]);
    wall = 0;
  });
});

describe('periodic sweep pace', () => {
  it('should ask the store about once a second on a fast tick, and fire its own timer on the tick it is due', async () => {
    const flow = compileFlow(
      defineFlow({
        id: 'nudge',
        version: 1,
        start: 'wait',
        states: {
          wait: {
            ask: { prompt: 'hello', var: 'x', goto: 'done' },
            timeout: { after: '300ms', goto: 'done' },
          },
          done: { say: 'nudged', final: true },
        },
      }),
    );
    const inner = new MemoryStore();
    let looks = 0;
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]): Promise<unknown> => {
          if (property === 'unclaimedInboxes') looks++;
          return method.apply(target, args);
        };
      },
    });
    const client = acceptingClient();
    const bot = createBot({ flows: [flow], api: { client }, store, tickMs: 10 });
    await bot.start();
    const started = Date.now();
    await bot.handle(inboundHi('c1', 'm1', '+15551230001', 'ct1'));
    // The flow's 300 ms timer fires on a 10 ms tick, not at the next once-a-second look.
    expect(await waitUntil(() => client.sent.length === 2, 5_000, 5)).toBe(true);
    expect(Date.now() - started).toBeLessThan(900);
    const lookedBefore = looks;
    const since = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const elapsed = Date.now() - since;
    // About one look a second (120 ticks in that time).
    expect(looks - lookedBefore).toBeLessThanOrEqual(Math.ceil(elapsed / 1_000) + 1);
    expect(looks - lookedBefore).toBeGreaterThanOrEqual(1);
    await bot.stop();
  });
});
