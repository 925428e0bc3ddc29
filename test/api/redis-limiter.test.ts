import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { BudgetRule, Limiter, TakeResult, Ticket } from '../../src/api/limiter.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import { RedisLimiter } from '../../src/api/redis-limiter.js';
import type { RedisClient } from '../../src/store/redis-script.js';
import { connectTestRedis, deleteByPrefix, REDIS_TARGETS } from '../store/redis-test-helpers.js';
import { maxInWindow, simulate, takesIn } from './fair-share-sim.js';

const root = `sbtest:${randomUUID()}:`;
const T0 = Date.parse('2026-01-01T00:00:00Z');
/** A take whose request completes at once: the entry settles at `now`. */
async function takeDone(
  limiter: Limiter,
  rules: readonly BudgetRule[],
  now: number,
): Promise<{ ok: boolean; retryAfterMs?: number }> {
  const r = await limiter.take(rules, now);
  if (!r.ok) return r;
  await limiter.complete(rules, r.ticket, now);
  return { ok: true };
}

/** Takes, expecting success, and returns the ticket (left in flight). */
async function takeTicket(
  limiter: Limiter,
  rules: readonly BudgetRule[],
  now: number,
  inFlightMs?: number,
): Promise<Ticket> {
  const r = await limiter.take(rules, now, inFlightMs === undefined ? {} : { inFlightMs });
  if (!r.ok) throw new Error(`take refused: ${r.retryAfterMs} ms`);
  return r.ticket;
}

/** A result without its ticket, to compare two limiters. */
const shape = (r: TakeResult) => (r.ok ? { ok: true } : r);

