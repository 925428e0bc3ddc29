import { RECONCILE_TIMER_PREFIX, type EngineDeps } from './engine-deps.js';

/**
 * How long a claimed timer stays hidden from other claimers before it can fire again
 * (delivering it is one enqueue; short so a killed worker's claims come back quickly).
 */
const CLAIM_MS = 12_000;
const BATCH = 100;

/**
 * Claims every due timer and delivers it as an inbox item: `timer.fired` for flow
 * timers, a reconciliation attempt for the engine's own. A timer is completed only
 * after its item is enqueued, so a crash in between fires it late, never never.
 * Nothing is claimed (no write) while the store's next due time is in the future.
 * Returns how many timers fired.
 */
export async function runDueTimers(deps: EngineDeps): Promise<number> {
  // One read first: a claim is a write (a transaction on SQLite, a script on Redis), and
  // the tick asks four times a second while nothing is due almost always.
  const next = await deps.store.nextTimerDue();
  if (next === undefined || next > deps.clock.now()) return 0;
  let fired = 0;
  for (;;) {
    const due = await deps.store.claimDueTimers(deps.clock.now(), BATCH, CLAIM_MS);
    for (const timer of due) {
      if (timer.name.startsWith(RECONCILE_TIMER_PREFIX)) {
        const [sendId = '', attempt = '1'] = timer.name
          .slice(RECONCILE_TIMER_PREFIX.length)
          .split('#');
        await deps.enqueue(
          timer.conversationId,
          {
            id: `reconcile:${sendId}:${attempt}`,
            sortKey: timer.dueAt,
            payload: { kind: 'reconcile', sendId, attempt: Number(attempt) },
          },
          'timer',
        );
      } else {
        await deps.enqueue(
          timer.conversationId,
          {
            id: `timer:${timer.id}:${timer.dueAt}`,
            sortKey: timer.dueAt,
            payload: { kind: 'flow', event: { type: 'timer.fired', name: timer.name } },
          },
          'timer',
        );
      }
      await deps.store.completeTimer(timer.id, timer.dueAt);
      fired++;
    }
    if (due.length < BATCH) return fired;
  }
}
