/**
 * The storage contract of the engine. Every operation is designed so that a Redis
 * implementation can make it atomic (single command or Lua script). Values are JSON;
 * the engine validates what it reads back with zod.
 *
 * Implementations: `MemoryStore` (tests, `dev`), `SqliteStore` (the durable default of
 * `run`) and `RedisStore` (several workers). The contract suite in
 * `test/store/store-contract.ts` runs against all three.
 *
 * Growth is bounded: every record expires once it is no longer needed (see
 * {@link StoreRetention}); leases disappear after their expiry, their fencing tokens stay
 * monotonic because a new token is never below the clock (`max(last + 1, now)`).
 */

/** How long a store keeps what the engine no longer touches. */
export interface StoreRetention {
  /**
   * Send records, from their last write. Must cover the API's redelivery window of
   * status callbacks (a late `message.failed` must still find its record). Default 7 days.
   */
  readonly sendRecordsMs: number;
  /** Conversation documents, from their last write (an idle conversation). Default 30 days. */
  readonly idleConversationMs: number;
}

/** Defaults of {@link StoreRetention}. */
export const DEFAULT_RETENTION: StoreRetention = {
  sendRecordsMs: 7 * 86_400_000,
  idleConversationMs: 30 * 86_400_000,
};

/** How long after its expiry a lease record is kept (then its name starts afresh). */
export const LEASE_GRACE_MS = 60_000;

/** A fencing token for a lease taken at `now` after `last` (0 for none): monotonic. */
export function nextLeaseToken(last: number, now: number): number {
  return Math.max(last + 1, Math.floor(now));
}

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
  /** The content's type, to recognise it in history when reconciling. */
  readonly contentType: string;
  /**
   * `fingerprintContent` (src/api/fingerprint.ts) of the content. Records written since wave 2 leave it out:
   * a record whose outcome is open keeps `request`, and reconciliation derives it from
   * that (a SHA-256 per send saved); older records still carry it.
   */
  readonly fingerprint?: string;
  /**
   * The request as sent, kept while the outcome is open (`pending`, `unknown`): its content
   * is what reconciliation looks for in history (and, with `sends.resendAfterAbsence`,
   * what is sent once more when it is absent).
   */
  readonly request?: unknown;
  /** How many times it was sent again after a proof of absence. */
  readonly resends?: number;
  /**
   * Epoch ms when the outcome became unknown (a timeout, or a `pending` record found by a
   * retry: its writer can no longer start the POST). History read long enough after this
   * proves a message absent.
   */
  readonly unknownSince?: number;
}

/** A value written as {@link Store.setValue} writes it. */
export interface ValueWrite {
  readonly key: string;
  readonly value: unknown;
  readonly ttlMs?: number;
}

/** A timer change as {@link Store.scheduleTimer} or {@link Store.cancelTimer} makes it. */
export type TimerWrite =
  | { readonly kind: 'schedule'; readonly timer: TimerRecord }
  | { readonly kind: 'cancel'; readonly id: string };

/** Writes that go with a conversation document's write ({@link Store.putConversationWith}). */
export interface AlongWrites {
  readonly sends?: readonly SendRecord[];
  readonly values?: readonly ValueWrite[];
  /** Made in this order (a timer cancelled, then scheduled again, ends scheduled). */
  readonly timers?: readonly TimerWrite[];
}

/** One conversation document as {@link Store.listConversations} lists it. */
export interface ListedConversation {
  readonly id: string;
  readonly value: unknown;
  readonly version: number;
}

/** One page of {@link Store.listConversations}. */
export interface ConversationPage {
  readonly items: readonly ListedConversation[];
  /** Pass back to read the next page; undefined when this was the last one. */
  readonly cursor: string | undefined;
}

/** A lease with a fencing token (monotonic per name). */
export interface Lease {
  readonly name: string;
  readonly owner: string;
  readonly token: number;
  readonly expiresAt: number;
}

