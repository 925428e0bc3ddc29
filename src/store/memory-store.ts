import { systemClock, type Clock } from '../core/clock.js';
import { ExpiringKeys } from './expiring-keys.js';
import { MemoryTimers } from './memory-timers.js';
import {
  DEFAULT_RETENTION,
  LEASE_GRACE_MS,
  nextLeaseToken,
  type AcquiredConversation,
  type AlongWrites,
  type ConversationPage,
  type CasResult,
  type InboxItem,
  type Lease,
  type SendRecord,
  type TimerRecord,
  type Store,
  type StoreRetention,
  UNCHANGED,
  type Versioned,
} from './store.js';
import { asError } from './store-data-error.js';
import { assertSortKey, compactString, fromJson, jsonCopy, toJson } from './to-json.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Time source for dedup and value TTLs. Default: the wall clock. */
  readonly clock?: Clock;
  /** What expires when (defaults: {@link DEFAULT_RETENTION}). */
  readonly retention?: Partial<StoreRetention>;
}

interface StoredDoc {
  readonly json: string;
  readonly version: number;
  /** Epoch ms after which the document reads as absent (idle retention). */
  readonly expiresAt: number;
}

interface StoredSend {
  /** The record's own copy ({@link jsonCopy}); readers get another. */
  readonly record: SendRecord;
  readonly expiresAt: number;
}

interface StoredInboxItem {
  readonly id: string;
  readonly sortKey: number;
  /** The payload's own copy ({@link jsonCopy}); each peek gets another. */
  readonly payload: unknown;
}

interface StoredValue {
  readonly json: string;
  readonly expiresAt: number;
}

interface StoredLease {
  readonly owner: string;
  readonly token: number;
  readonly expiresAt: number;
}

/**
 * The embedded {@link Store}: everything in this process, lost on exit. Every operation
 * runs synchronously inside its promise, so each is atomic with respect to the others.
 * Documents and payloads are kept as JSON strings (small, and every read is a copy);
 * dedup keys and values expire lazily plus an amortised sweep, without timers.
 * @example
 * const store = new MemoryStore({ clock: new ManualClock() });
 * await store.putConversation('c1', { state: 'welcome' }, 0); // { status: 'ok', version: 1 }
 */
