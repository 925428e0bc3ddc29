import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import type { Logger } from '../log/logger.js';
import { StoreDataError } from './store-data-error.js';
import type { Store } from './store.js';

/**
 * The store did not answer (connection lost, timeout, disk error): nothing was decided,
 * the operation may be retried. Callbacks answer 503 with Retry-After; the engine leaves
 * the item where it is and comes back.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  constructor(operation: string, cause: unknown) {
    super(
      `the store is unavailable (${operation}): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/** Options of {@link guardStore}. */
export interface GuardStoreOptions {
  readonly logger: Logger;
  readonly clock?: Clock;
  /** Called on every change of health (for metrics). */
  readonly onHealth?: (healthy: boolean) => void;
}

/** A store with a health flag: see {@link guardStore}. */
export interface GuardedStore extends Store {
  /** False from a failed operation until one succeeds again. */
  readonly healthy: boolean;
  /** One cheap read, to learn whether the store answers now (`/readyz`). */
  probe(): Promise<boolean>;
}

/**
 * Wraps a store so that a failure to reach it is one typed error
 * ({@link StoreUnavailableError}) and one log line per outage (and one when it recovers),
 * instead of a log line per failed operation. Errors that are decisions, not outages
 * (corrupt data, a value that is not JSON, a bad argument), pass through unchanged.
 * @example
 * const store = guardStore(new RedisStore({ redis, prefix }), { logger });
 * if (!store.healthy) res.status(503);
 */
export function guardStore(inner: Store, options: GuardStoreOptions): GuardedStore {
  const clock = options.clock ?? systemClock;
  let healthy = true;
  let downSince = 0;
  let failures = 0;

  const succeeded = (): void => {
    if (healthy) return;
    healthy = true;
    options.logger.info('store recovered', { downMs: clock.now() - downSince, failures });
    options.onHealth?.(true);
  };
  const failed = (operation: string, error: unknown): never => {
    if (isDecision(error)) throw error;
    failures++;
    if (healthy) {
      healthy = false;
      downSince = clock.now();
      failures = 1;
      options.logger.error('store unavailable; work is kept and will be retried', {
        operation,
        error: error instanceof Error ? error.message : String(error),
      });
      options.onHealth?.(false);
    }
    throw new StoreUnavailableError(operation, error);
  };

  const guarded = {} as Record<string, unknown>;
  const present = OPTIONAL_METHODS.filter((name) => typeof Reflect.get(inner, name) === 'function');
  for (const name of [...STORE_METHODS, ...present]) {
    const onError = (error: unknown): never => failed(name, error);
    const onValue = (value: unknown): unknown => {
      succeeded();
      return value;
    };
    // No async frame per call: while healthy a result passes through as it is.
    guarded[name] = (...args: unknown[]): Promise<unknown> => {
      let pending: Promise<unknown>;
      try {
        // Promise.resolve: a native promise as it is; anything else made one.
        pending = Promise.resolve(
          (Reflect.get(inner, name) as (...a: unknown[]) => Promise<unknown>).apply(inner, args),
        );
      } catch (error) {
        // A synchronous throw is judged like a rejection (a decision passes unchanged).
        return new Promise((resolve) => resolve(onError(error)));
      }
      return healthy ? pending.catch(onError) : pending.then(onValue, onError);
    };
  }
  // A real getter (Object.assign would copy the value once).
  Object.defineProperty(guarded, 'healthy', { get: () => healthy, enumerable: true });
  guarded['probe'] = async (): Promise<boolean> => {
    try {
      await (guarded['getValue'] as Store['getValue'])('engine:cutoff');
      return true;
    } catch {
      // The failure is logged once per outage by the guard itself.
      return false;
    }
  };
  return guarded as unknown as GuardedStore;
}

/** Every method of the Store contract (kept in step with the interface by the type). */
export const STORE_METHODS = [
  'getConversation',
  'putConversation',
  'deleteConversation',
  'enqueue',
  'peekInbox',
  'ackInbox',
  'conversationsWithInbox',
  'markSeen',
  'getValue',
  'setValue',
  'deleteValue',
  'setValueIfAbsent',
  'scheduleTimer',
  'cancelTimer',
  'claimDueTimers',
  'completeTimer',
  'nextTimerDue',
  'putSend',
  'getSend',
  'findSendByMessageId',
  'acquireLease',
  'releaseLease',
  'close',
] as const satisfies readonly (keyof Store)[];

/** Methods a store may leave out; the guarded store has them only when the inner one does. */
export const OPTIONAL_METHODS = [
  'getConversationIfChanged',
  'putConversationWith',
  'acquireConversation',
  'releaseConversation',
  'ackAndRelease',
  'listConversations',
  'conversationTimers',
  'unclaimedInboxes',
] as const satisfies readonly (keyof Store)[];

/** Errors that are answers, not outages: retrying would give the same. */
function isDecision(error: unknown): boolean {
  return (
    error instanceof StoreDataError ||
    error instanceof TypeError ||
    error instanceof RangeError ||
    error instanceof StoreUnavailableError
  );
}
