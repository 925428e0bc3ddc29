import { z } from 'zod';
import { systemClock, type Clock } from '../core/clock.js';
import { RedisKeys } from './redis-keys.js';
import { listRedisConversations, redisConversationTimers } from './redis-listing.js';
import type { RedisClient } from './redis-script.js';
import { markWrite, waitForReplicas, type RedisDurability, type WriteMark } from './redis-wait.js';
import { StoreDataError } from './store-data-error.js';
import * as scripts from './redis-store-scripts.js';
import {
  parseStored,
  storedDocJsonSchema,
  storedDocSchema,
  storedInboxItemSchema,
  storedSendSchema,
  storedTimerSchema,
  storedValueSchema,
  validateStored,
} from './redis-store-schemas.js';
import {
  DEFAULT_RETENTION,
  LEASE_GRACE_MS,
  type AcquiredConversation,
  type AlongWrites,
  type CasResult,
  type ConversationPage,
  type InboxItem,
  type Lease,
  type SendRecord,
  type Store,
  type StoreRetention,
  type TimerRecord,
  UNCHANGED,
  type Versioned,
} from './store.js';
import { assertSortKey, toJson } from './to-json.js';

/** Options of {@link RedisStore}. */
export interface RedisStoreOptions {
  /** An ioredis client (or cluster) owned by the caller: `close()` leaves it open. */
  readonly redis: RedisClient;
  /** Prefix of every key, e.g. `switchboard:prod:`. */
  readonly prefix: string;
  /** Time source for every expiry (dedup, values, leases come with `now`). Default: wall clock. */
  readonly clock?: Clock;
  /** What expires when (defaults: {@link DEFAULT_RETENTION}). */
  readonly retention?: Partial<StoreRetention>;
  /**
   * Wait for replicas after the writes exactly-once depends on (inbox appends, document
   * compare-and-sets, send intents): `WAIT replicas timeoutMs` on the key's primary, so a
   * `kill -9` of that primary right after cannot lose them. Default: none (see
   * docs/scaling.md for the trade-off).
   */
  readonly durability?: RedisDurability;
}

/**
 * Real Redis TTLs only collect garbage; expiry is decided from stored timestamps and the
 * store's clock. The grace covers clock differences between workers and Redis.
 */
const GC_GRACE_MS = 60_000;

const casReply = z.union([
  z.tuple([z.literal('ok'), z.number()]),
  z.tuple([z.literal('conflict'), z.number()]),
  z.tuple([z.literal('fenced')]),
]);
const flag = z.union([z.literal(0), z.literal(1)]);
/** The cluster enqueue: 0 duplicate, 1 appended, 2 duplicate still in the inbox. */
const enqueueReply = z.union([z.literal(0), z.literal(1), z.literal(2)]);
const coercedNumber = z.coerce.number();
const aString = z.string();
const aNumber = z.number();
const leaseTokenReply = z.number().int().positive().nullable();
const nullableStrings = z.array(z.string().nullable());
/**
 * nil (held by another owner), or the token, the document's version and expiry (nil: no
 * document), whether the inbox has an item, and that item's JSON.
 */
const acquiredConversationReply = z
  .tuple([
    z.number().int().positive(),
    z.string().nullable(),
    z.string().nullable(),
    flag,
    z.string().nullable(),
  ])
  .nullable();
const inboxCountReply = z.number().int().nonnegative();

/**
 * A {@link Store} in Redis, shared by every worker. Multi-key and read-modify-write
 * operations are Lua scripts (redis-store-scripts.ts); keys of a conversation share a hash
 * tag so it works on Redis Cluster. Everything read back is validated with zod; a corrupt
 * value throws a `StoreDataError` naming the key. Workers need roughly synchronised
 * clocks: expiry is computed from the clock passed in, not from Redis time. Give it a
 * client with `enableAutoPipelining` (as `switchboard run` does): the commands of many
 * conversations then share socket writes.
 * @example
 * const redis = new Redis(process.env.REDIS_URL, { enableAutoPipelining: true });
 * const store = new RedisStore({ redis, prefix: 'bot:' });
 */
