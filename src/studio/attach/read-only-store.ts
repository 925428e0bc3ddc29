/**
 * Store operations that only read: the attached studio may call these and nothing else.
 * `close` releases the studio's own connection; `listConversations` is the journal
 * contract's optional listing.
 */
export const READ_OPERATIONS: ReadonlySet<string> = new Set([
  'getConversation',
  'getConversationIfChanged',
  'peekInbox',
  'conversationsWithInbox',
  'unclaimedInboxes',
  'getValue',
  'nextTimerDue',
  'getSend',
  'findSendByMessageId',
  'listConversations',
  'conversationTimers',
  'close',
]);

/** A write was asked of a store the studio only reads (a bug: nothing was written). */
export class ReadOnlyStoreError extends Error {
  override readonly name = 'ReadOnlyStoreError';
  constructor(readonly operation: string) {
    super(
      `the attached studio only reads the store: ${operation}() would change it and was refused (nothing was written)`,
    );
  }
}

/**
 * Wraps a store so that only {@link READ_OPERATIONS} reach it: every other method (every
 * write of the contract, and any method a store adds later) rejects with
 * {@link ReadOnlyStoreError} before the store sees it. An allow-list, not a deny-list, so a
 * write added to the contract later is refused too.
 * @example
 * const store = readOnlyStore(new RedisStore({ redis, prefix: 'switchboard:' }));
 * await store.getConversation('c1'); // reads
 * await store.setValue('k', 1); // rejects with ReadOnlyStoreError
 */
export function readOnlyStore<T extends object>(store: T): T {
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const name = String(property);
      if (READ_OPERATIONS.has(name)) return value.bind(target) as unknown;
      return () => Promise.reject(new ReadOnlyStoreError(name));
    },
    set(_target, property) {
      throw new ReadOnlyStoreError(`set ${String(property)}`);
    },
    defineProperty(_target, property) {
      throw new ReadOnlyStoreError(`define ${String(property)}`);
    },
    deleteProperty(_target, property) {
      throw new ReadOnlyStoreError(`delete ${String(property)}`);
    },
  });
}
