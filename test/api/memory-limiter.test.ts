import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import type { BudgetRule } from '../../src/api/limiter.js';

const T0 = 1_000_000;
const burst: BudgetRule = { key: 'r:1s', limit: 3, windowMs: 1_000 };
const other: BudgetRule = { key: 'r:other', limit: 1, windowMs: 10_000 };

describe('MemoryLimiter', () => {
  it('should allow exactly `limit` takes inside a window and name the wait for the next', async () => {
    const limiter = new MemoryLimiter({ clock: new ManualClock(T0) });
    for (let i = 0; i < 3; i++)
      expect(await limiter.take([burst], T0 + i * 100)).toEqual({ ok: true });
    expect(await limiter.take([burst], T0 + 300)).toEqual({ ok: false, retryAfterMs: 700 });
    // The first take leaves the window at T0 + 1000 exactly (half-open window).
    expect(await limiter.take([burst], T0 + 999)).toEqual({ ok: false, retryAfterMs: 1 });
    expect(await limiter.take([burst], T0 + 1_000)).toEqual({ ok: true });
    expect(limiter.count(burst, T0 + 1_000)).toBe(3);
  });

  it('should take from all rules or from none', async () => {
    const limiter = new MemoryLimiter();
    expect(await limiter.take([other], T0)).toEqual({ ok: true });
    const refused = await limiter.take([burst, other], T0 + 1);
    expect(refused).toEqual({ ok: false, retryAfterMs: 9_999 });
    // The refused take consumed nothing from the burst rule.
    expect(limiter.count(burst, T0 + 1)).toBe(0);
  });

  it('should report the wait until every rule has room', async () => {
    const limiter = new MemoryLimiter();
    for (let i = 0; i < 3; i++) await limiter.take([burst], T0);
    await limiter.take([{ ...other, key: 'x' }], T0);
    const r = await limiter.take([burst, { ...other, key: 'x' }], T0 + 10);
    expect(r).toEqual({ ok: false, retryAfterMs: 9_990 });
  });

  it('should hold blocked keys until the block ends, never shortening it', async () => {
    const limiter = new MemoryLimiter();
    await limiter.block(['r:1s'], T0 + 5_000);
    await limiter.block(['r:1s'], T0 + 2_000);
    expect(await limiter.take([burst], T0)).toEqual({ ok: false, retryAfterMs: 5_000 });
    expect(await limiter.take([burst], T0 + 5_000)).toEqual({ ok: true });
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
