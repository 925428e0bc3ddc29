import type { Store } from '../store/store.js';

/** Conversations looked at by {@link oldestWaitingAgeMs}. */
export const BACKLOG_SAMPLE = 20;

/**
 * Age in ms of the oldest item waiting in an inbox, by its event time (an inbound message's
 * `occurredAt`, a timer's due time), among the `sample` conversations that have waited
 * longest (the order of `conversationsWithInbox`). Items without an event time (the engine's
 * own continuations) do not count. 0 when nothing waits. A read per conversation looked at:
 * meant for a scrape, not a hot path.
 * @example
 * createMetrics(bot, { oldestWaitingMs: () => oldestWaitingAgeMs(store, Date.now()) });
 */
export async function oldestWaitingAgeMs(
  store: Pick<Store, 'conversationsWithInbox' | 'peekInbox'>,
  now: number,
  sample = BACKLOG_SAMPLE,
): Promise<number> {
  const waiting = await store.conversationsWithInbox(sample);
  const firsts = await Promise.all(waiting.map((id) => store.peekInbox(id, 1)));
  let oldest = 0;
  for (const [item] of firsts) {
    if (item === undefined || item.sortKey <= 0 || item.sortKey > now) continue;
    oldest = Math.max(oldest, now - item.sortKey);
  }
  return oldest;
}
