import { OPTIONAL_METHODS, STORE_METHODS } from './guarded-store.js';
import type { Store } from './store.js';

/** Store operations that change what is stored (the rest only read). */
export const WRITE_OPERATIONS: ReadonlySet<string> = new Set([
  'putConversation',
  'putConversationWith',
  'deleteConversation',
  'enqueue',
  'ackInbox',
  'markSeen',
  'setValue',
  'deleteValue',
  'scheduleTimer',
  'cancelTimer',
  'claimDueTimers',
  'completeTimer',
  'putSend',
  'acquireLease',
  'releaseLease',
  'acquireConversation',
  'releaseConversation',
  'ackAndRelease',
]);

/** A store that counts the calls of each of its operations: see {@link countStoreOperations}. */
export interface CountedStore {
  readonly store: Store;
  /** Calls so far, by operation name (only operations called at least once). */
  readonly counts: ReadonlyMap<string, number>;
}

/**
 * Wraps a store so that every call of a Store operation is counted by name (for the
 * `switchboard_store_operations_total` metric of `switchboard run`). Operations the inner
 * store leaves out stay absent; each call costs one map update.
 * @example
 * const { store, counts } = countStoreOperations(new SqliteStore({ path }));
 */
export function countStoreOperations(inner: Store): CountedStore {
  const counts = new Map<string, number>();
  const counted = {} as Record<string, unknown>;
  const present = OPTIONAL_METHODS.filter((name) => typeof Reflect.get(inner, name) === 'function');
  for (const name of [...STORE_METHODS, ...present]) {
    const method = Reflect.get(inner, name) as (...args: unknown[]) => unknown;
    counted[name] = (...args: unknown[]): unknown => {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return method.apply(inner, args);
    };
  }
  return { store: counted as unknown as Store, counts };
}
