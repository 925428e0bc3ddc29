/**
 * One worker process of the multi-process tests, wired like `switchboard run` with
 * REDIS_URL (RedisStore + RedisLimiter, callbacks on an express port) plus the
 * {@link PollLeader}, so exactly one worker polls. Env: MESSAGING_API_BASE_URL,
 * MESSAGING_API_KEY, CALLBACK_SECRET, REDIS_URL, REDIS_PREFIX, POLL_MS.
 * Prints `{"url","worker"}` once listening. The `record` handler appends
 * `{ c, t, w }` to the Redis list `<prefix>test:runs`.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { MessagingClient } from '../../src/api/client.js';
import { RedisLimiter } from '../../src/api/redis-limiter.js';
import { createBot } from '../../src/engine/create-bot.js';
import { workerId } from '../../src/engine/worker-id.js';
import { PollLeader } from '../../src/ingest/poll-leader.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { scaleFlow } from './scale-bot.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const prefix = env('REDIS_PREFIX');
const redis = new Redis(env('REDIS_URL'));
const worker = workerId();
const store = new RedisStore({ redis, prefix });
const client = new MessagingClient({
  baseUrl: env('MESSAGING_API_BASE_URL'),
  apiKey: env('MESSAGING_API_KEY'),
  limiter: new RedisLimiter({ redis, prefix }),
});
const bot = createBot({
  flows: [scaleFlow()],
  api: { client },
  store,
  callbacks: { secret: env('CALLBACK_SECRET') },
  handlers: {
    record: async ({ input, conversationId }) => {
      await redis.rpush(
        `${prefix}test:runs`,
        JSON.stringify({ c: conversationId, t: input['text'], w: worker }),
      );
      return { outcome: 'ok' };
    },
  },
  tickMs: 250,
});
await bot.start();
const pollMs = Number(process.env['POLL_MS'] ?? '500');
const leader = new PollLeader({
  store,
  bot,
  owner: worker,
  leaseMs: 3_000,
  polling: { minIntervalMs: pollMs, maxIntervalMs: pollMs },
});
await leader.start();
const app = express();
app.use('/callbacks', bot.callbackRouter());
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, worker })}\n`);
});
process.once('SIGTERM', () => {
  void (async () => {
    server.close();
    await leader.stop();
    await bot.stop();
    await redis.quit();
    process.exit(0);
  })();
});
