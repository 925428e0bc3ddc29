import { describe, expect, it } from 'vitest';
import { signCallback } from '../../src/api/callbacks.js';
import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { countStoreOperations } from '../../src/store/counted-store.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { acceptingClient } from './accepting-client.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');
const SECRET = 'status-callback-secret';
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

/** A signed `message.status` (or `message.failed`) callback for message `wamid_1`. */
function statusCallback(status: string, n: number) {
  const body = JSON.stringify({
    id: `evt_${n}`,
    type: status === 'failed' ? 'message.failed' : 'message.status',
    occurredAt: new Date(START).toISOString(),
    data: {
      messageId: 'wamid_1',
      conversationId: 'c1',
      status,
      ...(status === 'failed' ? { failureCode: 'undeliverable' } : {}),
    },
  });
  const ts = Math.floor(START / 1000);
  return {
    body: Buffer.from(body),
    headers: {
      'x-callback-timestamp': String(ts),
      'x-callback-signature': signCallback(SECRET, ts, body),
    },
  };
}

function setup() {
  const clock = new ManualClock(START);
  const { store, counts } = countStoreOperations(new MemoryStore({ clock }));
  const bot = createBot({
    flows: [flow],
    api: { client: acceptingClient() },
    store,
    clock,
    callbacks: { secret: SECRET },
  });
  return { bot, counts };
}

describe('status callbacks', () => {
  it('should acknowledge sent, delivered and read without any store operation', async () => {
    const { bot, counts } = setup();
    for (const [n, status] of ['sent', 'delivered', 'read'].entries()) {
      const answer = await bot.handleCallback(statusCallback(status, n));
      expect(answer.status).toBe(200);
    }
    expect(Object.fromEntries(counts)).toEqual({});
  });

  it('should still record a failed status in the conversation inbox', async () => {
    const { bot, counts } = setup();
    const answer = await bot.handleCallback(statusCallback('failed', 1));
    expect(answer.status).toBe(200);
    expect(counts.get('enqueue')).toBe(1);
  });

  it('should refuse a badly signed status callback before dropping it', async () => {
    const { bot } = setup();
    const request = statusCallback('read', 1);
    const answer = await bot.handleCallback({
      ...request,
      headers: { ...request.headers, 'x-callback-signature': 'v1=00' },
    });
    expect(answer.status).toBe(401);
  });

  it('should take a no-op status through handle() without any store operation', async () => {
    const { bot, counts } = setup();
    const result = await bot.handle({
      kind: 'status',
      conversationId: 'c1',
      messageId: 'wamid_1',
      status: 'delivered',
      occurredAt: new Date(START).toISOString(),
    });
    expect(result.status).toBe('accepted');
    expect(Object.fromEntries(counts)).toEqual({});
  });
});
