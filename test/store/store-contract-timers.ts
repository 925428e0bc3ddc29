import { describe, expect, it } from 'vitest';
import type { ContractContext } from './store-contract-context.js';
import type { TimerRecord } from '../../src/store/store.js';

function timer(id: string, dueAt: number, conversationId = 'c1'): TimerRecord {
  return { id, conversationId, name: `t-${id}`, dueAt };
}

/** Contract of durable timers: claims that expire, complete vs reschedule. */
export function timerContract(ctx: ContractContext): void {
  const store = () => ctx.store();
  const clock = () => ctx.clock();
  describe('timers', () => {
    it('should report the earliest due time', async () => {
      expect(await store().nextTimerDue()).toBeUndefined();
      const t0 = clock().now();
      await store().scheduleTimer(timer('b', t0 + 2000));
      await store().scheduleTimer(timer('a', t0 + 1000));
      expect(await store().nextTimerDue()).toBe(t0 + 1000);
      await store().cancelTimer('a');
      expect(await store().nextTimerDue()).toBe(t0 + 2000);
    });

    it('should claim only due timers, in due order, up to the limit', async () => {
      const t0 = clock().now();
      await store().scheduleTimer(timer('late', t0 + 3000));
      await store().scheduleTimer(timer('second', t0 + 2000));
      await store().scheduleTimer(timer('first', t0 + 1000));
      expect(await store().claimDueTimers(t0 + 999, 10, 30_000)).toEqual([]);
      expect(await store().claimDueTimers(t0 + 2500, 1, 30_000)).toEqual([
        timer('first', t0 + 1000),
      ]);
      expect(await store().claimDueTimers(t0 + 2500, 10, 30_000)).toEqual([
        timer('second', t0 + 2000),
      ]);
    });

    it('should hide a claimed timer until the claim expires, then offer it again', async () => {
      const t0 = clock().now();
      await store().scheduleTimer(timer('x', t0));
      expect(await store().claimDueTimers(t0, 10, 5000)).toHaveLength(1);
      expect(await store().claimDueTimers(t0 + 4999, 10, 5000)).toEqual([]);
      expect(await store().nextTimerDue()).toBe(t0 + 5000);
      expect(await store().claimDueTimers(t0 + 5000, 10, 5000)).toEqual([timer('x', t0)]);
    });

    it('should return copies of claimed timers', async () => {
      const t0 = clock().now();
      await store().scheduleTimer(timer('x', t0));
      const [claimed] = await store().claimDueTimers(t0, 10, 1000);
      (claimed as { name: string }).name = 'changed';
      expect(await store().claimDueTimers(t0 + 1000, 10, 1000)).toEqual([timer('x', t0)]);
    });

    it('should remove a completed timer', async () => {
      const t0 = clock().now();
      await store().scheduleTimer(timer('x', t0));
      await store().claimDueTimers(t0, 10, 1000);
      await store().completeTimer('x', t0);
      expect(await store().claimDueTimers(t0 + 10_000, 10, 1000)).toEqual([]);
      expect(await store().nextTimerDue()).toBeUndefined();
    });

    it('should keep a timer rescheduled while it was claimed', async () => {
      const t0 = clock().now();
      await store().scheduleTimer(timer('x', t0));
      await store().claimDueTimers(t0, 10, 60_000);
      await store().scheduleTimer(timer('x', t0 + 100));
      await store().completeTimer('x', t0);
      expect(await store().nextTimerDue()).toBe(t0 + 100);
      expect(await store().claimDueTimers(t0 + 100, 10, 1000)).toEqual([timer('x', t0 + 100)]);
    });

    it('should replace a timer scheduled again with the same id', async () => {
      const t0 = clock().now();
      await store().scheduleTimer(timer('x', t0 + 1000, 'c1'));
      await store().scheduleTimer(timer('x', t0 + 500, 'c2'));
      expect(await store().claimDueTimers(t0 + 5000, 10, 1000)).toEqual([
        timer('x', t0 + 500, 'c2'),
      ]);
    });

    it('should not claim a cancelled timer', async () => {
      const t0 = clock().now();
      await store().scheduleTimer(timer('x', t0));
      await store().cancelTimer('x');
      await store().cancelTimer('never');
      expect(await store().claimDueTimers(t0, 10, 1000)).toEqual([]);
    });

    it('should hand each due timer to exactly one of many concurrent claimers', async () => {
      const t0 = clock().now();
      for (let i = 0; i < 30; i++) await store().scheduleTimer(timer(`t${i}`, t0 + i));
      const batches = await Promise.all(
        Array.from({ length: 8 }, () => store().claimDueTimers(t0 + 100, 5, 60_000)),
      );
      const ids = batches.flat().map((t) => t.id);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
    });
  });
}
