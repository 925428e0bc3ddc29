/**
 * A benchmark target, run as a child process so the load generator does not share its
 * event loop: `tsx bench/target-server.ts echo|bot-memory|bot-redis [redisPrefix]`.
 * Prints `{"url": ...}` on stdout once listening. `GET /__stats` answers
 * `{ events, sends }` (machine events fed, sends accepted by the stub API, which runs in
 * its own process like the real, remote API).
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import express from 'express';
import { Redis } from 'ioredis';
import { MessagingClient } from '../src/api/client.js';
import { createBot } from '../src/engine/create-bot.js';
import { RedisStore } from '../src/store/redis-store.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { benchFlow } from './bench-flow.js';
import { BENCH_SECRET } from './callback-body.js';
import { unlimitedLimiter } from './unlimited-limiter.js';

const [mode = 'echo', prefix = 'sb:bench:'] = process.argv.slice(2);
const app = express();
app.disable('x-powered-by');
let events = 0;
let sends = (): Promise<number> => Promise.resolve(0);

/** Starts the stub API in its own process (it exits when this one does). */
async function startRemoteStub(): Promise<{ url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/stub-api-server.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`stub API exited with ${String(code)}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const parsed: unknown = JSON.parse(line);
  if (typeof parsed !== 'object' || parsed === null || !('url' in parsed))
    throw new Error(`stub API printed ${line}`);
  return { url: String(parsed.url) };
}

if (mode === 'echo') {
  app.post('/echo', express.json(), (req, res) => {
    res.json(req.body);
  });
} else {
  const stub = await startRemoteStub();
  sends = async () => {
    const body: unknown = await (await fetch(`${stub.url}/__sends`)).json();
    return typeof body === 'object' && body !== null && 'sends' in body ? Number(body.sends) : 0;
  };
  const redis =
    mode === 'bot-redis'
      ? new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379')
      : undefined;
  const store = redis === undefined ? new MemoryStore() : new RedisStore({ redis, prefix });
  const client = new MessagingClient({
    baseUrl: stub.url,
    apiKey: 'sk_bench_0123456789',
    limiter: unlimitedLimiter,
  });
  const bot = createBot({
    flows: [benchFlow()],
    api: { client },
    store,
    callbacks: { secret: BENCH_SECRET },
    concurrency: 64,
  });
  bot.on('event', ({ event }) => {
    if (event.type === 'inbound.message') events++;
  });
  await bot.start();
  app.use('/callbacks', bot.callbackRouter());
}
app.get('/__stats', async (_req, res) => {
  res.json({ events, sends: await sends(), rss: process.memoryUsage().rss });
});
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
