import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { countStoreOperations } from '../../src/store/counted-store.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { acceptingClient } from './accepting-client.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');
const flow = compileFlow(
  defineFlow({
    id: 'hello',
    version: 1,
    start: 'a',
    states: {
      a: { ask: { prompt: 'A', var: 'x', goto: 'b' } },
      b: { ask: { prompt: 'B', var: 'x', goto: 'a' } },
    },
  }),
);

describe('runDueTimers', () => {
  it('should claim nothing (no write) while the next timer is not due, then fire it once', async () => {
    const clock = new ManualClock(START);
    const inner = new MemoryStore({ clock });
    const { store, counts } = countStoreOperations(inner);
    const bot = createBot({ flows: [flow], api: { client: acceptingClient() }, store, clock });
    expect(await bot.runDueTimers()).toBe(0);
    await inner.scheduleTimer({
      id: 'c1:t',
      conversationId: 'c1',
      name: 't',
      dueAt: START + 60_000,
    });
    expect(await bot.runDueTimers()).toBe(0);
    expect(counts.get('claimDueTimers')).toBeUndefined();
    expect(counts.get('nextTimerDue')).toBe(2);
    clock.advance(60_000);
    expect(await bot.runDueTimers()).toBe(1);
    expect(counts.get('claimDueTimers')).toBe(1);
    expect(await bot.runDueTimers()).toBe(0);
    expect(counts.get('claimDueTimers')).toBe(1);
  });
});
