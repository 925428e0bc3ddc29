import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { serveCounted, type CountedSandbox } from '../../bench/counted-sandbox.js';
import { REDIS_URL } from '../store/redis-test-helpers.js';
import {
  roundRobinProxy,
  spawnWorker,
  waitFor,
  type RoundRobinProxy,
  type WorkerProcess,
} from './cluster.js';

// Redis is required (CI makes sure it answers); REDIS_URL selects it.
const redisUrl = REDIS_URL;
const SECRET = 'scale-test-callback-secret';
const id = randomUUID();
const prefix = `sb:test:scale:${id}:`;

interface Run {
  readonly c: string;
  readonly t: string;
  readonly w: string;
}

describe('several workers on one Redis', () => {
  let redis: Redis;
  let sandbox: Sandbox;
  let served: CountedSandbox;
  let proxy: RoundRobinProxy;
  let workers: WorkerProcess[] = [];
  const alive = new Set<string>();

  const runs = async (): Promise<Run[]> =>
    (await redis.lrange(`${prefix}test:runs`, 0, -1)).map((line) => JSON.parse(line) as Run);
  const textsTo = (phone: string): string[] =>
    sandbox.control
      .sent()
      .filter((s) => s.to === phone)
      .map((s) => {
        const body: unknown = Reflect.get(Object(s.request['text']), 'body');
        return typeof body === 'string' ? body : '';
      });
  const phoneOf = (k: number): string => `+1555990${String(k).padStart(4, '0')}`;
  const inject = (k: number, text: string): void =>
    void sandbox.control.injectInbound({
      type: 'text',
      from: phoneOf(k),
      contactName: `Contact ${k}`,
      text,
    });
  const expectSent = async (k: number, text: string): Promise<void> => {
    const ok = await waitFor(() => textsTo(phoneOf(k)).includes(text), 30_000);
    if (!ok)
      throw new Error(
        `"${text}" was never sent to contact ${k}; sent: ${JSON.stringify(textsTo(phoneOf(k)))}`,
      );
  };
  /** Waits until handler runs and sends stop changing (every duplicate processed or dropped). */
  const settle = async (): Promise<void> => {
    await sandbox.control.callbacksIdle();
    let last = '';
    let stableSince = Date.now();
    await waitFor(async () => {
      const now = `${(await runs()).length}/${sandbox.control.sent().length}`;
      if (now !== last) {
        last = now;
        stableSince = Date.now();
      }
      return Date.now() - stableSince >= 1_500;
    }, 20_000);
  };

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    sandbox = createSandbox();
    served = await serveCounted(sandbox);
    proxy = await roundRobinProxy(() =>
      workers.filter((w) => alive.has(w.worker)).map((w) => w.url),
    );
    const env = {
      MESSAGING_API_BASE_URL: served.url,
      MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
      CALLBACK_SECRET: SECRET,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      POLL_MS: '500',
    };
    workers = await Promise.all([spawnWorker(env), spawnWorker(env), spawnWorker(env)]);
    for (const w of workers) alive.add(w.worker);
    sandbox.control.setCallback({
      url: `${proxy.url}/callbacks`,
      secret: SECRET,
      duplicateRate: 1,
      retryBaseMs: 200,
      maxAttempts: 12,
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill9()));
    await proxy?.close();
    await served?.close();
    await sandbox?.close();
    if (redis !== undefined) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `*${id}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
      redis.disconnect();
    }
  });

  const CONVERSATIONS = 30;
  const MESSAGES = 3;

  it('should run each handler and send each reply exactly once, in order, with 3 workers and every callback twice', async () => {
    await Promise.all(
      Array.from({ length: CONVERSATIONS }, async (_, k) => {
        inject(k, 'hello');
        await expectSent(k, 'Say something.');
        for (let m = 1; m <= MESSAGES; m++) {
          inject(k, `m${m} c${k}`);
          await expectSent(k, `got m${m} c${k}`);
        }
      }),
    );
    await settle();
    const all = await runs();
    for (let k = 0; k < CONVERSATIONS; k++) {
      const expected = Array.from({ length: MESSAGES }, (_, m) => `m${m + 1} c${k}`);
      const conversationRuns = all.filter((r) => r.t.endsWith(` c${k}`)).map((r) => r.t);
      expect(conversationRuns).toEqual(expected);
      expect(textsTo(phoneOf(k)).filter((t) => t.startsWith('got '))).toEqual(
        expected.map((t) => `got ${t}`),
      );
    }
    // Callbacks really were spread over the three workers, each delivered twice.
    for (const w of workers) expect(proxy.forwarded.get(w.url) ?? 0).toBeGreaterThan(0);
    const received = sandbox.control.callbackAttempts().length;
    expect(received).toBeGreaterThanOrEqual(2 * CONVERSATIONS * (MESSAGES + 1));
  }, 90_000);

  it('should lose no message and still fire a dead worker’s timers after kill -9', async () => {
    const REMIND = 9;
    const base = 100;
    await Promise.all(
      Array.from({ length: REMIND }, async (_, i) => {
        inject(base + i, 'hello');
        await expectSent(base + i, 'Say something.');
        inject(base + i, 'remind me');
        await expectSent(base + i, 'reminder set');
      }),
    );
    // The victim: the worker that ran the handler (and scheduled the timer) most often.
    const reminders = (await runs()).filter((r) => r.t === 'remind me');
    const counts = new Map<string, number>();
    for (const r of reminders) counts.set(r.w, (counts.get(r.w) ?? 0) + 1);
    const victimId = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    const victim = workers.find((w) => w.worker === victimId)!;
    alive.delete(victim.worker);
    await victim.kill9();

    // New messages in every conversation of the first test, delivered twice, while a worker is gone.
    await Promise.all(
      Array.from({ length: CONVERSATIONS }, async (_, k) => {
        inject(k, `after c${k}`);
        await expectSent(k, `got after c${k}`);
      }),
    );
    // Timers scheduled by the dead worker fire on the survivors.
    await Promise.all(
      Array.from({ length: REMIND }, (_, i) => expectSent(base + i, 'reminder fired')),
    );
    await settle();
    const all = await runs();
    const texts = all.map((r) => r.t).filter((t) => t !== 'remind me');
    expect(new Set(texts).size).toBe(texts.length);
    expect(reminders.filter((r) => r.w === victimId).length).toBeGreaterThan(0);
    for (let i = 0; i < REMIND; i++) {
      expect(textsTo(phoneOf(base + i)).filter((t) => t === 'reminder fired')).toHaveLength(1);
    }
  }, 90_000);

  it('should never exceed the rate budgets (no 429 from the sandbox during the runs above)', () => {
    // Runs after the two scenarios: every send and read they made went through the shared RedisLimiter.
    const sends = sandbox.control.sent().length;
    expect(sends).toBeGreaterThan(0);
    expect({ count: served.limited.length, first: served.limited.slice(0, 3) }).toEqual({
      count: 0,
      first: [],
    });
  });
});
