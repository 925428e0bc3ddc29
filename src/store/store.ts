/**
 * The storage contract of the engine. Every operation is designed so that a Redis
 * implementation can make it atomic (single command or Lua script). Values are JSON;
 * the engine validates what it reads back with zod.
 *
 * Implementations: `MemoryStore` (embedded default) and `RedisStore`. The contract
 * suite in `test/store/store-contract.ts` runs against both.
 */

/** A versioned JSON document; `version` is the compare-and-set counter (starts at 1). */
export interface Versioned<T> {
  readonly value: T;
  readonly version: number;
}

export type CasResult =
  | { readonly status: 'ok'; readonly version: number }
  | { readonly status: 'conflict'; readonly currentVersion: number }
  /** The lease named by the fencing token is no longer the newest one. */
  | { readonly status: 'fenced' };

/** An event waiting in a conversation's inbox. */
export interface InboxItem {
  /** Unique id (for inbound messages: `msg:<messageId>`); also the dedup key. */
  readonly id: string;
  /** Ordering key: items are taken in ascending `sortKey`, then arrival order. */
  readonly sortKey: number;
  readonly payload: unknown;
}

/** A durable timer. `id` is unique; scheduling the same id again replaces it. */
export interface TimerRecord {
  readonly id: string;
  readonly conversationId: string;
  readonly name: string;
  /** Epoch milliseconds. */
  readonly dueAt: number;
}

/** What the engine knows of one outbound send (spec 4.5.6: never replay an unknown one). */
export interface SendRecord {
  /** `<conversationId>:<effect seq>`. */
  readonly id: string;
  readonly conversationId: string;
  readonly seq: number;
  readonly state: 'pending' | 'accepted' | 'rejected' | 'unknown' | 'failed' | 'reconciled';
  readonly messageId?: string;
  readonly code?: string;
  /** Epoch ms when the POST was started. */
  readonly startedAt: number;
  /** Type and a fingerprint of the content, to recognise it in history when reconciling. */
  readonly contentType: string;
  readonly fingerprint: string;
}

/** A lease with a fencing token (monotonic per name). */
export interface Lease {
  readonly name: string;
  readonly owner: string;
  readonly token: number;
  readonly expiresAt: number;
}

export interface Store {
  /** Reads a conversation document. */
  getConversation(conversationId: string): Promise<Versioned<unknown> | undefined>;
  /**
   * Writes a conversation document if its version is still `expectedVersion`
   * (0 = must not exist). With `fence`, also requires that the lease
   * `conv:<conversationId>` still has that token.
   * The fence is checked first: `fenced` when the lease's current token is not `fence`
   * (a newer lease was taken, or there is none).
   */
  putConversation(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence?: number,
  ): Promise<CasResult>;
  deleteConversation(conversationId: string): Promise<void>;

  /**
   * Atomically: if `item.id` was not seen within `dedupTtlMs`, marks it seen and appends
   * the item to the conversation's inbox, and returns true; otherwise returns false.
   * Dedup ids are per conversation and separate from `markSeen` keys. An id accepted
   * again while still in the inbox (its dedup expired) is moved, not duplicated.
   * `sortKey` must be finite. The payload must be JSON.
   */
  enqueue(conversationId: string, item: InboxItem, dedupTtlMs: number): Promise<boolean>;
  /** The first `limit` items of the inbox, in order, without removing them. */
  peekInbox(conversationId: string, limit: number): Promise<InboxItem[]>;
  /** Removes the items with these ids from the inbox. */
  ackInbox(conversationId: string, ids: readonly string[]): Promise<void>;
  /** Conversations whose inbox is not empty (for sweepers after a crash). */
  conversationsWithInbox(limit: number): Promise<string[]>;
  /** Marks a key as seen without an inbox (returns true when first seen). */
  markSeen(key: string, ttlMs: number): Promise<boolean>;

  /** Small JSON values: poll watermarks, cursors, flags. */
  getValue(key: string): Promise<unknown>;
  setValue(key: string, value: unknown, ttlMs?: number): Promise<void>;

  scheduleTimer(timer: TimerRecord): Promise<void>;
  cancelTimer(id: string): Promise<void>;
  /**
   * Claims up to `limit` timers due at `now`: each is hidden from other claimers for
   * `claimMs`, after which it becomes claimable again unless completed (fire late,
   * never never).
   */
  claimDueTimers(now: number, limit: number, claimMs: number): Promise<TimerRecord[]>;
  /** Removes a fired timer, unless it was rescheduled (different dueAt) meanwhile. */
  completeTimer(id: string, dueAt: number): Promise<void>;
  /**
   * Epoch ms of the earliest timer, if any: the earliest time `claimDueTimers` can return
   * one, i.e. a timer's `dueAt`, or for a claimed, uncompleted timer the end of its claim
   * (so a poller does not spin on a timer another worker is firing).
   */
  nextTimerDue(): Promise<number | undefined>;

  putSend(record: SendRecord): Promise<void>;
  getSend(id: string): Promise<SendRecord | undefined>;
  findSendByMessageId(messageId: string): Promise<SendRecord | undefined>;

  /**
   * Takes or renews a lease; returns it with a new token when newly taken. The same owner
   * renews and keeps its token (also after expiry, if nobody took it meanwhile); another
   * owner gets undefined while the lease is unexpired at `now`. Tokens per name only grow,
   * also across releases.
   */
  acquireLease(name: string, owner: string, ttlMs: number, now: number): Promise<Lease | undefined>;
  releaseLease(name: string, owner: string): Promise<void>;

  /** Closes connections owned by the store (not an injected client). */
  close(): Promise<void>;
}
