import type { Limiter, Slot, TakeResult } from '../src/api/limiter.js';

/**
 * A limiter that always grants: the throughput benchmarks measure the pipeline, not
 * the spec's 20 sends/s (the budget benchmark measures those with the real limiter).
 */
export const unlimitedLimiter: Limiter = {
  take: (): Promise<TakeResult> => Promise.resolve({ ok: true, ticket: 'unlimited' }),
  complete: (): Promise<void> => Promise.resolve(),
  block: (): Promise<void> => Promise.resolve(),
  acquireSlot: (): Promise<Slot | undefined> =>
    Promise.resolve({ release: () => Promise.resolve() }),
};
