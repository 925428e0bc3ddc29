import { describe, expect, it } from 'vitest';
import { JournaledLimiter } from '../../src/api/journaled-limiter.js';
import type { BudgetRule } from '../../src/api/limiter.js';
import { ManualClock } from '../../src/core/clock.js';
import { SqliteBudgetJournal } from '../../src/store/sqlite-budget-journal.js';
import { JOURNAL_WITHIN_MS, SqliteStore } from '../../src/store/sqlite-store.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const perMinute: BudgetRule = { key: 'send:number:n1:60s', limit: 600, windowMs: 60_000 };
const perSecond: BudgetRule = { key: 'send:number:n1:1s', limit: 20, windowMs: 1_000 };
const rules = [perSecond, perMinute];

describe('JournaledLimiter', () => {
  it('should count the units of the last minute before a restart', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const store = new SqliteStore({ path: ':memory:', clock });
    const first = JournaledLimiter.open(new SqliteBudgetJournal(store.database), clock);
    let taken = 0;
    // 600 sends within 40 s, each completed 100 ms later.
    for (let i = 0; i < 600; i++) {
      const result = await first.take(rules, clock.now());
      expect(result.ok).toBe(true);
      if (!result.ok) break;
      taken++;
      clock.advance(34);
      await first.complete(rules, result.ticket, clock.now());
      clock.advance(32);
    }
    expect(taken).toBe(600);
    // The process dies mid-request on one more unit it had taken.
    clock.advance(1_000);
    // A restarted limiter over the same journal: the minute is still used up.
    const second = JournaledLimiter.open(new SqliteBudgetJournal(store.database), clock);
    expect(second.count(perMinute, clock.now())).toBe(600);
    const refused = await second.take(rules, clock.now());
    expect(refused.ok).toBe(false);
    // Once the first unit left the window, one fits again.
    clock.advance(60_000 - 40_600 + 34);
    expect((await second.take(rules, clock.now())).ok).toBe(true);
    await store.close();
  });

  it('should count a unit whose completion was never written as completed at the restart', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const store = new SqliteStore({ path: ':memory:', clock });
    const first = JournaledLimiter.open(new SqliteBudgetJournal(store.database), clock);
    for (let i = 0; i < 20; i++) expect((await first.take(rules, clock.now())).ok).toBe(true);
    clock.advance(5_000);
    const second = JournaledLimiter.open(new SqliteBudgetJournal(store.database), clock);
    // In flight when the process died: they hold the 1 s window from the restart on.
    expect((await second.take(rules, clock.now())).ok).toBe(false);
    clock.advance(1_000);
    expect((await second.take(rules, clock.now())).ok).toBe(true);
    await store.close();
  });

  it("should write the store's journal rows with the store's next write, durable once it commits", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-journal-'));
    const path = join(dir, 'state.db');
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const store = new SqliteStore({ path, clock });
    const limiter = JournaledLimiter.open(store.budgetJournal(), clock);
    const taken = await limiter.take(rules, clock.now());
    expect(taken.ok).toBe(true);
    // No transaction of its own: the row waits for the next write.
    expect(store.database.inTransaction).toBe(false);
    if (taken.ok) await limiter.complete(rules, taken.ticket, clock.now());
    const written = store.putSend({
      id: 'c1:1:1',
      conversationId: 'c1',
      seq: 1,
      contentType: 'text',
      state: 'accepted',
      startedAt: clock.now(),
      messageId: 'm1',
    });
    // Both rows went first into the write's group transaction.
    expect(store.database.inTransaction).toBe(true);
    expect(new SqliteBudgetJournal(store.database).since(clock.now() - 1_000)).toHaveLength(1);
    await written;
    expect(store.database.inTransaction).toBe(false);
    await store.close();
    // Another process over the same file sees both rows (taken, then settled).
    const reopened = new SqliteStore({ path, clock });
    const rows = new SqliteBudgetJournal(reopened.database).since(clock.now() - 1_000);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.settled).toBe(true);
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should commit a journal row alone when no write comes within JOURNAL_WITHIN_MS, and on close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-journal-'));
    const path = join(dir, 'state.db');
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const store = new SqliteStore({ path, clock });
    const limiter = JournaledLimiter.open(store.budgetJournal(), clock);
    const reader = new SqliteStore({ path: join(dir, 'other.db') });
    const rowsOnDisk = (): number => {
      // A second connection sees committed rows only.
      reader.database.exec(`ATTACH DATABASE '${path}' AS s`);
      const n = (
        reader.database.prepare('SELECT COUNT(*) FROM s.budget_log').raw().get() as [number]
      )[0];
      reader.database.exec('DETACH DATABASE s');
      return n;
    };
    expect((await limiter.take(rules, clock.now())).ok).toBe(true);
    expect(rowsOnDisk()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, JOURNAL_WITHIN_MS + 200));
    expect(rowsOnDisk()).toBe(1);
    expect((await limiter.take(rules, clock.now())).ok).toBe(true);
    await store.close();
    expect(rowsOnDisk()).toBe(2);
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