for (const target of REDIS_TARGETS)
  describe(`RedisLimiter on ${target.name}`, () => {
    /** Extra connections, so the "workers" really run concurrently. */
    const clients: RedisClient[] = [];
    let redis: RedisClient;
    /** False when beforeAll could not connect (the tests fail then; nothing to clean). */
    let connected = false;

    async function connect(): Promise<RedisClient> {
      const client = await connectTestRedis(target.url);
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
      expect(await takeDone(limiter, [a, b], T0)).toEqual({ ok: true });
      expect(await takeDone(limiter, [a, b], T0 + 10)).toEqual({ ok: true });
      expect(await takeDone(limiter, [a, b], T0 + 20)).toEqual({ ok: false, retryAfterMs: 980 });
      expect(await takeDone(limiter, [a, b], T0 + 30)).toEqual({ ok: false, retryAfterMs: 970 });
      // b holds 2 takes, not 4: exactly one more fits.
      expect(await takeDone(limiter, [b], T0 + 40)).toEqual({ ok: true });
      expect(await takeDone(limiter, [b], T0 + 50)).toEqual({ ok: false, retryAfterMs: 950 });
    });

    it('should slide the window and say exactly how long to wait', async () => {
      const r = rule('send:key:k1:1s', 3, 1000);
      for (const t of [0, 100, 200])
        expect(await takeDone(limiter, [r], T0 + t)).toEqual({ ok: true });
      expect(await takeDone(limiter, [r], T0 + 500)).toEqual({ ok: false, retryAfterMs: 500 });
      expect(await takeDone(limiter, [r], T0 + 999)).toEqual({ ok: false, retryAfterMs: 1 });
      expect(await takeDone(limiter, [r], T0 + 1000)).toEqual({ ok: true });
      expect(await takeDone(limiter, [r], T0 + 1000)).toEqual({ ok: false, retryAfterMs: 100 });
      expect(await takeDone(limiter, [r], T0 + 1100)).toEqual({ ok: true });
    });

    it('should wait for the slowest rule', async () => {
      const burst = rule('burst', 1, 1000);
      const sustained = rule('sustained', 2, 60_000);
      expect(await takeDone(limiter, [burst, sustained], T0)).toEqual({ ok: true });
      expect(await takeDone(limiter, [burst, sustained], T0 + 1000)).toEqual({ ok: true });
      expect(await takeDone(limiter, [burst, sustained], T0 + 2000)).toEqual({
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
      expect(await takeDone(other, [rule('unblocked', 1, 1000)], T0)).toEqual({ ok: true });
      expect(await takeDone(other, [r], T0 + 5000)).toEqual({ ok: true });
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

    it('should count an in-flight entry for every worker until it completes, then a full window', async () => {
      const other = new RedisLimiter({ redis: await connect(), prefix, clock });
      const r = rule('send:number:n1:1s', 1, 1000);
      const ticket = await takeTicket(limiter, [r], T0);
      expect(await other.take([r], T0 + 5000)).toEqual({ ok: false, retryAfterMs: 1000 });
      await limiter.complete([r], ticket, T0 + 5000);
      expect(await other.take([r], T0 + 5400)).toEqual({ ok: false, retryAfterMs: 600 });
      expect(await other.take([r], T0 + 5999)).toEqual({ ok: false, retryAfterMs: 1 });
      expect(await other.take([r], T0 + 6000)).toMatchObject({ ok: true });
    });

    it('should free a never-completed ticket a window after its in-flight bound', async () => {
      const r = rule('crashed', 1, 1000);
      await takeTicket(limiter, [r], T0, 10_000);
      expect(await limiter.take([r], T0 + 9000)).toEqual({ ok: false, retryAfterMs: 1000 });
      expect(await limiter.take([r], T0 + 10_999)).toEqual({ ok: false, retryAfterMs: 1 });
      expect(await limiter.take([r], T0 + 11_000)).toMatchObject({ ok: true });
      // The key lives at least as long as the in-flight entry needs it.
      const ttl = await redis.pttl(`{${prefix}limiter}:log:crashed`);
      expect(ttl).toBeGreaterThan(10_000);
    });

    it('should take nothing when an in-flight entry fills one rule, and settle every rule', async () => {
      const a = rule('a', 1, 1000);
      const b = rule('b', 2, 60_000);
      const ticket = await takeTicket(limiter, [a, b], T0);
      expect(await limiter.take([a, b], T0 + 10)).toEqual({ ok: false, retryAfterMs: 1000 });
      // b holds one entry, not two.
      expect(await takeDone(limiter, [b], T0 + 20)).toEqual({ ok: true });
      expect(await limiter.take([b], T0 + 30)).toEqual({ ok: false, retryAfterMs: 59_990 });
      await limiter.complete([a, b], 'no-such-ticket', T0 + 100);
      expect(await limiter.take([a], T0 + 1100)).toEqual({ ok: false, retryAfterMs: 1000 });
      await limiter.complete([a, b], ticket, T0 + 100);
      expect(await limiter.take([a], T0 + 1099)).toEqual({ ok: false, retryAfterMs: 1 });
      expect(await limiter.take([a], T0 + 1100)).toMatchObject({ ok: true });
      // b's entry settled at T0 + 100 too: it leaves b's window exactly 60 s later.
      expect(await takeDone(limiter, [b], T0 + 60_020)).toEqual({ ok: true });
      expect(await limiter.take([b], T0 + 60_020)).toEqual({ ok: false, retryAfterMs: 80 });
    });

    it('should never exceed a budget hammered by 4 workers at once', async () => {
      const workers = await Promise.all(
        [1, 2, 3, 4].map(async () => new RedisLimiter({ redis: await connect(), prefix, clock })),
      );
      const r = rule('send:number:n1:1s', 20, 1000);
      const ws = rule('send:workspace:w1:60s', 50, 60_000);
      /** Take and completion time of every granted unit. */
      const granted: { taken: number; done: number }[] = [];
      // Synchronised clocks: each round every worker takes several times at once; a granted
      // request completes 0 to 3 rounds later (latency), some in the same round.
      for (let round = 0; round < 80; round++) {
        const now = T0 + round * 50;
        const results = await Promise.all(
          workers.flatMap((w, wi) =>
            [1, 2].map(async (k) => {
              const result = await w.take([r, ws], now);
              if (!result.ok) return;
              const done = now + ((round + wi + k) % 4) * 50;
              granted.push({ taken: now, done });
              await w.complete([r, ws], result.ticket, done);
            }),
          ),
        );
        expect(results).toHaveLength(8);
      }
      expect(granted).toHaveLength(50);
      // The server counts each request between its take and its completion: whatever the
      // arrival times, no 1 s window may hold more than 20, i.e. any 21 granted units span
      // a completed-to-taken gap of at least a window.
      const byTake = [...granted].sort((x, y) => x.taken - y.taken);
      for (let i = 20; i < byTake.length; i++) {
        const later = byTake[i]!;
        const before = byTake.slice(0, i).filter((g) => g.taken <= later.taken);
        const stillCounting = before.filter((g) => g.done > later.taken - 1000);
        expect(stillCounting.length).toBeLessThan(20);
      }
    });

    it('should agree with MemoryLimiter on a pseudo-random sequence with in-flight entries', async () => {
      const memory = new MemoryLimiter({ clock });
      const rules = [rule('x', 3, 1000), rule('y', 5, 2500), rule('z', 2, 700)];
      let seed = 42;
      const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
      /** Tickets taken by both limiters and not yet completed (never, for some). */
      const open: { rules: BudgetRule[]; redis: Ticket; memory: Ticket }[] = [];
      let now = T0;
      let granted = 0;
      for (let i = 0; i < 300; i++) {
        now += next() % 300;
        clock.set(now);
        if (open.length > 0 && next() % 3 === 0) {
          const [done] = open.splice(next() % open.length, 1);
          await limiter.complete(done!.rules, done!.redis, now);
          await memory.complete(done!.rules, done!.memory, now);
          continue;
        }
        const picked = rules.filter(() => next() % 2 === 0);
        if (next() % 25 === 0) {
          await memory.block([picked[0]?.key ?? 'x'], now + 400);
          await limiter.block([picked[0]?.key ?? 'x'], now + 400);
        }
        const inFlightMs = 1000 + (next() % 4000);
        const fromRedis = await limiter.take(picked, now, { inFlightMs });
        const fromMemory = await memory.take(picked, now, { inFlightMs });
        expect(shape(fromRedis)).toEqual(shape(fromMemory));
        // About one grant in six is never completed (a crashed worker).
        if (fromRedis.ok && fromMemory.ok && next() % 6 !== 0) {
          open.push({ rules: picked, redis: fromRedis.ticket, memory: fromMemory.ticket });
        }
        if (fromRedis.ok) granted++;
      }
      expect(granted).toBeGreaterThan(20);
    });

    it('should give three saturated numbers on two workers ≥ 95% of a shared budget and each ≥ its share', async () => {
      const prefix = `${root}${randomUUID()}:`;
      const clock = new ManualClock(T0);
      // Two workers: two connections, two limiters, one set of budgets.
      const workers = [
        new RedisLimiter({ redis, prefix, clock }),
        new RedisLimiter({ redis: await connect(), prefix, clock }),
      ];
      const rulesOf = (m: string): BudgetRule[] => [
        { key: `number:${m}`, limit: 40, windowMs: 3_000 },
        { key: 'workspace', limit: 60, windowMs: 3_000, share: m },
      ];
      // Members spread over the workers; ties favour `a` every time.
      const byMember = new Map([
        ['a', workers[0]!],
        ['b', workers[1]!],
        ['late', workers[0]!],
      ]);
      const of = (rules: readonly BudgetRule[]) => byMember.get(rules[1]!.share!)!;
      const routed: Limiter = {
        take: (rules, now, o) => of(rules).take(rules, now, o),
        complete: (rules, t, now) => of(rules).complete(rules, t, now),
        block: (keys, until) => workers[0]!.block(keys, until),
        acquireSlot: (key, max, ttl) => workers[0]!.acquireSlot(key, max, ttl),
      };
      const members = [{ id: 'a' }, { id: 'b' }, { id: 'late', startMs: 4_500 }];
      const result = await simulate(routed, rulesOf, members, T0, 12_000);
      expect(maxInWindow(result.all, 3_000)).toBeLessThanOrEqual(60);
      const from = T0 + 4_500 + 3_000;
      const counts = ['a', 'b', 'late'].map((m) => takesIn(result, m, from, from + 3_000));
      expect(counts.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(57);
      for (const n of counts) expect(n).toBeGreaterThanOrEqual(18);
    });
  });
