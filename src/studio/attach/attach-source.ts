import type { ConversationDoc } from '../../engine/conversation-doc.js';
import { parseStoredDoc } from '../../engine/stored-doc.js';
import {
  readConversationView,
  type ConversationReader,
  type InspectResult,
} from '../../journal/conversation-view.js';
import type { Store } from '../../store/store.js';

/** Conversations the attached studio reads per look (the inbox shows the newest of them). */
export const DEFAULT_ATTACH_LIMIT = 1000;

/** Conversations asked per listing call. */
const PAGE = 200;

/**
 * What the attached studio reads: the journal contract's reader (a `Store`, or the
 * read-only `SqliteStateReader`) with its listing.
 */
export type AttachReader = ConversationReader & Pick<Required<Store>, 'listConversations'>;

/** One listed conversation, parsed. */
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
  /** More conversations exist than the limit let it read. */
  readonly truncated: boolean;
}

/**
 * The attached studio's data: real conversations read through the journal contract's
 * reads only (`listConversations`, `readConversationView`), never a write (the reader it
 * is given is wrapped by `readOnlyStore`).
 */
export class AttachSource {
  readonly #reader: AttachReader;
  readonly #limit: number;

  constructor(reader: AttachReader, options: { readonly limit?: number } = {}) {
    this.#reader = reader;
    this.#limit = options.limit ?? DEFAULT_ATTACH_LIMIT;
  }

  /** Reads up to the limit of conversations, each parsed (an unreadable one says why). */
  async snapshot(): Promise<AttachSnapshot> {
    const conversations: AttachedConversation[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#reader.listConversations(
        cursor,
        Math.min(PAGE, this.#limit - conversations.length),
      );
      for (const item of page.items) {
        if (conversations.length >= this.#limit) break;
        const parsed = parseStoredDoc(item.value);
        conversations.push(
          parsed.status === 'valid'
            ? { status: 'valid', id: item.id, version: item.version, doc: parsed.doc }
            : {
                status: 'invalid',
                id: item.id,
                version: item.version,
                error: `conversation ${item.id}: ${parsed.error}`,
              },
        );
      }
      cursor = page.cursor;
    } while (cursor !== undefined && conversations.length < this.#limit);
    return { conversations, truncated: cursor !== undefined };
  }

  /** One conversation as an operator sees it: state, variables, timers, the journal. */
  conversation(id: string, now: number): Promise<InspectResult> {
    return readConversationView(this.#reader, id, { now });
  }
}
