import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import type { BudgetRule, Ticket } from '../../src/api/limiter.js';

const T0 = 1_000_000;
const burst: BudgetRule = { key: 'r:1s', limit: 3, windowMs: 1_000 };
const other: BudgetRule = { key: 'r:other', limit: 1, windowMs: 10_000 };
const single: BudgetRule = { key: 'r:single', limit: 1, windowMs: 1_000 };

/** A take whose request completes at once: the entry settles at `now`. */
async function takeDone(
  limiter: MemoryLimiter,
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
  limiter: MemoryLimiter,
  rules: readonly BudgetRule[],
  now: number,
  inFlightMs?: number,
): Promise<Ticket> {
  const r = await limiter.take(rules, now, inFlightMs === undefined ? {} : { inFlightMs });
  if (!r.ok) throw new Error(`take refused: ${r.retryAfterMs} ms`);
  return r.ticket;
}

describe('MemoryLimiter', () => {
  it('should allow exactly `limit` takes inside a window and name the wait for the next', async () => {
    const limiter = new MemoryLimiter({ clock: new ManualClock(T0) });
    for (let i = 0; i < 3; i++)
      expect(await takeDone(limiter, [burst], T0 + i * 100)).toEqual({ ok: true });
    expect(await takeDone(limiter, [burst], T0 + 300)).toEqual({ ok: false, retryAfterMs: 700 });
    // The first take leaves the window at T0 + 1000 exactly (half-open window).
    expect(await takeDone(limiter, [burst], T0 + 999)).toEqual({ ok: false, retryAfterMs: 1 });
    expect(await takeDone(limiter, [burst], T0 + 1_000)).toEqual({ ok: true });
    expect(limiter.count(burst, T0 + 1_000)).toBe(3);
  });

  it('should hand out distinct tickets', async () => {
    const limiter = new MemoryLimiter();
    const a = await takeTicket(limiter, [burst], T0);
    const b = await takeTicket(limiter, [burst], T0);
    expect(a).not.toBe(b);
  });

  it('should count an in-flight entry until it completes, then for a full window', async () => {
    const limiter = new MemoryLimiter();
    const ticket = await takeTicket(limiter, [single], T0);
    // Long after the take, the unit is still in flight: the least possible wait is a window.
    expect(await limiter.take([single], T0 + 5_000)).toEqual({ ok: false, retryAfterMs: 1_000 });
    expect(limiter.count(single, T0 + 5_000)).toBe(1);
    await limiter.complete([single], ticket, T0 + 5_000);
    expect(await limiter.take([single], T0 + 5_400)).toEqual({ ok: false, retryAfterMs: 600 });
    expect(await limiter.take([single], T0 + 5_999)).toEqual({ ok: false, retryAfterMs: 1 });
    expect(await limiter.take([single], T0 + 6_000)).toMatchObject({ ok: true });
  });

  it('should name the exact wait when a completed entry holds the budget and others are in flight', async () => {
    const limiter = new MemoryLimiter();
    const two: BudgetRule = { key: 'r:two', limit: 2, windowMs: 1_000 };
    expect(await takeDone(limiter, [two], T0)).toEqual({ ok: true });
    await takeTicket(limiter, [two], T0 + 100);
    expect(await limiter.take([two], T0 + 200)).toEqual({ ok: false, retryAfterMs: 800 });
    // The completed entry has left; the in-flight one still counts.
    expect(await limiter.take([two], T0 + 1_000)).toMatchObject({ ok: true });
    expect(await limiter.take([two], T0 + 1_000)).toEqual({ ok: false, retryAfterMs: 1_000 });
  });

  it('should free a never-completed ticket a window after its in-flight bound', async () => {
    const limiter = new MemoryLimiter();
    await takeTicket(limiter, [single], T0, 10_000);
    expect(await limiter.take([single], T0 + 9_000)).toEqual({ ok: false, retryAfterMs: 1_000 });
    expect(await limiter.take([single], T0 + 10_999)).toEqual({ ok: false, retryAfterMs: 1 });
    expect(await limiter.take([single], T0 + 11_000)).toMatchObject({ ok: true });
  });

  it('should settle a ticket in every rule it was taken from, and ignore unknown tickets', async () => {
    const limiter = new MemoryLimiter();
    const ticket = await takeTicket(limiter, [single, other], T0);
    await limiter.complete([single, other], 'no-such-ticket', T0 + 100);
    expect(limiter.count(other, T0 + 20_000)).toBe(1);
    await limiter.complete([single, other], ticket, T0 + 100);
    expect(limiter.count(single, T0 + 1_100)).toBe(0);
    expect(limiter.count(other, T0 + 10_099)).toBe(1);
    expect(limiter.count(other, T0 + 10_100)).toBe(0);
  });

  it('should take from all rules or from none', async () => {
    const limiter = new MemoryLimiter();
    expect(await takeDone(limiter, [other], T0)).toEqual({ ok: true });
    const refused = await limiter.take([burst, other], T0 + 1);
    expect(refused).toEqual({ ok: false, retryAfterMs: 9_999 });
    // The refused take consumed nothing from the burst rule.
    expect(limiter.count(burst, T0 + 1)).toBe(0);
    // Nor does a take refused by an in-flight entry.
    await takeTicket(limiter, [single], T0 + 2);
    expect(await limiter.take([burst, single], T0 + 3)).toMatchObject({ ok: false });
    expect(limiter.count(burst, T0 + 3)).toBe(0);
  });

  it('should report the wait until every rule has room', async () => {
    const limiter = new MemoryLimiter();
    for (let i = 0; i < 3; i++) await takeDone(limiter, [burst], T0);
    await takeDone(limiter, [{ ...other, key: 'x' }], T0);
    const r = await limiter.take([burst, { ...other, key: 'x' }], T0 + 10);
    expect(r).toEqual({ ok: false, retryAfterMs: 9_990 });
  });

  it('should hold blocked keys until the block ends, never shortening it', async () => {
    const limiter = new MemoryLimiter();
    await limiter.block(['r:1s'], T0 + 5_000);
    await limiter.block(['r:1s'], T0 + 2_000);
    expect(await limiter.take([burst], T0)).toEqual({ ok: false, retryAfterMs: 5_000 });
    expect(await limiter.take([burst], T0 + 5_000)).toMatchObject({ ok: true });
  });

  it('should give at most `max` slots, free released ones, and expire dead holders by TTL', async () => {
    const clock = new ManualClock(T0);
    const limiter = new MemoryLimiter({ clock });
    const a = await limiter.acquireSlot('m', 2, 1_000);
    const b = await limiter.acquireSlot('m', 2, 1_000);
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    expect(await limiter.acquireSlot('m', 2, 1_000)).toBeUndefined();
    expect(await limiter.acquireSlot('other', 2, 1_000)).toBeDefined();
    await a!.release();
    await a!.release(); // idempotent: does not free b's slot
    const c = await limiter.acquireSlot('m', 2, 1_000);
    expect(c).toBeDefined();
    expect(await limiter.acquireSlot('m', 2, 1_000)).toBeUndefined();
    clock.advance(1_000);
    expect(await limiter.acquireSlot('m', 2, 1_000)).toBeDefined();
  });
});
