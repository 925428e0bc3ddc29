/**
 * The Redis key layout of {@link RedisStore}. Keys of one conversation share the hash tag
 * `{<prefix>c:<conversationId>}` so a script touching them stays in one cluster slot;
 * the timer and send structures each share a tag too; other keys stand alone.
 */
export class RedisKeys {
  readonly #prefix: string;

  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** The keys of one conversation (one slot). */
  conversation(conversationId: string) {
    const tag = `{${this.#prefix}c:${conversationId}}`;
    return {
      /** Hash: `v` version, `d` document JSON. */
      doc: `${tag}:doc`,
      /** Hash of the lease `conv:<conversationId>`: owner, token, exp. */
      lease: `${tag}:lease`,
      /** String: dedup expiry (epoch ms) of an inbox item id. */
      seen: (itemId: string) => `${tag}:seen:${itemId}`,
      /** Zset: member `<16-digit arrival seq><id>`, score sortKey. */
      inbox: `${tag}:inbox`,
      /** Hash: item id -> zset member. */
      inboxMembers: `${tag}:inbox:m`,
      /** Hash: zset member -> item JSON. */
      inboxItems: `${tag}:inbox:v`,
      /** String: arrival counter, deleted when the inbox empties. */
      inboxSeq: `${tag}:inbox:seq`,
    };
  }

  /** SCAN pattern of every conversation document key. */
  get conversationDocPattern(): string {
    return `{${globEscape(this.#prefix)}c:*}:doc`;
  }

  /** The conversation id of a document key (undefined: not one). */
  conversationIdOfDocKey(key: string): string | undefined {
    const head = `{${this.#prefix}c:`;
    if (!key.startsWith(head) || !key.endsWith('}:doc')) return undefined;
    return key.slice(head.length, -'}:doc'.length);
  }

  /** Zset: conversations with a non-empty inbox, scored by first enqueue time. */
  get inboxes(): string {
    return `${this.#prefix}inboxes`;
  }

  /** String: expiry (epoch ms) of a `markSeen` key. */
  seen(key: string): string {
    return `${this.#prefix}seen:${key}`;
  }

  /** String: `{"e": expiresAt | null, "v": value}`. */
  value(key: string): string {
    return `${this.#prefix}v:${key}`;
  }

  /** Hash of a lease (owner, token, exp); conversation leases live in their slot. */
  lease(name: string): string {
    return name.startsWith('conv:')
      ? this.conversation(name.slice('conv:'.length)).lease
      : `${this.#prefix}lease:${name}`;
  }

  get timers() {
    const tag = `{${this.#prefix}timers}`;
    return {
      /** Zset: timer id scored by when it can be claimed (dueAt, or end of its claim). */
      due: `${tag}:due`,
      /** Hash: timer id -> TimerRecord JSON. */
      records: `${tag}:rec`,
      /** Hash: timer id -> dueAt, compared by completeTimer. */
      dueAt: `${tag}:dueat`,
    };
  }

  /** String: one send record's JSON, expiring with the send retention. */
  send(id: string): string {
    return `${this.#prefix}send:${id}`;
  }

  /** String: the send id that a message id belongs to, expiring with its record. */
  sendByMessageId(messageId: string): string {
    return `${this.#prefix}sendmid:${messageId}`;
  }

  /**
   * The send records of the first layout (one hash, never expiring): still read, so a
   * record written before an upgrade is found; never written.
   */
  get legacySends() {
    const tag = `{${this.#prefix}sends}`;
    return {
      /** Hash: send id -> SendRecord JSON. */
      records: `${tag}:rec`,
      /** Hash: messageId -> send id. */
      byMessageId: `${tag}:mid`,
    };
  }
}

/** A literal for a Redis glob pattern (`*`, `?`, `[`, `]`, `\\` escaped). */
export function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
