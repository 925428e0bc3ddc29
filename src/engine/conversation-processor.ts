import type { ContactInfo } from '../flows/contract.js';
import { UNCHANGED, type InboxItem, type Versioned } from '../store/store.js';
import { ActorCache } from './actor-cache.js';
import { InboxPayloadSchema, type ConversationDoc, type InboxPayload } from './conversation-doc.js';
import { ConversationRun, type Loaded } from './conversation-run.js';
import type { EngineDeps } from './engine-deps.js';
import { conversationListWrite, epochFloorKey } from './contact-memory.js';
import { parseStoredDoc } from './stored-doc.js';

export { ConversationConflictError } from './conversation-run.js';

/** Live actors kept by default (see {@link ActorCache}). */
export const ACTOR_CACHE_SIZE = 1024;

/**
 * Processes one inbox item of one conversation (the caller holds the conversation's
 * lease): load the document, feed the event to the machine, persist with CAS (recording
 * the item as applied in the same write), then carry out the new effects, persisting
 * progress after each one. An item the document already records is not applied again. The actors of recently
 * active conversations stay running in an LRU cache, used only while the stored
 * document is still the one they produced.
 */
export class ConversationProcessor {
  readonly #deps: EngineDeps;
  readonly #actors: ActorCache;

  constructor(deps: EngineDeps, actorCacheSize = ACTOR_CACHE_SIZE) {
    this.#deps = deps;
    this.#actors = new ActorCache(actorCacheSize);
  }

  /** The items `ids` were acknowledged: the kept document stops carrying them (see ActorCache). */
  acked(conversationId: string, ids: readonly string[]): void {
    this.#actors.acked(conversationId, ids);
  }

  /** Stops the cached actors (the bot stopped). */
  clear(): void {
    this.#actors.clear();
  }

  /** Loads and validates a conversation document. */
  async load(conversationId: string): Promise<Loaded | undefined> {
    return this.#parse(conversationId, await this.#deps.store.getConversation(conversationId));
  }

  /**
   * Loads the document for processing: the one this engine wrote last, kept with the
   * conversation's live actor, when it is still the stored version (nothing read, parsed
   * or validated); otherwise as {@link load}. `docVersion`: the stored version as the
   * store told it with the lease (no question asked then).
   */
  async #loadForRun(conversationId: string, docVersion?: number): Promise<Loaded | undefined> {
    const kept = this.#actors.takeDoc(conversationId);
    if (docVersion !== undefined) {
      if (docVersion === 0) return undefined;
      if (kept?.version === docVersion) return { doc: kept.doc, version: kept.version };
      return this.load(conversationId);
    }
    if (kept === undefined || this.#deps.store.getConversationIfChanged === undefined)
      return this.load(conversationId);
    const stored = await this.#deps.store.getConversationIfChanged(conversationId, kept.version);
    if (stored === UNCHANGED) return { doc: kept.doc, version: kept.version };
    return this.#parse(conversationId, stored);
  }

  #parse(conversationId: string, stored: Versioned<unknown> | undefined): Loaded | undefined {
    if (stored === undefined) return undefined;
    const parsed = parseStoredDoc(stored.value);
    if (parsed.status === 'invalid') {
      throw new Error(
        `conversation ${conversationId}: stored document is invalid: ${parsed.error}`,
      );
    }
    // A damaged journal entry only describes the state: the conversation goes on without it.
    for (const error of parsed.journalErrors ?? [])
      this.#deps.logger.warn(`conversation ${conversationId}: ${error}; dropped from the journal`, {
        conversationId,
      });
    return { doc: parsed.doc, version: stored.version };
  }

  /**
   * Processes one item under the lease with token `fence`. `docVersion`: the document's
   * stored version read together with the lease (0: none), if the store told it.
   */
  async process(
    conversationId: string,
    item: InboxItem,
    fence: number,
    docVersion?: number,
  ): Promise<void> {
    const parsed = InboxPayloadSchema.safeParse(item.payload);
    if (!parsed.success) {
      this.#deps.logger.error('dropping an invalid inbox item', {
        conversationId,
        itemId: item.id,
      });
      return;
    }
    const payload = parsed.data;
    const loaded =
      (await this.#loadForRun(conversationId, docVersion)) ??
      (await this.#fresh(conversationId, payload));
    if (loaded === undefined) {
      this.#deps.logger.debug('event for an unknown conversation ignored', {
        conversationId,
        itemId: item.id,
      });
      return;
    }
    this.#deps.tracing?.annotateTurn(loaded.doc, 'before');
    const run = new ConversationRun(this.#deps, this.#actors, conversationId, loaded, fence);
    // Remember every conversation of a contact, the latest last: bot.notify / bot.start
    // find it there, and forgetContact erases them all. Written with the new document.
    if (loaded.version === 0 && (payload.kind === 'inbound' || payload.kind === 'event')) {
      const phone = payload.contact.phone;
      run.writeAlong(await conversationListWrite(this.#deps.store, phone, conversationId));
    }
    try {
      // A crash may have left effects of the previous event unexecuted.
      await run.runPending();
      // Applied before a crash (its state was saved, its ack was not): never again.
      if (loaded.doc.applied.includes(item.id)) {
        this.#deps.logger.debug('item already applied; finishing its effects only', {
          conversationId,
          itemId: item.id,
        });
        this.#actors.returnDoc(conversationId, loaded);
        return;
      }
      await run.apply(payload, item.id);
      this.#deps.tracing?.annotateTurn(loaded.doc, 'after');
      // Every path of apply ends with a save after its sends; this only makes sure.
      await run.settleRecords();
      run.keepActor();
    } catch (error) {
      // Sends accepted before the failure still get their records (a retry then finds
      // them done instead of reconciling them from history); the failure is the one told.
      await run.settleRecords().catch(() => undefined);
      throw error;
    } finally {
      run.dispose();
    }
  }

  async #fresh(conversationId: string, payload: InboxPayload): Promise<Loaded | undefined> {
    const contact: ContactInfo | undefined =
      payload.kind === 'inbound' || payload.kind === 'event'
        ? payload.contact
        : payload.kind === 'ownership'
          ? payload.contact
          : undefined;
    if (contact === undefined) return undefined;
    const flow = this.#deps.entry;
    // After an erasure (forgetContact) the conversation starts above its old epoch.
    const floor = await this.#deps.store.getValue(epochFloorKey(conversationId));
    const doc: ConversationDoc = {
      flowId: flow.id,
      flowVersion: flow.version,
      // Runs of a conversation count up from the time its document was created, so a
      // document created again (expired, or erased) never reuses the send record ids
      // (`<conversation>:<epoch>:<seq>`) of an earlier one still kept; after an erasure
      // also above the erased document's epoch (forgetContact records it).
      epoch: Math.max(
        Math.floor(this.#deps.clock.now()),
        typeof floor === 'number' && Number.isSafeInteger(floor) ? floor : 0,
      ),
      snapshot: null,
      pending: [],
      lastEffectSeq: 0,
      contact,
      humanOwned: false,
      heldSends: [],
      state: '',
      vars: {},
      ended: false,
      applied: [],
    };
    return { doc, version: 0 };
  }
}
