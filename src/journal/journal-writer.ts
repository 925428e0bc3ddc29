/**
 * Appends entries to a conversation's journal as the engine works on it. The entries go
 * into the working document and are stored by the engine's next `putConversation` of it,
 * together with the state they describe: an entry whose write never happened (a crash)
 * is gone with the state it described, and the retry writes it again.
 */
import type { Clock } from '../core/clock.js';
import type { ConversationDoc } from '../engine/conversation-doc.js';
import type { InboundMessage, Vars } from '../flows/contract.js';
import { isLaterStatus } from './delivery-notes.js';
import { ERROR_CHARS, type JournalEntry } from './journal-entry.js';
import {
  boundJournal,
  cutText,
  MAX_VARS_PER_ENTRY,
  previewText,
  type JournalOptions,
} from './journal.js';

/** An entry without its time (the writer stamps it). */
export type NewEntry = JournalEntry extends infer E
  ? E extends JournalEntry
    ? Omit<E, 'at'>
    : never
  : never;

/** What the flow looked like before a step (to journal what the step changed). */
export interface StepBefore {
  readonly flowId: string;
  readonly state: string;
  readonly vars: Vars;
  readonly started: boolean;
  readonly depth: number;
}

/**
 * The journal of one working document.
 * @example
 * const journal = new JournalWriter(doc, resolveJournalOptions(undefined), clock);
 * journal.note({ kind: 'timer', action: 'set', name: 'remind', dueAt: 1_700_000_000_000 });
 */
export class JournalWriter {
  readonly #doc: ConversationDoc;
  readonly #options: JournalOptions;
  readonly #clock: Clock;
  /** Entries noted since the last {@link takeDirty}. */
  #dirty = false;

  constructor(doc: ConversationDoc, options: JournalOptions, clock: Clock) {
    this.#doc = doc;
    this.#options = options;
    this.#clock = clock;
  }

  get options(): JournalOptions {
    return this.#options;
  }

