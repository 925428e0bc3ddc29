import { AsyncLocalStorage } from 'node:async_hooks';
import type { BudgetRule, Limiter, Slot, TakeOptions, TakeResult, Ticket } from '../api/limiter.js';

/** Called when a send's budget is granted, right before its POST starts. */
type OnGranted = (at: number) => void;

/**
 * A {@link Limiter} decorator that tells the broadcast when a send's budget is granted,
 * i.e. the last moment before the API client writes the POST. The broadcast records its
 * intent there (fsync'ed), so a contact still waiting for budget when the process dies is
 * simply "not tried", and only a POST that may really have started is "in doubt".
 * The contact is carried through the call with an `AsyncLocalStorage`, so the client
 * stays the project's client, unchanged.
 */
export class JournalingLimiter implements Limiter {
  readonly #inner: Limiter;
  readonly #context = new AsyncLocalStorage<OnGranted>();

  constructor(inner: Limiter) {
    this.#inner = inner;
  }

  /** Runs `send` so that its budget grant calls `onGranted` first. */
  withIntent<T>(onGranted: OnGranted, send: () => Promise<T>): Promise<T> {
    return this.#context.run(onGranted, send);
  }

  async take(
    rules: readonly BudgetRule[],
    now: number,
    options?: TakeOptions,
  ): Promise<TakeResult> {
    const result = await this.#inner.take(rules, now, options);
    const onGranted = this.#context.getStore();
    if (result.ok && onGranted !== undefined && rules.some((r) => r.key.startsWith('send:'))) {
      try {
        onGranted(now);
      } catch (error) {
        // The intent could not be made durable: give the unit back and do not send.
        await this.#inner.complete(rules, result.ticket, now);
        throw error;
      }
    }
    return result;
  }

  complete(rules: readonly BudgetRule[], ticket: Ticket, now: number): Promise<void> {
    return this.#inner.complete(rules, ticket, now);
  }

  block(keys: readonly string[], untilMs: number): Promise<void> {
    return this.#inner.block(keys, untilMs);
  }

  acquireSlot(key: string, max: number, ttlMs: number): Promise<Slot | undefined> {
    return this.#inner.acquireSlot(key, max, ttlMs);
  }
}
