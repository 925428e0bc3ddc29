import type { ConversationDoc } from '../../engine/conversation-doc.js';
import { parseStoredDoc } from '../../engine/stored-doc.js';
import type { Store, TimerRecord } from '../../store/store.js';
import type { ConversationPage } from './sqlite-read-adapter.js';

/** Conversations the attached studio reads per look (the inbox shows the newest of them). */
export const DEFAULT_ATTACH_LIMIT = 1000;

/** Conversations read per listing call. */
const PAGE = 200;

/** One conversation of the attached store, parsed. */
export type AttachedConversation =
  | {
      readonly status: 'valid';
      readonly id: string;
      readonly version: number;
      readonly doc: ConversationDoc;
    }
  /** A document this code cannot read (shown as such: the studio stays up). */
  | {
      readonly status: 'invalid';
      readonly id: string;
      readonly version: number;
      readonly error: string;
    };

/** What one look at the store found. */
export interface AttachSnapshot {
  readonly conversations: readonly AttachedConversation[];
  /** More conversations exist than {@link AttachSourceOptions.limit} let it read. */
  readonly truncated: boolean;
}

/** Options of {@link AttachSource}. */
export interface AttachSourceOptions {
  /** Conversations read per look, at most (default {@link DEFAULT_ATTACH_LIMIT}). */
  readonly limit?: number;
}

/** The store lacks what attaching needs: what is missing. */
export class AttachSourceError extends Error {
  override readonly name = 'AttachSourceError';
}

/**
 * The attached studio's data: real conversations read from a production store through
 * the store contract's reads only (`listConversations`, `getConversation`), never a write
 * (the store it is given is wrapped by `readOnlyStore`).
 */
export class AttachSource {
  readonly #store: Store;
  readonly #limit: number;

  constructor(store: Store, options: AttachSourceOptions = {}) {
    this.#store = store;
    this.#limit = options.limit ?? DEFAULT_ATTACH_LIMIT;
  }

  /** Reads up to the limit of conversations, each parsed (an unreadable one says why). */
  async snapshot(): Promise<AttachSnapshot> {
    // ADAPTER until the journal contract's Store.listConversations is merged.
    const listing = this.#store as Store & {
      listConversations?: (cursor: string | undefined, limit: number) => Promise<ConversationPage>;
    };
    const list = listing.listConversations?.bind(listing);
    if (list === undefined)
      throw new AttachSourceError(
        'this store cannot list its conversations (Store.listConversations): upgrade switchboard',
      );
    const conversations: AttachedConversation[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(cursor, Math.min(PAGE, this.#limit - conversations.length));
      for (const item of page.items) conversations.push(parsed(item.id, item.version, item.value));
      cursor = page.cursor;
    } while (cursor !== undefined && conversations.length < this.#limit);
    return { conversations, truncated: cursor !== undefined };
  }

  /** One conversation, read now (undefined: no such conversation, or it expired). */
  async conversation(id: string): Promise<AttachedConversation | undefined> {
    const found = await this.#store.getConversation(id);
    return found === undefined ? undefined : parsed(id, found.version, found.value);
  }

  /** The pending timers of a conversation, when the store can list them (else empty). */
  async timers(id: string): Promise<readonly TimerRecord[]> {
    const withTimers = this.#store as Store & {
      timersOf?: (id: string) => Promise<TimerRecord[]>;
    };
    return (await withTimers.timersOf?.(id)) ?? [];
  }
}

function parsed(id: string, version: number, value: unknown): AttachedConversation {
  const result = parseStoredDoc(value);
  return result.status === 'valid'
    ? { status: 'valid', id, version, doc: result.doc }
    : { status: 'invalid', id, version, error: `conversation ${id}: ${result.error}` };
}
