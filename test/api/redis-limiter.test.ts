import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { BudgetRule } from '../../src/api/limiter.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import { RedisLimiter } from '../../src/api/redis-limiter.js';
import { connectTestRedis, deleteByPrefix } from '../store/redis-test-helpers.js';

const root = `sbtest:${randomUUID()}:`;
const T0 = Date.parse('2026-01-01T00:00:00Z');
/** Extra connections, so the "workers" really run concurrently. */
const clients: Redis[] = [];
let redis: Redis;
/** False when beforeAll could not connect (the tests fail then; nothing to clean). */
let connected = false;

async function connect(): Promise<Redis> {
  const client = await connectTestRedis();
  clients.push(client);
  return client;
}

beforeAll(async () => {
  redis = await connect();
  connected = true;
});

afterAll(async () => {
  if (connected) await deleteByPrefix(redis, root);
  await Promise.all(clients.map((c) => c.quit()));
});

describe('RedisLimiter', () => {
  let prefix: string;
  let clock: ManualClock;
  let limiter: RedisLimiter;
  beforeEach(() => {
    prefix = `${root}${randomUUID()}:`;
    clock = new ManualClock(T0);
    limiter = new RedisLimiter({ redis, prefix, clock });
  });

  const rule = (key: string, limit: number, windowMs: number): BudgetRule => ({
    key,
    limit,
    windowMs,
  });

  it('should consume from no rule when one rule is at its limit', async () => {
    const a = rule('a', 2, 1000);
    const b = rule('b', 3, 1000);
    expect(await limiter.take([a, b], T0)).toEqual({ ok: true });
    expect(await limiter.take([a, b], T0 + 10)).toEqual({ ok: true });
    expect(await limiter.take([a, b], T0 + 20)).toEqual({ ok: false, retryAfterMs: 980 });
    expect(await limiter.take([a, b], T0 + 30)).toEqual({ ok: false, retryAfterMs: 970 });
    // b holds 2 takes, not 4: exactly one more fits.
    expect(await limiter.take([b], T0 + 40)).toEqual({ ok: true });
    expect(await limiter.take([b], T0 + 50)).toEqual({ ok: false, retryAfterMs: 950 });
  });

  it('should slide the window and say exactly how long to wait', async () => {
    const r = rule('send:key:k1:1s', 3, 1000);
    for (const t of [0, 100, 200]) expect(await limiter.take([r], T0 + t)).toEqual({ ok: true });
    expect(await limiter.take([r], T0 + 500)).toEqual({ ok: false, retryAfterMs: 500 });
    expect(await limiter.take([r], T0 + 999)).toEqual({ ok: false, retryAfterMs: 1 });
    expect(await limiter.take([r], T0 + 1000)).toEqual({ ok: true });
    expect(await limiter.take([r], T0 + 1000)).toEqual({ ok: false, retryAfterMs: 100 });
    expect(await limiter.take([r], T0 + 1100)).toEqual({ ok: true });
  });

  it('should wait for the slowest rule', async () => {
    const burst = rule('burst', 1, 1000);
    const sustained = rule('sustained', 2, 60_000);
    expect(await limiter.take([burst, sustained], T0)).toEqual({ ok: true });
    expect(await limiter.take([burst, sustained], T0 + 1000)).toEqual({ ok: true });
    expect(await limiter.take([burst, sustained], T0 + 2000)).toEqual({
      ok: false,
      retryAfterMs: 58_000,
    });
  });

  it('should make a block visible to another worker, never shortened', async () => {
    const other = new RedisLimiter({ redis: await connect(), prefix, clock });
    const r = rule('send:workspace:w1:60s', 100, 60_000);
    await limiter.block([r.key], T0 + 5000);
    await limiter.block([r.key], T0 + 1000);
    expect(await other.take([r], T0 + 1000)).toEqual({ ok: false, retryAfterMs: 4000 });
    expect(await other.take([rule('unblocked', 1, 1000)], T0)).toEqual({ ok: true });
    expect(await other.take([r], T0 + 5000)).toEqual({ ok: true });
  });

  it('should limit concurrent slots and free them on release or holder expiry', async () => {
    const other = new RedisLimiter({ redis, prefix, clock });
    const s1 = await limiter.acquireSlot('media:k1', 2, 10_000);
    const s2 = await other.acquireSlot('media:k1', 2, 10_000);
    expect(s1).toBeDefined();
    expect(s2).toBeDefined();
    expect(await limiter.acquireSlot('media:k1', 2, 10_000)).toBeUndefined();
    expect(await limiter.acquireSlot('media:k2', 2, 10_000)).toBeDefined();
    await s1!.release();
    const s3 = await other.acquireSlot('media:k1', 2, 10_000);
    expect(s3).toBeDefined();
    expect(await limiter.acquireSlot('media:k1', 2, 10_000)).toBeUndefined();
    clock.advance(10_000);
    // Both holders "died" without releasing.
    expect(await limiter.acquireSlot('media:k1', 2, 10_000)).toBeDefined();
    expect(await limiter.acquireSlot('media:k1', 2, 10_000)).toBeDefined();
    expect(await limiter.acquireSlot('media:k1', 2, 10_000)).toBeUndefined();
  });

  it('should never exceed a budget hammered by 4 workers at once', async () => {
    const workers = await Promise.all(
      [1, 2, 3, 4].map(async () => new RedisLimiter({ redis: await connect(), prefix, clock })),
    );
    const r = rule('send:number:n1:1s', 20, 1000);
    const ws = rule('send:workspace:w1:60s', 50, 60_000);
    const taken: number[] = [];
    // Synchronised clocks: each round every worker takes several times at once.
    for (let round = 0; round < 60; round++) {
      const now = T0 + round * 50;
      const results = await Promise.all(
        workers.flatMap((w) => [1, 2].map(() => w.take([r, ws], now))),
      );
      for (const result of results) if (result.ok) taken.push(now);
    }
    expect(taken).toHaveLength(50);
    taken.sort((x, y) => x - y);
    for (const t of taken) {
      expect(taken.filter((u) => u > t - 1000 && u <= t).length).toBeLessThanOrEqual(20);
    }
  });

  it('should agree with MemoryLimiter on a pseudo-random sequence', async () => {
    const memory = new MemoryLimiter({ clock });
    const rules = [rule('x', 3, 1000), rule('y', 5, 2500), rule('z', 2, 700)];
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    let now = T0;
    for (let i = 0; i < 200; i++) {
      now += next() % 300;
      const picked = rules.filter(() => next() % 2 === 0);
      if (next() % 25 === 0) {
        await memory.block([picked[0]?.key ?? 'x'], now + 400);
        await limiter.block([picked[0]?.key ?? 'x'], now + 400);
      }
      clock.set(now);
      expect(await limiter.take(picked, now)).toEqual(await memory.take(picked, now));
    }
  });
});
