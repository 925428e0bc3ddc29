import type { Actor, AnyStateMachine } from 'xstate';
import type { ConversationDoc } from './conversation-doc.js';

/** A started actor kept between events, with what its persisted snapshot was stored as. */
export interface LiveActor {
  readonly actor: Actor<AnyStateMachine>;
  readonly machine: AnyStateMachine;
  /** An error the actor reported while handling the current event (set by its observer). */
  failure: unknown;
}

/** A cached actor and the stored document it matches. */
interface Entry {
  readonly live: LiveActor;
  /** Document version whose snapshot is this actor's persisted snapshot. */
  readonly version: number;
  /** Epoch and state path of that document (a second, cheap identity check). */
  readonly epoch: number;
  readonly state: string;
  /**
   * The document itself as the engine wrote it at `version` (so the next event can skip
   * reading it back); handed out once by {@link ActorCache.takeDoc}.
   */
  doc: ConversationDoc | undefined;
}

/** Which stored document a cached actor must match to be used. */
export interface ActorKey {
  readonly machine: AnyStateMachine;
  readonly version: number;
  readonly epoch: number;
  readonly state: string;
}

/**
 * Least-recently-used cache of live flow actors, one per conversation, so that an event
 * for a busy conversation skips restoring the actor from its persisted snapshot. An actor
 * is only ever used for the exact document version it produced (a write by anyone else
 * bumps the version, so the stored snapshot is restored instead); {@link take} removes
 * the entry, and the engine puts it back only after the new snapshot was stored.
 * @example
 * const cache = new ActorCache(1024);
 * const live = cache.take('c1', { machine, version: 7, epoch: 1, state: 'ask' });
 */
export class ActorCache {
  readonly #max: number;
  readonly #entries = new Map<string, Entry>();

  constructor(max: number) {
    this.#max = Math.max(0, Math.floor(max));
  }

  /** Number of actors held. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Removes and returns the conversation's actor when it matches `key`; an actor that
   * does not match is stopped and dropped.
   */
  take(conversationId: string, key: ActorKey): LiveActor | undefined {
    const entry = this.#entries.get(conversationId);
    if (entry === undefined) return undefined;
    this.#entries.delete(conversationId);
    const matches =
      entry.live.machine === key.machine &&
      entry.version === key.version &&
      entry.epoch === key.epoch &&
      entry.state === key.state;
    if (matches) return entry.live;
    entry.live.actor.stop();
    return undefined;
  }

  /**
   * Removes and returns the document kept with the conversation's actor (the actor stays):
   * its new owner may change it, so it is handed out once.
   */
  takeDoc(conversationId: string): { doc: ConversationDoc; version: number } | undefined {
    const entry = this.#entries.get(conversationId);
    const doc = entry?.doc;
    if (entry === undefined || doc === undefined) return undefined;
    entry.doc = undefined;
    return { doc, version: entry.version };
  }

  /**
   * Gives back a document taken with {@link takeDoc} and left unchanged (still at the
   * version of the kept actor's snapshot).
   */
  returnDoc(conversationId: string, loaded: { doc: ConversationDoc; version: number }): void {
    const entry = this.#entries.get(conversationId);
    if (entry !== undefined && entry.doc === undefined && entry.version === loaded.version)
      entry.doc = loaded.doc;
  }

  /**
   * The items `ids` of the conversation are acknowledged (gone from its inbox): the kept
   * document no longer needs them in `applied`, which only bridges a save and its ack.
   * Its next save writes the shorter list; a document read back from the store keeps all.
   */
  acked(conversationId: string, ids: readonly string[]): void {
    const doc = this.#entries.get(conversationId)?.doc;
    if (doc === undefined || doc.applied.length === 0) return;
    doc.applied = doc.applied.filter((id) => !ids.includes(id));
  }

  /**
   * Keeps an actor whose persisted snapshot is now stored as `key` (most recent use), with
   * the document written at that version when given.
   */
  put(
    conversationId: string,
    live: LiveActor,
    key: Omit<ActorKey, 'machine'>,
    doc?: ConversationDoc,
  ): void {
    if (this.#max === 0) {
      live.actor.stop();
      return;
    }
    const previous = this.#entries.get(conversationId);
    if (previous !== undefined) {
      this.#entries.delete(conversationId);
      if (previous.live !== live) previous.live.actor.stop();
    }
    this.#entries.set(conversationId, {
      live,
      version: key.version,
      epoch: key.epoch,
      state: key.state,
      doc,
    });
    if (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.drop(oldest.value);
    }
  }

  /** Stops and forgets the conversation's actor, if any. */
  drop(conversationId: string): void {
    const entry = this.#entries.get(conversationId);
    if (entry === undefined) return;
    this.#entries.delete(conversationId);
    entry.live.actor.stop();
  }

  /** Stops and forgets every actor. */
  clear(): void {
    for (const entry of this.#entries.values()) entry.live.actor.stop();
    this.#entries.clear();
  }
}
