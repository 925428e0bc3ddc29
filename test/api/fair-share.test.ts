import { describe, expect, it } from 'vitest';
import { fairShareWait } from '../../src/api/fair-share.js';
import { sendBudgetRules } from '../../src/api/budgets.js';
import type { BudgetRule } from '../../src/api/limiter.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import { ManualClock } from '../../src/core/clock.js';
import { maxInWindow, simulate, takesIn } from './fair-share-sim.js';

const T0 = 1_000_000;
const MIN = 60_000;

/** The real send rules of a number of workspace `acme`, with the client's 200 ms margin. */
const sendRules = (member: string): BudgetRule[] =>
  sendBudgetRules({ keyId: `k_${member}`, numberId: member, workspaceId: 'acme' }, 200);

describe('fairShareWait', () => {
  const e = (member: string, at: number) => ({ member, at });
  it('should admit while the others keep their unused reservations', () => {
    // limit 6, three active members: share 2 each; a has 3, b 1, c 0 -> owed 1 + 2 = 3.
    const entries = [e('a', 1), e('a', 2), e('a', 3), e('b', 4)];
    const active = new Set(['a', 'b', 'c']);
    expect(fairShareWait(entries, active, 'a', 6, 100, 10)).toBe(91);
    expect(fairShareWait(entries, active, 'c', 6, 100, 10)).toBe(0);
  });

  it('should reserve nothing for a member that did not ask within the window', () => {
    const entries = [e('a', 1), e('a', 2), e('a', 3), e('a', 4), e('a', 5)];
    expect(fairShareWait(entries, new Set(['a']), 'a', 6, 100, 10)).toBe(0);
  });
});

describe('MemoryLimiter (fair share of the workspace budget)', () => {
  it('should give three saturated numbers 0 excess, ≥ 95% of 1,200/min and each ≥ its fair share', async () => {
    const limiter = new MemoryLimiter({ clock: new ManualClock(T0) });
    const members = ['a', 'b', 'c'].map((id) => ({ id, latencyMs: 40 }));
    const result = await simulate(limiter, sendRules, members, T0, 3 * MIN);
    // The server's exact 60 s window never sees more than 1,200 (0 × 429).
    expect(maxInWindow(result.all, MIN)).toBeLessThanOrEqual(1_200);
    for (let minute = 1; minute < 3; minute++) {
      const from = T0 + minute * MIN;
      const counts = ['a', 'b', 'c'].map((m) => takesIn(result, m, from, from + MIN));
      const total = counts.reduce((x, y) => x + y, 0);
      expect(total).toBeGreaterThanOrEqual(0.95 * 1_200);
      for (const n of counts) expect(n).toBeGreaterThanOrEqual((1_200 / 3) * 0.9);
    }
  });

  it('should bring a number that starts late to its share within one window', async () => {
    const limiter = new MemoryLimiter({ clock: new ManualClock(T0) });
    const members = [{ id: 'a' }, { id: 'b' }, { id: 'late', startMs: 90_000 }];
    const result = await simulate(limiter, sendRules, members, T0, 4 * MIN);
    // a and b each hold their 600/min per-number budget until the late one asks...
    expect(takesIn(result, 'a', T0, T0 + MIN)).toBe(600);
    expect(takesIn(result, 'b', T0, T0 + MIN)).toBe(600);
    // ...then, one window after it asked, it has its third.
    const from = T0 + 90_000 + MIN;
    expect(takesIn(result, 'late', from, from + MIN)).toBeGreaterThanOrEqual(360);
    expect(maxInWindow(result.all, MIN)).toBeLessThanOrEqual(1_200);
  });

  it('should starve a number without the fair share (the test would catch its removal)', async () => {
    const limiter = new MemoryLimiter({ clock: new ManualClock(T0) });
    const plain = (m: string): BudgetRule[] => sendRules(m).map(({ share: _s, ...r }) => r);
    const members = [{ id: 'a' }, { id: 'b' }, { id: 'late', startMs: 90_000 }];
    const result = await simulate(limiter, plain, members, T0, 4 * MIN);
    const from = T0 + 90_000 + MIN;
    expect(takesIn(result, 'late', from, from + MIN)).toBeLessThan(360);
  });

  it('should let one busy number use its whole per-number budget when the others are idle', async () => {
    const limiter = new MemoryLimiter({ clock: new ManualClock(T0) });
    const result = await simulate(limiter, sendRules, [{ id: 'a' }], T0, 2 * MIN);
    expect(takesIn(result, 'a', T0 + MIN, T0 + 2 * MIN)).toBeGreaterThanOrEqual(598);
  });
});
