import express from 'express';
import { Redis } from 'ioredis';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createBot } from '../../src/engine/create-bot.js';
import type { Bot } from '../../src/engine/types.js';
import { createSandbox, type Sandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { echoFlow } from '../engine/echo-machine.js';
import { receivedCallback } from '../engine/signed-callback.js';
import { startPrivateRedis, type PrivateRedis } from '../store/redis-server.js';
import { waitUntil } from '../wait-until.js';

const SECRET = 'whsec_outage';
const ADA = '+15557200001';

describe('callbacks during a real Redis outage', () => {
  let redisServer: PrivateRedis;
  let redis: Redis;
  let sandbox: Sandbox;
  let api: SandboxServer;
  let bot: Bot;
  let http: Server;
  let url: string;
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function start(): Promise<void> {
    redisServer = await startPrivateRedis();
    closers.push(() => redisServer.kill());
    // As `switchboard run` connects (run-worker.ts).
    redis = new Redis(redisServer.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 3,
      enableAutoPipelining: true,
    });
    redis.on('error', () => undefined);
    await redis.connect();
    closers.push(async () => redis.disconnect());
    sandbox = createSandbox();
    api = await sandbox.listen(0, '127.0.0.1');
    closers.push(
      () => sandbox.close(),
      () => api.close(),
    );
    bot = createBot({
      flows: [echoFlow],
      handlers: {},
      api: { baseUrl: api.url, apiKey: sandbox.config.keys[0]?.key ?? '' },
      store: new RedisStore({ redis, prefix: 'outage:' }),
      callbacks: { secret: SECRET }, // the default deadline: 1.5 s
      tickMs: 100,
    });
    await bot.start();
    closers.push(() => bot.stop());
    const app = express();
    app.use('/callbacks', bot.callbackRouter());
    http = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    closers.push(() => new Promise((resolve) => http.close(resolve)));
    const address = http.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/callbacks`;
    // One request first: the time measured below is the callback's, not the client's start.
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(401);
  }

  async function post(request: { body: Buffer; headers: Record<string, string> }) {
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', body: request.body, headers: request.headers });
    return { res, tookMs: performance.now() - started, body: (await res.json()) as unknown };
  }

  const replies = (): number => sandbox.control.sent().filter((s) => s.to === ADA).length;

  it('should answer 503 + Retry-After in time while Redis is paused, and apply the message once', async () => {
    await start();
    const message = sandbox.control.injectInbound({ from: ADA, type: 'text', text: 'hello' });
    const request = receivedCallback(sandbox, message, SECRET, Date.now());
    const admin = new Redis(redisServer.url);
    closers.push(() => admin.quit());
    // Redis holds every command for 3 s: it does not answer, nor fail.
    await admin.call('CLIENT', 'PAUSE', '3000', 'ALL');
    const during = await post(request);
    console.log(
      `paused Redis: callback answered ${during.res.status} in ${during.tookMs.toFixed(0)} ms`,
    );
    expect(during.res.status).toBe(503);
    expect(during.res.headers.get('retry-after')).toBe('5');
    expect(during.body).toMatchObject({ code: 'unavailable', retryAfterSeconds: 5 });
    expect(during.tookMs).toBeLessThan(2_000);
    // The pause ends: the held write lands (once), and the sender's redelivery is a duplicate.
    expect(await waitUntil(() => replies() === 1, 15_000)).toBe(true);
    const again = await post(request);
    expect(again.res.status).toBe(200);
    await bot.idle();
    expect(
      sandbox.control
        .sent()
        .filter((s) => s.to === ADA)
        .map((s) => s.request),
    ).toEqual([expect.objectContaining({ text: { body: 'echo: hello' } })]);
  });

  it('should answer 503 + Retry-After in time while Redis is down, and apply the redelivery once', async () => {
    await start();
    const message = sandbox.control.injectInbound({ from: ADA, type: 'text', text: 'hello' });
    const request = receivedCallback(sandbox, message, SECRET, Date.now());
    await redisServer.kill();
    const answers = [await post(request), await post(request), await post(request)];
    console.log(
      `Redis down: callbacks answered in ${answers.map((a) => a.tookMs.toFixed(0)).join(', ')} ms`,
    );
    for (const answer of answers) {
      expect(answer.res.status).toBe(503);
      expect(answer.res.headers.get('retry-after')).toBe('5');
      expect(answer.tookMs).toBeLessThan(2_000);
    }
    await redisServer.restart();
    expect(await waitUntil(() => bot.probeStore(), 15_000)).toBe(true);
    const again = await post(request);
    expect(again.res.status).toBe(200);
    expect(await waitUntil(() => replies() === 1, 15_000)).toBe(true);
    // Once more from the sender: still one reply.
    expect((await post(request)).res.status).toBe(200);
    await bot.idle();
    expect(replies()).toBe(1);
  });
});
