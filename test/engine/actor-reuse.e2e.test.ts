import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import type { EngineClient, IngestEvent } from '../../src/engine/types.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';

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

function recordingClient(): EngineClient & { texts: string[] } {
  const texts: string[] = [];
  return {
    texts,
    send(request) {
      texts.push(request.type === 'text' ? request.text.body : request.type);
      return Promise.resolve({ status: 'accepted', messageId: `wamid_${texts.length}` });
    },
    listConversations: () => Promise.resolve({ items: [], nextCursor: null }),
    listMessages: () => Promise.resolve({ items: [], nextCursor: null }),
    getMessage: () => Promise.reject(new Error('not in this fake')),
  };
}

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
    const client = recordingClient();
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
    expect(client.texts).toEqual(['A', 'B first', 'A', 'B third', 'A']);
    expect((await one.inspect('c1'))?.vars).toEqual({ x: 'third', y: 'fourth' });
    await one.stop();
    await two.stop();
  });

  it('should behave the same with the actor cache off', async () => {
    const clock = new ManualClock(START);
    const client = recordingClient();
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
    expect(client.texts).toEqual(['A', 'B first', 'A', 'B third']);
    await bot.stop();
  });
});