export class MemoryStore implements Store {
  readonly #clock: Clock;
  readonly #retention: StoreRetention;
  readonly #docs = new Map<string, StoredDoc>();
  #docWrites = 0;
  readonly #inboxes = new Map<string, StoredInboxItem[]>();
  /** Conversation -> end of its inbox's claim (see `enqueue`); only while the inbox waits. */
  readonly #claims = new Map<string, number>();
  readonly #seen = new ExpiringKeys();
  readonly #values = new Map<string, StoredValue>();
  #valueWrites = 0;
  #valuesAfterSweep = 0;
  readonly #timers = new MemoryTimers();
  /** Send records as compact JSON, until their retention ends. */
  readonly #sends = new Map<string, StoredSend>();
  #sendWrites = 0;
  /** Message id -> the record that had it when written (a shared reference, no copy). */
  readonly #sendByMessageId = new Map<string, StoredSend>();
  /** A released lease is kept as its last token alone (a small integer, no object). */
  readonly #leases = new Map<string, StoredLease | number>();
  #leaseWrites = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#retention = { ...DEFAULT_RETENTION, ...options.retention };
  }

  /** How many records of each kind are held (expired ones not yet swept included). */
  get sizes(): { conversations: number; sends: number; leases: number; values: number } {
    return {
      conversations: this.#docs.size,
      sends: this.#sends.size,
      leases: this.#leases.size,
      values: this.#values.size,
    };
  }

  getConversation(conversationId: string): Promise<Versioned<unknown> | undefined> {
    return run(() => {
      const doc = this.#docs.get(conversationId);
      if (doc === undefined || doc.expiresAt <= this.#clock.now()) return undefined;
      return { value: fromJson(doc.json), version: doc.version };
    });
  }

  getConversationIfChanged(
    conversationId: string,
    knownVersion: number,
  ): Promise<Versioned<unknown> | typeof UNCHANGED | undefined> {
    return run(() => {
      const doc = this.#docs.get(conversationId);
      if (doc === undefined || doc.expiresAt <= this.#clock.now()) return undefined;
      if (doc.version === knownVersion) return UNCHANGED;
      return { value: fromJson(doc.json), version: doc.version };
    });
  }

  putConversation(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence?: number,
  ): Promise<CasResult> {
    return run(() => this.#cas(conversationId, value, expectedVersion, fence));
  }

  /** The `along` writes, then the document, in one synchronous step. */
  putConversationWith(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence: number | undefined,
    along: AlongWrites,
  ): Promise<CasResult> {
    return run(() => {
      // Everything is checked before anything is written: a bad value changes nothing.
      const json = toJson(value, `conversation ${conversationId}`);
      const sends = (along.sends ?? []).map((r) => jsonCopy(r, `send ${r.id}`) as SendRecord);
      const values = (along.values ?? []).map((v) => ({
        ...v,
        json: toJson(v.value, `value ${v.key}`),
      }));
      for (const record of sends) this.#putSend(record);
      for (const v of values) this.#putValue(v.key, v.json, v.ttlMs);
      for (const t of along.timers ?? [])
        if (t.kind === 'cancel') this.#timers.cancel(t.id);
        else this.#timers.schedule(t.timer);
      return this.#cas(conversationId, value, expectedVersion, fence, json);
    });
  }

  #cas(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence: number | undefined,
    checked?: string,
  ): CasResult {
    const json = compactString(checked ?? toJson(value, `conversation ${conversationId}`));
    if (fence !== undefined && this.#lease(`conv:${conversationId}`)?.token !== fence) {
      return { status: 'fenced' };
    }
    const now = this.#clock.now();
    const stored = this.#docs.get(conversationId);
    const live = stored !== undefined && stored.expiresAt > now;
    const currentVersion = live ? stored.version : 0;
    if (currentVersion !== expectedVersion) return { status: 'conflict', currentVersion };
    // An expired document's version numbers continue: a version is never reused.
    const version = (stored?.version ?? 0) + 1;
    const key = stored === undefined ? compactString(conversationId) : conversationId;
    this.#docs.set(key, { json, version, expiresAt: now + this.#retention.idleConversationMs });
    if (++this.#docWrites >= Math.max(1024, this.#docs.size)) {
      this.#docWrites = 0;
      for (const [k, d] of this.#docs) if (d.expiresAt <= now) this.#docs.delete(k);
    }
    return { status: 'ok', version };
  }

  deleteConversation(conversationId: string): Promise<void> {
    return run(() => void this.#docs.delete(conversationId));
  }

  /** Pages in id order; the cursor is the last id listed. */
  listConversations(cursor: string | undefined, limit: number): Promise<ConversationPage> {
    return run(() => {
      const now = this.#clock.now();
      const ids: string[] = [];
      for (const [id, doc] of this.#docs) {
        if (doc.expiresAt > now && (cursor === undefined || id > cursor)) ids.push(id);
      }
      ids.sort();
      const page = ids.slice(0, Math.max(1, limit));
      const items = page.map((id) => {
        const doc = this.#docs.get(id);
        return { id, value: fromJson(doc?.json ?? 'null'), version: doc?.version ?? 0 };
      });
      return { items, cursor: ids.length > page.length ? page.at(-1) : undefined };
    });
  }

  enqueue(
    conversationId: string,
    item: InboxItem,
    dedupTtlMs: number,
    claimMs?: number,
  ): Promise<boolean> {
    return run(() => {
      assertSortKey(item);
      // Transient (acknowledged moments later): kept as a copy of the data, not as JSON.
      const payload = jsonCopy(item.payload, `inbox item ${item.id}`);
      const now = this.#clock.now();
      if (!this.#seen.addIfAbsent(inboxSeenKey(conversationId, item.id), now, now + dedupTtlMs)) {
        return false;
      }
      // An id still in the inbox (its dedup expired) is moved, not duplicated.
      const inbox = (this.#inboxes.get(conversationId) ?? []).filter((e) => e.id !== item.id);
      // After every item with a sortKey <= this one: ascending sortKey, then arrival.
      let lo = 0;
      let hi = inbox.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((inbox[mid]?.sortKey ?? 0) <= item.sortKey) lo = mid + 1;
        else hi = mid;
      }
      inbox.splice(lo, 0, { id: item.id, sortKey: item.sortKey, payload });
      // Claimed when this enqueue lists the inbox; an inbox already waiting keeps its own.
      if (!this.#inboxes.has(conversationId) && claimMs !== undefined && claimMs > 0)
        this.#claims.set(conversationId, now + claimMs);
      this.#inboxes.set(conversationId, inbox);
      return true;
    });
  }

  peekInbox(conversationId: string, limit: number): Promise<InboxItem[]> {
    return run(() => this.#peek(conversationId, limit));
  }

  ackInbox(conversationId: string, ids: readonly string[]): Promise<number> {
    return run(() => this.#ack(conversationId, ids));
  }

  /** Removes the items; answers how many are left. */
  #ack(conversationId: string, ids: readonly string[]): number {
    const inbox = this.#inboxes.get(conversationId);
    if (inbox === undefined) return 0;
    const acked = new Set(ids);
    const rest = inbox.filter((e) => !acked.has(e.id));
    if (rest.length === 0) {
      this.#inboxes.delete(conversationId);
      this.#claims.delete(conversationId);
    } else this.#inboxes.set(conversationId, rest);
    return rest.length;
  }

  conversationsWithInbox(limit: number): Promise<string[]> {
    return run(() => {
      const ids: string[] = [];
      for (const id of this.#inboxes.keys()) {
        if (ids.length >= limit) break;
        ids.push(id);
      }
      return ids;
    });
  }

  unclaimedInboxes(limit: number): Promise<string[]> {
    return run(() => {
      const now = this.#clock.now();
      const ids: string[] = [];
      for (const id of this.#inboxes.keys()) {
        if (ids.length >= limit) break;
        if ((this.#claims.get(id) ?? 0) <= now) ids.push(id);
      }
      return ids;
    });
  }

  markSeen(key: string, ttlMs: number): Promise<boolean> {
    return run(() => {
      const now = this.#clock.now();
      return this.#seen.addIfAbsent(compactString(`k\u0000${key}`), now, now + ttlMs);
    });
  }

  getValue(key: string): Promise<unknown> {
    return run(() => {
      const stored = this.#values.get(key);
      if (stored === undefined) return undefined;
      if (stored.expiresAt <= this.#clock.now()) {
        this.#values.delete(key);
        return undefined;
      }
      return fromJson(stored.json);
    });
  }

  setValue(key: string, value: unknown, ttlMs?: number): Promise<void> {
    return run(() => this.#putValue(key, toJson(value, `value ${key}`), ttlMs));
  }

  /** Stores `checked`, the value's JSON. */
  #putValue(key: string, checked: string, ttlMs: number | undefined): void {
    const json = compactString(checked);
    const now = this.#clock.now();
    // A key built by concatenation is a rope: kept for long, it is copied flat once.
    const stored = this.#values.has(key) ? key : compactString(key);
    this.#values.set(stored, { json, expiresAt: ttlMs === undefined ? Infinity : now + ttlMs });
    // Amortised sweep: its cost (the size) is at most twice the writes since the last.
    if (++this.#valueWrites >= Math.max(1024, this.#valuesAfterSweep)) {
      for (const [k, v] of this.#values) if (v.expiresAt <= now) this.#values.delete(k);
      this.#valueWrites = 0;
      this.#valuesAfterSweep = this.#values.size;
    }
  }

  deleteValue(key: string): Promise<void> {
    return run(() => void this.#values.delete(key));
  }

  setValueIfAbsent(key: string, value: unknown): Promise<unknown> {
    return run(() => {
      const stored = this.#values.get(key);
      if (stored !== undefined && stored.expiresAt > this.#clock.now())
        return fromJson(stored.json);
      const json = compactString(toJson(value, `value ${key}`));
      this.#values.set(compactString(key), { json, expiresAt: Infinity });
      return fromJson(json);
    });
  }

  scheduleTimer(timer: TimerRecord): Promise<void> {
    return run(() => this.#timers.schedule(timer));
  }

  cancelTimer(id: string): Promise<void> {
    return run(() => this.#timers.cancel(id));
  }

  claimDueTimers(now: number, limit: number, claimMs: number): Promise<TimerRecord[]> {
    return run(() => this.#timers.claimDue(now, limit, claimMs));
  }

  completeTimer(id: string, dueAt: number): Promise<void> {
    return run(() => this.#timers.complete(id, dueAt));
  }

  conversationTimers(conversationId: string): Promise<TimerRecord[]> {
    return run(() => this.#timers.ofConversation(conversationId));
  }

  /** The earliest time a claim can return a timer (for a claimed one: when its claim ends). */
  nextTimerDue(): Promise<number | undefined> {
    return run(() => this.#timers.nextDue());
  }

  putSend(record: SendRecord): Promise<void> {
    // A copy of the data, not JSON: a record of plain fields is about as small either
    // way, and copying it is several times cheaper than writing and parsing JSON.
    return run(() => this.#putSend(jsonCopy(record, `send ${record.id}`) as SendRecord));
  }

  /** Stores `record`, the store's own copy of the caller's record. */
  #putSend(record: SendRecord): void {
    const now = this.#clock.now();
    const stored: StoredSend = { record, expiresAt: now + this.#retention.sendRecordsMs };
    this.#sends.set(this.#sends.has(record.id) ? record.id : compactString(record.id), stored);
    if (record.messageId !== undefined) {
      this.#sendByMessageId.set(compactString(record.messageId), stored);
    }
    if (++this.#sendWrites >= Math.max(1024, this.#sends.size)) {
      this.#sendWrites = 0;
      for (const [k, v] of this.#sends) if (v.expiresAt <= now) this.#sends.delete(k);
      for (const [k, v] of this.#sendByMessageId)
        if (v.expiresAt <= now) this.#sendByMessageId.delete(k);
    }
  }

  getSend(id: string): Promise<SendRecord | undefined> {
    return run(() => this.#getSend(id));
  }

  findSendByMessageId(messageId: string): Promise<SendRecord | undefined> {
    return run(() => {
      const indexed = this.#sendByMessageId.get(messageId);
      const id =
        indexed === undefined || indexed.expiresAt <= this.#clock.now()
          ? undefined
          : indexed.record.id;
      const record = id === undefined ? undefined : this.#getSend(id);
      // The record may have been rewritten with another message id since.
      return record?.messageId === messageId ? record : undefined;
    });
  }

  acquireLease(
    name: string,
    owner: string,
    ttlMs: number,
    now: number,
  ): Promise<Lease | undefined> {
    return run(() => this.#acquire(name, owner, ttlMs, now));
  }

  releaseLease(name: string, owner: string): Promise<void> {
    return run(() => this.#release(name, owner));
  }

  acquireConversation(
    conversationId: string,
    owner: string,
    ttlMs: number,
    now: number,
  ): Promise<AcquiredConversation | undefined> {
    return run(() => {
      const lease = this.#acquire(`conv:${conversationId}`, owner, ttlMs, now);
      if (lease === undefined) return undefined;
      const doc = this.#docs.get(conversationId);
      const docVersion = doc === undefined || doc.expiresAt <= this.#clock.now() ? 0 : doc.version;
      return { lease, first: this.#peek(conversationId, 1)[0], docVersion };
    });
  }

  releaseConversation(conversationId: string, owner: string): Promise<number> {
    return run(() => {
      this.#release(`conv:${conversationId}`, owner);
      return this.#inboxes.get(conversationId)?.length ?? 0;
    });
  }

  ackAndRelease(conversationId: string, ids: readonly string[], owner: string): Promise<number> {
    return run(() => {
      const left = this.#ack(conversationId, ids);
      if (left === 0) this.#release(`conv:${conversationId}`, owner);
      return left;
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #peek(conversationId: string, limit: number): InboxItem[] {
    return (this.#inboxes.get(conversationId) ?? []).slice(0, Math.max(0, limit)).map((e) => ({
      id: e.id,
      sortKey: e.sortKey,
      payload: jsonCopy(e.payload, `inbox item ${e.id}`),
    }));
  }

  #acquire(name: string, owner: string, ttlMs: number, now: number): Lease | undefined {
    const stored = this.#leases.get(name);
    const current = typeof stored === 'number' ? undefined : stored;
    if (current !== undefined && current.expiresAt > now && current.owner !== owner) {
      return undefined;
    }
    // The same owner renews and keeps its token while nobody else took the lease.
    const last = typeof stored === 'number' ? stored : (current?.token ?? 0);
    const token = current?.owner === owner ? current.token : nextLeaseToken(last, now);
    const lease = { owner, token, expiresAt: now + ttlMs };
    this.#leases.set(stored === undefined ? compactString(name) : name, lease);
    if (++this.#leaseWrites >= Math.max(1024, this.#leases.size)) this.#sweepLeases(now);
    return { name, ...lease };
  }

  #release(name: string, owner: string): void {
    const current = this.#lease(name);
    if (current?.owner === owner) this.#leases.set(name, current.token);
  }

  #getSend(id: string): SendRecord | undefined {
    const stored = this.#sends.get(id);
    if (stored === undefined || stored.expiresAt <= this.#clock.now()) return undefined;
    return jsonCopy(stored.record, `send ${id}`) as SendRecord;
  }

  /**
   * Drops leases expired for longer than the grace, and released ones (a bare token): a
   * later take starts from the clock ({@link nextLeaseToken}), still above their tokens.
   */
  #sweepLeases(now: number): void {
    this.#leaseWrites = 0;
    for (const [name, lease] of this.#leases) {
      if (
        typeof lease === 'number'
          ? lease < now - LEASE_GRACE_MS
          : lease.expiresAt + LEASE_GRACE_MS <= now
      )
        this.#leases.delete(name);
    }
  }

  /** The lease currently held under `name` (undefined when none or released). */
  #lease(name: string): StoredLease | undefined {
    const stored = this.#leases.get(name);
    return typeof stored === 'number' ? undefined : stored;
  }
}

function inboxSeenKey(conversationId: string, itemId: string): string {
  return compactString(`i\u0000${conversationId}\u0000${itemId}`);
}

/** Runs a synchronous operation as a promise; an unexpected throw becomes a rejection. */
function run<T>(operation: () => T): Promise<T> {
  try {
    return Promise.resolve(operation());
  } catch (error) {
    return Promise.reject(asError(error));
  }
}