  /** Appends one entry stamped now (nothing when the journal is off). */
  note(entry: NewEntry): void {
    if (!this.#options.enabled) return;
    const stamped = { ...entry, at: this.#clock.now() };
    const journal = this.#doc.journal ?? [];
    journal.push(stamped);
    this.#doc.journal = journal;
    this.#dirty = true;
  }

  /** Whether entries were noted since the last call (and resets it). */
  takeDirty(): boolean {
    const dirty = this.#dirty;
    this.#dirty = false;
    return dirty;
  }

  /** The journal cut to its bound; call before each write of the document. */
  bound(): void {
    const journal = this.#doc.journal;
    if (journal === undefined) return;
    if (!this.#options.enabled) {
      delete this.#doc.journal;
      return;
    }
    const kept = boundJournal(journal, this.#clock.now(), this.#options);
    if (kept.length === 0) delete this.#doc.journal;
    else if (kept !== journal) this.#doc.journal = kept;
  }

  /** An inbound message, once per message id (a retry after a crash does not repeat it). */
  inbound(message: InboundMessage, ignored?: 'human_owned' | 'history'): void {
    if (this.#has('inbound', message.id)) return;
    const text = previewText(
      message.text ?? message.label ?? message.media?.caption ?? message.location?.name,
      this.#options,
    );
    this.note({
      kind: 'inbound',
      messageId: message.id,
      type: message.type,
      ...(text === undefined ? {} : { text }),
      ...(message.optionId === undefined ? {} : { optionId: message.optionId }),
      ...(ignored === undefined ? {} : { ignored }),
    });
  }

  /** What the understander made of a message, once per message id. */
  understood(message: InboundMessage): void {
    const understood = message.understood;
    if (understood === undefined || this.#has('understood', message.id)) return;
    const { result, threshold } = understood;
    const slots = Object.keys(result.slots ?? {});
    this.note({
      kind: 'understood',
      messageId: message.id,
      source: result.source,
      ...(result.intent === undefined
        ? {}
        : { intent: result.intent.id, confidence: round(result.intent.confidence) }),
      matched: result.intent !== undefined && result.intent.confidence >= threshold,
      ...(slots.length === 0 ? {} : { slots: slots.slice(0, MAX_VARS_PER_ENTRY) }),
    });
  }

  /** What one step of the flow changed: start, sub-flow calls/returns, state, variables. */
  step(event: string, before: StepBefore, doc: ConversationDoc): void {
    const depth = doc.stack?.length ?? 0;
    if (!before.started) this.note({ kind: 'lifecycle', change: 'started', flowId: doc.flowId });
    else if (depth > before.depth)
      this.note({ kind: 'lifecycle', change: 'subflow_started', flowId: doc.flowId });
    else if (depth < before.depth)
      this.note({ kind: 'lifecycle', change: 'subflow_returned', flowId: doc.flowId });
    if (before.state !== doc.state || before.flowId !== doc.flowId)
      this.note({
        kind: 'transition',
        from: before.state,
        to: doc.state,
        event,
        flowId: doc.flowId,
      });
    this.#vars(before.vars, doc.vars);
  }

  /** A failure, its message cut to {@link ERROR_CHARS}. */
  error(
    source: 'flow' | 'machine' | 'send' | 'handler',
    message: string,
    extra: { code?: string; state?: string } = {},
  ): void {
    this.note({ kind: 'error', source, message: cutText(message, ERROR_CHARS), ...extra });
  }

  /**
   * The latest delivery status of an accepted send, on its entry (found by message id):
   * changes the working document only; the next write stores it.
   */
  deliveryStatus(messageId: string, status: string, code?: string): boolean {
    const journal = this.#doc.journal ?? [];
    for (let i = journal.length - 1; i >= 0; i--) {
      const entry = journal[i];
      if (entry?.kind !== 'send' || entry.messageId !== messageId) continue;
      if (entry.status !== undefined && !isLaterStatus(entry.status, status)) return false;
      const updated = { ...entry, status, ...(code === undefined ? {} : { code }) };
      journal[i] = updated;
      this.#dirty = true;
      return true;
    }
    return false;
  }

  #vars(before: Vars, after: Vars): void {
    const set: Record<string, Vars[string]> = {};
    const unset: string[] = [];
    let named = 0;
    for (const key of Object.keys(after)) {
      const value = after[key];
      if (value === undefined || Object.is(before[key], value)) continue;
      if (named++ >= MAX_VARS_PER_ENTRY) continue;
      set[key] = this.#options.texts
        ? typeof value === 'string'
          ? (previewText(value, this.#options) ?? '')
          : value
        : null;
    }
    for (const key of Object.keys(before))
      if (!Object.hasOwn(after, key) && unset.length < MAX_VARS_PER_ENTRY) unset.push(key);
    if (named === 0 && unset.length === 0) return;
    this.note({ kind: 'vars', set, ...(unset.length === 0 ? {} : { unset }) });
  }

  #has(kind: 'inbound' | 'understood', messageId: string): boolean {
    const journal = this.#doc.journal ?? [];
    for (let i = journal.length - 1; i >= 0 && i >= journal.length - 16; i--) {
      const entry = journal[i];
      if (entry?.kind === kind && entry.messageId === messageId) return true;
    }
    return false;
  }
}

/**
 * The text a person would read in outbound content, if any: a text's body, an
 * interactive message's body text, a media caption, a template's name.
 */
export function contentText(content: { readonly type: string }): string | undefined {
  const inner: unknown = Reflect.get(content, content.type);
  if (typeof inner !== 'object' || inner === null) return undefined;
  for (const key of ['body', 'caption', 'name', 'text']) {
    const value: unknown = Reflect.get(inner, key);
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && value !== null) {
      const text: unknown = Reflect.get(value, 'text');
      if (typeof text === 'string') return text;
    }
  }
  return undefined;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
