import { defineBot } from '../../src/bot/index.js';
import { compileFlow, defineFlow, type RunnableFlow } from '../../src/flows/index.js';
import { createRedisClient } from '../../src/store/redis-connection.js';
import type { RedisClient } from '../../src/store/redis-script.js';

/**
 * The flow of the multi-process tests: every text is recorded by the `record` handler
 * and answered "got <text>"; "remind me" sets a 2 s durable timer that says
 * "reminder fired".
 */
export function scaleFlow(): RunnableFlow {
  return compileFlow(
    defineFlow({
      id: 'scale-test',
      version: 1,
      start: 'listen',
      triggers: [{ keywords: ['remind me'], goto: 'remindCall' }],
      // A handler error needs somewhere to go (validate refuses a call without one).
      onError: 'listen',
      states: {
        listen: { ask: { prompt: 'Say something.', var: 'text', goto: 'record' } },
        record: {
          call: { handler: 'record', input: { text: '{{text}}' }, outcomes: { ok: 'reply' } },
        },
        reply: { say: 'got {{text}}', goto: 'listen' },
        remindCall: {
          call: { handler: 'record', input: { text: 'remind me' }, outcomes: { ok: 'remind' } },
        },
        remind: {
          ask: { prompt: 'reminder set', var: 'text', goto: 'record' },
          timeout: { after: '2s', goto: 'reminded' },
        },
        reminded: { say: 'reminder fired', goto: 'listen' },
      },
    }),
  );
}

let redis: RedisClient | undefined;

/**
 * The bot `switchboard run test/scale/scale-bot.ts` runs in the multi-process tests.
 * The `record` handler appends `{ c, t, w }` (conversation, text, worker pid) to the
 * Redis list `<REDIS_PREFIX>test:runs`, on the worker's REDIS_URL (any of its forms).
 */
export const bot = defineBot({
  flows: [scaleFlow()],
  handlers: {
    record: async ({ input, conversationId }) => {
      const url = process.env['REDIS_URL'];
      if (url === undefined) throw new Error('REDIS_URL is not set');
      redis ??= createRedisClient(url, { autoPipelining: false });
      await redis.rpush(
        `${process.env['REDIS_PREFIX'] ?? 'switchboard:'}test:runs`,
        JSON.stringify({ c: conversationId, t: input['text'], w: String(process.pid) }),
      );
      return { outcome: 'ok' };
    },
  },
});
