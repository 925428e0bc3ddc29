import { StoreUnavailableError } from '../store/guarded-store.js';

/** Default bound of the store calls a callback waits for (well under a sender's 2 s timeout). */
export const DEFAULT_CALLBACK_STORE_DEADLINE_MS = 1_500;

/**
 * Resolves as `work` does, unless it takes longer than `ms`: then rejects with a
 * {@link StoreUnavailableError} (the callback answers 503 + Retry-After). `work` goes on:
 * a write that lands late is still a whole, deduplicated write (the sender's redelivery
 * then finds it a duplicate); one that never lands is made by the redelivery.
 * @example
 * await withinDeadline(store.enqueue(id, item, ttl), 1_500, 'enqueue');
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, operation: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(operation, new Error(`no answer within ${ms} ms`))),
      ms,
    );
    timer.unref();
  });
  // The outcome of work that lost the race is not anyone's to handle any more.
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