export class RedisStore implements Store {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;
  readonly #clock: Clock;
  readonly #retention: StoreRetention;
  /**
   * A single Redis node (not a cluster): a script may then also update the set of
   * conversations with an inbox (another slot), saving the round trips of doing it apart.
   */
  readonly #singleNode: boolean;
  readonly #durability: RedisDurability | undefined;

  constructor(options: RedisStoreOptions) {
    this.#redis = options.redis;
    this.#durability =
      options.durability === undefined || options.durability.replicas <= 0
        ? undefined
        : options.durability;
    this.#singleNode = !options.redis.isCluster;
    this.#keys = new RedisKeys(options.prefix);
    this.#clock = options.clock ?? systemClock;
    this.#retention = { ...DEFAULT_RETENTION, ...options.retention };
  }

  async getConversation(conversationId: string): Promise<Versioned<unknown> | undefined> {
    const key = this.#keys.conversation(conversationId).doc;
    const hash = await this.#redis.hgetall(key);
    if (Object.keys(hash).length === 0) return undefined;
    const doc = validateStored(key, hash, storedDocSchema);
    if (doc.e !== undefined && doc.e <= this.#clock.now()) return undefined;
    return { value: parseStored(key, doc.d, storedDocJsonSchema), version: doc.v };
  }

  async getConversationIfChanged(
    conversationId: string,
    knownVersion: number,
  ): Promise<Versioned<unknown> | typeof UNCHANGED | undefined> {
    const key = this.#keys.conversation(conversationId).doc;
    // The version and expiry alone (a few bytes); the document only when it changed.
    const [version, expiresAt] = await this.#redis.hmget(key, 'v', 'e');
    if (version === null) return undefined;
    if (expiresAt !== null && Number(expiresAt) <= this.#clock.now()) return undefined;
    if (Number(version) === knownVersion) return UNCHANGED;
    return this.getConversation(conversationId);
  }

  async putConversation(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence?: number,
  ): Promise<CasResult> {
    return this.#cas(conversationId, docJson(conversationId, value), expectedVersion, fence, []);
  }

  /**
   * Timer changes first, as {@link scheduleTimer} and {@link cancelTimer} make them (their
   * scripts, in order). Then, on a single node, one script makes the other `along` writes
   * and the document's (one round trip); on a cluster their keys are in other slots: they
   * are written first, then the document.
   */
  async putConversationWith(
    conversationId: string,
    value: unknown,
    expectedVersion: number,
    fence: number | undefined,
    along: AlongWrites,
  ): Promise<CasResult> {
    // The document is checked before anything is written: a bad value changes nothing.
    const json = docJson(conversationId, value);
    const sets = this.#sets(along);
    for (const t of along.timers ?? [])
      await (t.kind === 'cancel' ? this.cancelTimer(t.id) : this.scheduleTimer(t.timer));
    if (this.#singleNode || sets.length === 0)
      return this.#cas(conversationId, json, expectedVersion, fence, sets);
    await Promise.all(
      sets.map(([key, text, px]) =>
        px === '' ? this.#redis.set(key, text) : this.#redis.set(key, text, 'PX', px),
      ),
    );
    return this.#cas(conversationId, json, expectedVersion, fence, []);
  }

  /** The SETs of `along` as [key, value, real TTL ('' for none)], as putSend and setValue make them. */
  #sets(along: AlongWrites): [string, string, number | ''][] {
    const now = this.#clock.now();
    const sets: [string, string, number | ''][] = [];
    const ttl = this.#retention.sendRecordsMs;
    const e = now + ttl;
    for (const record of along.sends ?? []) {
      const json = toJson(record, `send record ${record.id}`);
      sets.push([this.#keys.send(record.id), `{"e":${e},"v":${json}}`, gcTtl(ttl)]);
      if (record.messageId !== undefined)
        sets.push([
          this.#keys.sendByMessageId(record.messageId),
          `{"e":${e},"v":${JSON.stringify(record.id)}}`,
          gcTtl(ttl),
        ]);
    }
    for (const { key, value, ttlMs } of along.values ?? []) {
      const json = toJson(value, `value ${key}`);
      sets.push(
        ttlMs === undefined
          ? [this.#keys.value(key), `{"e":null,"v":${json}}`, '']
          : [this.#keys.value(key), `{"e":${now + ttlMs},"v":${json}}`, gcTtl(ttlMs)],
      );
    }
    return sets;
  }

  /** The document's compare-and-set; with `sets` (single node only) those SETs before it. */
  async #cas(
    conversationId: string,
    json: string,
    expectedVersion: number,
    fence: number | undefined,
    sets: readonly (readonly [string, string, number | ''])[],
  ): Promise<CasResult> {
    const keys = this.#keys.conversation(conversationId);
    const now = this.#clock.now();
    const idle = this.#retention.idleConversationMs;
    const casArgs = [
      expectedVersion,
      json,
      fence === undefined ? '' : String(fence),
      now,
      now + idle,
      gcTtl(idle),
    ];
    const mark = this.#mark(keys.doc);
    const reply =
      sets.length === 0
        ? await scripts.casConversation.run(this.#redis, [keys.doc, keys.lease], casArgs)
        : await scripts.setThenCasIndexed.run(
            this.#redis,
            [keys.doc, keys.lease, ...sets.map(([key]) => key)],
            [...casArgs, ...sets.flatMap(([, text, px]) => [text, px])],
          );
    const result = validateStored(keys.doc, reply, casReply);
    if (result[0] === 'ok') {
      await this.#replicated(keys.doc, mark);
      return { status: 'ok', version: result[1] };
    }
    if (result[0] === 'conflict') return { status: 'conflict', currentVersion: result[1] };
    return { status: 'fenced' };
  }

  async deleteConversation(conversationId: string): Promise<void> {
    await this.#redis.del(this.#keys.conversation(conversationId).doc);
  }

  /** SCAN of the document keys, every primary of a cluster in turn (see redis-listing.ts). */
  listConversations(cursor: string | undefined, limit: number): Promise<ConversationPage> {
    return listRedisConversations(
      this.#redis,
      this.#keys,
      (id) => this.getConversation(id),
      cursor,
      limit,
    );
  }

  conversationTimers(conversationId: string): Promise<TimerRecord[]> {
    return redisConversationTimers(this.#redis, this.#keys, conversationId);
  }

  /**
   * The set of conversations with an inbox is scored by the end of the inbox's claim (the
   * time of listing, plus `claimMs` when given): {@link unclaimedInboxes} is a range by
   * score, and the order stays that of listing.
   */
  async enqueue(
    conversationId: string,
    item: InboxItem,
    dedupTtlMs: number,
    claimMs?: number,
  ): Promise<boolean> {
    assertSortKey(item);
    const payload = toJson(item.payload, `inbox item ${item.id}`);
    const json = `{"id":${JSON.stringify(item.id)},"sortKey":${item.sortKey},"payload":${payload}}`;
    const keys = this.#keys.conversation(conversationId);
    const now = this.#clock.now();
    const inboxKeys = [
      keys.seen(item.id),
      keys.inbox,
      keys.inboxMembers,
      keys.inboxItems,
      keys.inboxSeq,
    ];
    const args = [now, now + dedupTtlMs, gcTtl(dedupTtlMs), item.id, item.sortKey, json];
    const claimedUntil = claimMs !== undefined && claimMs > 0 ? now + claimMs : now;
    const mark = this.#mark(keys.inbox);
    if (this.#singleNode) {
      // One round trip: the append and the set of conversations with an inbox together.
      const reply = await scripts.enqueueIndexed.run(
        this.#redis,
        [...inboxKeys, this.#keys.inboxes],
        [...args, conversationId, claimedUntil],
      );
      const appended = validateStored(keys.inbox, reply, flag) === 1;
      if (appended) await this.#replicated(keys.inbox, mark);
      else await this.#duplicateReplicated(keys.seen(item.id), dedupTtlMs);
      return appended;
    }
    const reply = await scripts.enqueue.run(this.#redis, inboxKeys, args);
    const outcome = validateStored(keys.inbox, reply, enqueueReply);
    if (outcome === 1) await this.#replicated(keys.inbox, mark);
    else await this.#duplicateReplicated(keys.seen(item.id), dedupTtlMs);
    if (outcome === 0) return false;
    // After the append, so a concurrent ack that empties the inbox re-adds it (see ackInbox).
    // A duplicate still in the inbox is listed again (its first enqueue may have died here),
    // unclaimed: nobody schedules a duplicate.
    const listed = this.#mark(this.#keys.inboxes);
    const score = outcome === 1 ? claimedUntil : now;
    await this.#redis.zadd(this.#keys.inboxes, 'NX', score, conversationId);
    // Lost with its primary, the listing would leave the item unseen until a redelivery.
    await this.#replicated(this.#keys.inboxes, listed);
    return outcome === 1;
  }

  async peekInbox(conversationId: string, limit: number): Promise<InboxItem[]> {
    if (limit <= 0) return [];
    const keys = this.#keys.conversation(conversationId);
    const reply = await scripts.peekInbox.run(this.#redis, [keys.inbox, keys.inboxItems], [limit]);
    return validateStored(keys.inbox, reply, nullableStrings).map((text) => {
      if (text === null) throw new StoreDataError(keys.inboxItems, 'an inbox entry has no item');
      return parseStored(keys.inboxItems, text, storedInboxItemSchema);
    });
  }

  async ackInbox(conversationId: string, ids: readonly string[]): Promise<number | void> {
    if (ids.length === 0) return;
    const keys = this.#keys.conversation(conversationId);
    const inboxKeys = [keys.inbox, keys.inboxMembers, keys.inboxItems, keys.inboxSeq];
    if (this.#singleNode) {
      // One round trip; the set is updated atomically with the inbox (see enqueue).
      return validateStored(
        keys.inbox,
        await scripts.ackInboxIndexed.run(
          this.#redis,
          [...inboxKeys, this.#keys.inboxes],
          [conversationId, ...ids],
        ),
        aNumber,
      );
    }
    const left = validateStored(
      keys.inbox,
      await scripts.ackInbox.run(this.#redis, inboxKeys, ids),
      aNumber,
    );
    if (left > 0) return left;
    return this.#unlistEmptied(conversationId);
  }

  /**
   * Cluster path, after an ack emptied a conversation's inbox: the set of conversations
   * with an inbox is another slot, so no script can update it with the inbox. Remove, then
   * look again: an enqueue that slipped in between is put back (by us or by itself).
   * Answers the inbox's size after that look.
   */
  async #unlistEmptied(conversationId: string): Promise<number> {
    await this.#redis.zrem(this.#keys.inboxes, conversationId);
    const now = await this.#redis.zcard(this.#keys.conversation(conversationId).inbox);
    if (now > 0)
      await this.#redis.zadd(this.#keys.inboxes, 'NX', this.#clock.now(), conversationId);
    return now;
  }

  async conversationsWithInbox(limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    return this.#redis.zrange(this.#keys.inboxes, 0, limit - 1);
  }

  /** One range by score of the set of conversations with an inbox (see {@link enqueue}). */
  async unclaimedInboxes(limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    const now = this.#clock.now();
    return this.#redis.zrangebyscore(this.#keys.inboxes, '-inf', now, 'LIMIT', 0, limit);
  }

  async markSeen(key: string, ttlMs: number): Promise<boolean> {
    const redisKey = this.#keys.seen(key);
    const now = this.#clock.now();
    const reply = await scripts.markSeen.run(
      this.#redis,
      [redisKey],
      [now, now + ttlMs, gcTtl(ttlMs)],
    );
    return validateStored(redisKey, reply, flag) === 1;
  }

  async getValue(key: string): Promise<unknown> {
    const redisKey = this.#keys.value(key);
    const text = await this.#redis.get(redisKey);
    if (text === null) return undefined;
    return this.#unexpired(redisKey, text);
  }

  async setValue(key: string, value: unknown, ttlMs?: number): Promise<void> {
    const redisKey = this.#keys.value(key);
    const json = toJson(value, `value ${key}`);
    if (ttlMs === undefined) {
      await this.#redis.set(redisKey, `{"e":null,"v":${json}}`);
      return;
    }
    const e = this.#clock.now() + ttlMs;
    await this.#redis.set(redisKey, `{"e":${e},"v":${json}}`, 'PX', gcTtl(ttlMs));
  }

  async deleteValue(key: string): Promise<void> {
    await this.#redis.del(this.#keys.value(key));
  }

  async setValueIfAbsent(key: string, value: unknown): Promise<unknown> {
    const redisKey = this.#keys.value(key);
    const envelope = `{"e":null,"v":${toJson(value, `value ${key}`)}}`;
    // One key, one script: atomic, and cluster-safe (a single slot).
    const stored = await scripts.setValueIfAbsent.run(
      this.#redis,
      [redisKey],
      [envelope, String(this.#clock.now())],
    );
    return this.#unexpired(redisKey, validateStored(redisKey, stored, aString));
  }

  async scheduleTimer(timer: TimerRecord): Promise<void> {
    const record: TimerRecord = {
      id: timer.id,
      conversationId: timer.conversationId,
      name: timer.name,
      dueAt: timer.dueAt,
    };
    const keys = this.#keys.timers;
    const mark = this.#mark(keys.due);
    await scripts.scheduleTimer.run(
      this.#redis,
      [keys.due, keys.records, keys.dueAt],
      [timer.id, String(timer.dueAt), toJson(record, `timer ${timer.id}`)],
    );
    // Lost with its primary, a timer never fires: a flow's timeout, or the next
    // reconciliation of an unknown send (whose answer would then never come).
    await this.#replicated(keys.due, mark);
  }

  async cancelTimer(id: string): Promise<void> {
    const keys = this.#keys.timers;
    const mark = this.#mark(keys.due);
    await scripts.cancelTimer.run(this.#redis, [keys.due, keys.records, keys.dueAt], [id]);
    // Lost, a cancelled timeout would fire after all.
    await this.#replicated(keys.due, mark);
  }

  async claimDueTimers(now: number, limit: number, claimMs: number): Promise<TimerRecord[]> {
    if (limit <= 0) return [];
    const keys = this.#keys.timers;
    const reply = await scripts.claimDueTimers.run(
      this.#redis,
      [keys.due, keys.records],
      [now, limit, now + claimMs],
    );
    return validateStored(keys.due, reply, nullableStrings).flatMap((text) =>
      // A record deleted under a due entry cannot happen (scripts change both); skip if so.
      text === null ? [] : [parseStored(keys.records, text, storedTimerSchema)],
    );
  }

  async completeTimer(id: string, dueAt: number): Promise<void> {
    const keys = this.#keys.timers;
    await scripts.completeTimer.run(
      this.#redis,
      [keys.due, keys.records, keys.dueAt],
      [id, String(dueAt)],
    );
  }

  /** The earliest time a claim can return a timer (for a claimed one: when its claim ends). */
  async nextTimerDue(): Promise<number | undefined> {
    const key = this.#keys.timers.due;
    const reply = await this.#redis.zrange(key, 0, 0, 'WITHSCORES');
    if (reply.length === 0) return undefined;
    return validateStored(key, reply[1], coercedNumber);
  }

  async putSend(record: SendRecord): Promise<void> {
    const mark = this.#mark(this.#keys.send(record.id));
    const json = toJson(record, `send record ${record.id}`);
    const ttl = this.#retention.sendRecordsMs;
    const e = this.#clock.now() + ttl;
    // Two keys in two slots (no pipeline on a cluster): the index is checked on read.
    await Promise.all([
      this.#redis.set(this.#keys.send(record.id), `{"e":${e},"v":${json}}`, 'PX', gcTtl(ttl)),
      record.messageId === undefined
        ? undefined
        : this.#redis.set(
            this.#keys.sendByMessageId(record.messageId),
            `{"e":${e},"v":${JSON.stringify(record.id)}}`,
            'PX',
            gcTtl(ttl),
          ),
    ]);
    // The intent before a POST: lost, a retry would not know the POST may have gone out.
    if (record.state === 'pending' || record.state === 'unknown')
      await this.#replicated(this.#keys.send(record.id), mark);
  }

  /** With {@link RedisStoreOptions.durability}: the connection a write of `key` takes. */
  #mark(key: string): WriteMark | undefined {
    return this.#durability === undefined ? undefined : markWrite(this.#redis, key);
  }

  /**
   * With {@link RedisStoreOptions.durability}: waits until replicas hold `key`'s write made
   * after `mark` (on that same connection).
   */
  async #replicated(key: string, mark: WriteMark | undefined): Promise<void> {
    if (this.#durability !== undefined)
      await waitForReplicas(this.#redis, key, this.#durability, mark);
  }

  /**
   * With {@link RedisStoreOptions.durability}: a duplicate's answer relies on the first
   * delivery's write, which another connection may have made and a failover may still drop.
   * A write of our own on the same primary (the dedup marker's garbage-collection TTL,
   * set again) orders after it in the replication stream, so its WAIT covers both.
   */
  async #duplicateReplicated(seenKey: string, dedupTtlMs: number): Promise<void> {
    if (this.#durability === undefined) return;
    const mark = this.#mark(seenKey);
    await this.#redis.pexpire(seenKey, gcTtl(dedupTtlMs));
    await this.#replicated(seenKey, mark);
  }

  async getSend(id: string): Promise<SendRecord | undefined> {
    const key = this.#keys.send(id);
    const legacy = this.#keys.legacySends.records;
    const [text, old] = await Promise.all([this.#redis.get(key), this.#redis.hget(legacy, id)]);
    if (text !== null) {
      const stored = this.#unexpired(key, text);
      return stored === undefined ? undefined : validateStored(key, stored, storedSendSchema);
    }
    return old === null ? undefined : parseStored(legacy, old, storedSendSchema);
  }

  async findSendByMessageId(messageId: string): Promise<SendRecord | undefined> {
    const key = this.#keys.sendByMessageId(messageId);
    const [text, old] = await Promise.all([
      this.#redis.get(key),
      this.#redis.hget(this.#keys.legacySends.byMessageId, messageId),
    ]);
    const id = text === null ? old : this.#unexpired(key, text);
    const sendId = id === null || id === undefined ? undefined : validateStored(key, id, aString);
    const record = sendId === undefined ? undefined : await this.getSend(sendId);
    return record?.messageId === messageId ? record : undefined;
  }

  /** The value of an expiry envelope, or undefined when it expired at the store's clock. */
  #unexpired(key: string, text: string): unknown {
    const stored = parseStored(key, text, storedValueSchema);
    return stored.e !== null && stored.e <= this.#clock.now() ? undefined : stored.v;
  }

  async acquireLease(
    name: string,
    owner: string,
    ttlMs: number,
    now: number,
  ): Promise<Lease | undefined> {
    const key = this.#keys.lease(name);
    const { args, expiresAt } = leaseArgs(owner, ttlMs, now);
    const mark = this.#mark(key);
    const reply = await scripts.acquireLease.run(this.#redis, [key], args);
    const token = validateStored(key, reply, leaseTokenReply);
    if (token === null) return undefined;
    // A renewal lost with its primary shortens the lease behind its holder's back: another
    // worker could take it while the holder still sends (sends are not fenced).
    await this.#replicated(key, mark);
    return { name, owner, token, expiresAt };
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await scripts.releaseLease.run(this.#redis, [this.#keys.lease(name)], [owner, LEASE_GRACE_MS]);
  }

  /**
   * The lease, the first inbox item and the document's version in one script (the keys
   * share the conversation's slot).
   */
  async acquireConversation(
    conversationId: string,
    owner: string,
    ttlMs: number,
    now: number,
  ): Promise<AcquiredConversation | undefined> {
    const keys = this.#keys.conversation(conversationId);
    const { args, expiresAt } = leaseArgs(owner, ttlMs, now);
    const mark = this.#mark(keys.lease);
    const reply = await scripts.acquireConversation.run(
      this.#redis,
      [keys.lease, keys.inbox, keys.inboxItems, keys.doc],
      args,
    );
    const taken = validateStored(keys.lease, reply, acquiredConversationReply);
    if (taken === null) return undefined;
    // Lost with its primary, the lease (and its fencing token, counted again from 1) would
    // let a second worker run the same conversation's pending sends at once.
    await this.#replicated(keys.lease, mark);
    const [token, version, docExpiresAt, hasItem, first] = taken;
    const lease = { name: `conv:${conversationId}`, owner, token, expiresAt };
    const docVersion =
      version === null || (docExpiresAt !== null && Number(docExpiresAt) <= this.#clock.now())
        ? 0
        : validateStored(keys.doc, version, coercedNumber);
    if (hasItem === 0) return { lease, first: undefined, docVersion };
    if (first === null) throw new StoreDataError(keys.inboxItems, 'an inbox entry has no item');
    return {
      lease,
      first: parseStored(keys.inboxItems, first, storedInboxItemSchema),
      docVersion,
    };
  }

  /** Releases the lease and counts the inbox in one script. */
  async releaseConversation(conversationId: string, owner: string): Promise<number> {
    const keys = this.#keys.conversation(conversationId);
    const reply = await scripts.releaseConversation.run(
      this.#redis,
      [keys.lease, keys.inbox],
      [owner, LEASE_GRACE_MS],
    );
    return validateStored(keys.inbox, reply, inboxCountReply);
  }

  /** Acks and, when the inbox is left empty, releases the lease, in one script. */
  async ackAndRelease(
    conversationId: string,
    ids: readonly string[],
    owner: string,
  ): Promise<number> {
    const keys = this.#keys.conversation(conversationId);
    const ackKeys = [keys.inbox, keys.inboxMembers, keys.inboxItems, keys.inboxSeq, keys.lease];
    if (this.#singleNode) {
      const reply = await scripts.ackAndReleaseIndexed.run(
        this.#redis,
        [...ackKeys, this.#keys.inboxes],
        [owner, LEASE_GRACE_MS, conversationId, ...ids],
      );
      return validateStored(keys.inbox, reply, inboxCountReply);
    }
    const left = validateStored(
      keys.inbox,
      await scripts.ackAndRelease.run(this.#redis, ackKeys, [owner, LEASE_GRACE_MS, ...ids]),
      inboxCountReply,
    );
    if (left > 0) return left;
    // The count the script saw is the answer: the lease went with it, and an item enqueued
    // since is the enqueuer's to schedule.
    await this.#unlistEmptied(conversationId);
    return 0;
  }

  /** Nothing to close: the Redis client is the caller's. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The ARGV of a lease-taking script (owner, now, expiry, real TTL with the grace) and the
 * lease's expiry. An empty owner is refused (it means "released" in the hash).
 */
function leaseArgs(
  owner: string,
  ttlMs: number,
  now: number,
): { args: (string | number)[]; expiresAt: number } {
  if (owner === '') throw new RangeError('A lease owner must not be empty');
  const expiresAt = now + ttlMs;
  return {
    args: [owner, now, expiresAt, Math.max(1, Math.ceil(ttlMs)) + LEASE_GRACE_MS],
    expiresAt,
  };
}

/** Real TTL of a key whose logical expiry is `ttlMs` away: always positive. */
/** A conversation document's JSON (a TypeError naming it when it is not JSON). */
function docJson(conversationId: string, value: unknown): string {
  return toJson(value, `conversation ${conversationId}`);
}

function gcTtl(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs)) + GC_GRACE_MS;
}