/** What {@link Store.acquireConversation} answers when the lease was taken. */
export interface AcquiredConversation {
  readonly lease: Lease;
  /** The first inbox item, as `peekInbox(id, 1)` reads it. */
  readonly first: InboxItem | undefined;
  /**
   * The live version of the conversation's document at the same moment (0: none, or
   * expired), when the store reads it in the same call: the engine then skips asking
   * {@link Store.getConversationIfChanged} for a document it holds at that version.
   */
  readonly docVersion?: number;
}

/** What {@link Store.getConversationIfChanged} answers when the document is still `knownVersion`. */
export const UNCHANGED = 'unchanged';

export interface Store {
  /** Reads a conversation document. */
  getConversation(conversationId: string): Promise<Versioned<unknown> | undefined>;
  /**
   * Optional: like {@link getConversation}, but answers {@link UNCHANGED} (without reading
   * or copying the document) when it is live at exactly `knownVersion`. The engine asks
   * this for a conversation whose document it wrote last itself and still holds. A store
   * without it is read with `getConversation`.
   */
  getConversationIfChanged?(
    conversationId: string,
    knownVersion: number,
  ): Promise<Versioned<unknown> | typeof UNCHANGED | undefined>;
  /**
   * Writes a conversation document if its version is still `expectedVersion`
   * (0 = must not exist). With `fence`, also requires that the lease
   * `conv:<conversationId>` still has that token.
   * The fence is checked first: `fenced` when the lease's current token is not `fence`
   * (a newer lease was taken, or there is none). A document idle for longer than
   * `retention.idleConversationMs` reads as absent (version 0); writing it again continues
   * its version numbers, so a version is never reused.
   */
  putConversation(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence?: number,
  ): Promise<CasResult>;
  /**
   * Optional: writes `along` (send records as {@link putSend} writes them, values as
   * {@link setValue} does, timer changes as {@link scheduleTimer} and {@link cancelTimer}
   * make them), then the document as {@link putConversation} does, in one call.
   * The `along` writes are made whatever the compare-and-set answers (they say what the API
   * did or what a contact has, not what the document holds), and never after the document
   * (a document that says a send ran has its record). The engine gives it the `accepted`
   * records of a turn's sends and the turn's timer changes with the document write that
   * follows them, and a new conversation's entry in its contact's list with its first
   * write, instead of writes of their own. A store without it is asked each.
   */
  putConversationWith?(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence: number | undefined,
    along: AlongWrites,
  ): Promise<CasResult>;
  deleteConversation(conversationId: string): Promise<void>;
  /**
   * Optional (operations: `switchboard inspect`, `switchboard conversations`, the attached
   * studio): one page of the live conversation documents, at most `limit` of them, read
   * only. Start without a cursor and pass each page's `cursor` back until it is undefined;
   * every document live for the whole walk is listed once (a page may be short, or empty
   * with a cursor, on a store that scans; a document written during the walk may be
   * listed or not). The order is the store's own.
   */
  listConversations?(cursor: string | undefined, limit: number): Promise<ConversationPage>;

  /**
   * Atomically: if `item.id` was not seen within `dedupTtlMs`, marks it seen and appends
   * the item to the conversation's inbox, and returns true; otherwise returns false.
   * Dedup ids are per conversation and separate from `markSeen` keys. An id accepted
   * again while still in the inbox (its dedup expired) is moved, not duplicated.
   * `sortKey` must be finite. The payload must be JSON.
   *
   * `claimMs` (optional): the caller drains this inbox itself. When this enqueue finds the
   * inbox empty, the conversation is left out of {@link unclaimedInboxes} for `claimMs`
   * (store clock), so other workers' sweeps do not take a conversation whose worker is about
   * to serve it; an item added to an inbox that already waits does not extend the claim. A
   * claim only delays sweeps: it never blocks a lease, and it ends by itself, so the inbox
   * of a worker that died is swept once it passed. A store may ignore it.
   */
  enqueue(
    conversationId: string,
    item: InboxItem,
    dedupTtlMs: number,
    claimMs?: number,
  ): Promise<boolean>;
  /** The first `limit` items of the inbox, in order, without removing them. */
  peekInbox(conversationId: string, limit: number): Promise<InboxItem[]>;
  /**
   * Removes the items with these ids from the inbox. Resolves with the number of items
   * left in it right after (every built-in store does; a store may resolve with nothing,
   * and the engine then looks with `peekInbox`).
   */
  ackInbox(conversationId: string, ids: readonly string[]): Promise<number | void>;
  /** Conversations whose inbox is not empty (for sweepers after a crash). */
  conversationsWithInbox(limit: number): Promise<string[]>;
  /**
   * Optional: {@link conversationsWithInbox} less those whose claim (`enqueue`'s `claimMs`)
   * has not passed yet at the store's clock: what a periodic sweep should look at. A store
   * without it is asked `conversationsWithInbox`.
   */
  unclaimedInboxes?(limit: number): Promise<string[]>;
  /** Marks a key as seen without an inbox (returns true when first seen). */
  markSeen(key: string, ttlMs: number): Promise<boolean>;

