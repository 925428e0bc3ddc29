import { describe, expect, it } from 'vitest';
import { createBot } from '../../src/engine/create-bot.js';
import { InboxSweep } from '../../src/engine/inbox-sweep.js';
import type { IngestEvent } from '../../src/engine/types.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { toInboxItem } from '../../src/ingest/normalize.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { acceptingClient } from './accepting-client.js';
import { ConversationScheduler } from '../../src/engine/scheduler.js';
import { silentLogger } from '../../src/log/logger.js';

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

describe('periodic sweep', () => {
  it('should pick up an item another process left in the store, within two ticks', async () => {
    const flow = compileFlow(
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
    const client = acceptingClient();
    const { sent } = client;
    const store = new MemoryStore();
    const bot = createBot({ flows: [flow], api: { client }, store, tickMs: 25 });
    await bot.start();
    const event: IngestEvent = {
      kind: 'inbound',
      contact: { phone: '+15551230001', id: 'ct1', name: 'Ada' },
      message: {
        id: 'm1',
        conversationId: 'c1',
        type: 'text',
        text: 'hi',
        occurredAt: new Date().toISOString(),
      },
    };
    // Written by another process: this bot was not told.
    expect(await store.enqueue('c1', toInboxItem(event), 86_400_000)).toBe(true);
    const until = Date.now() + 2_000;
    while (sent.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(sent).toHaveLength(1);
    await bot.stop();
  });
});