  /** Small JSON values: poll watermarks, cursors, flags. */
  getValue(key: string): Promise<unknown>;
  setValue(key: string, value: unknown, ttlMs?: number): Promise<void>;
  /** Removes a value (no error when absent). */
  deleteValue(key: string): Promise<void>;
  /**
   * First writer wins, atomically: writes `value` (kept forever) unless the key holds an
   * unexpired value already, and resolves with the value stored afterwards: `value` when
   * this call wrote it, else the one found (read back as JSON). Any number of callers
   * racing on one key, in one process or many, all resolve with the same value.
   * @example
   * const line = await store.setValueIfAbsent('engine:cutoff', { at: Date.now() });
   */
  setValueIfAbsent(key: string, value: unknown): Promise<unknown>;

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
  /**
   * Optional (operations, read only): the pending timers of one conversation (those whose
   * `conversationId` is this one), claimed or not, in `dueAt` order.
   */
  conversationTimers?(conversationId: string): Promise<TimerRecord[]>;

  /** Writes a send record; it expires `retention.sendRecordsMs` after its last write. */
  putSend(record: SendRecord): Promise<void>;
  getSend(id: string): Promise<SendRecord | undefined>;
  findSendByMessageId(messageId: string): Promise<SendRecord | undefined>;

  /**
   * Takes or renews a lease; returns it with a new token when newly taken. The same owner
   * renews and keeps its token (also after expiry, if nobody took it meanwhile); another
   * owner gets undefined while the lease is unexpired at `now`. Tokens per name only grow,
   * also across releases and after the record expired ({@link nextLeaseToken}).
   */
  acquireLease(name: string, owner: string, ttlMs: number, now: number): Promise<Lease | undefined>;
  releaseLease(name: string, owner: string): Promise<void>;
  /**
   * Optional: takes the lease `conv:<conversationId>` as {@link acquireLease} does and,
   * when taken, reads the first item of the conversation's inbox as `peekInbox(id, 1)`,
   * in one call (one round trip to a remote store). A store without it is asked both.
   */
  acquireConversation?(
    conversationId: string,
    owner: string,
    ttlMs: number,
    now: number,
  ): Promise<AcquiredConversation | undefined>;
  /**
   * Optional: releases the lease `conv:<conversationId>` as {@link releaseLease} does and
   * answers how many items the conversation's inbox holds right after, in one call. A
   * store without it is asked `releaseLease` and then `peekInbox`.
   */
  releaseConversation?(conversationId: string, owner: string): Promise<number>;
  /**
   * Optional: removes the items with these ids from the inbox as {@link ackInbox} does
   * and, when that leaves it empty, releases the lease `conv:<conversationId>` of `owner`
   * as {@link releaseLease} does, in one atomic call. Resolves with the number of items
   * left (0: the lease, if `owner` held it, was released; more: it is kept). A store
   * without it is asked `ackInbox`, then `releaseConversation` or `releaseLease`.
   */
  ackAndRelease?(conversationId: string, ids: readonly string[], owner: string): Promise<number>;

  /** Closes connections owned by the store (not an injected client). */
  close(): Promise<void>;
}
