import type { FlowEvent } from '../flows/contract.js';
import type { ConversationDoc } from './conversation-doc.js';
import { SERVICE_WINDOW_MS, type EngineDeps } from './engine-deps.js';
import { saveContactMemory } from './contact-memory.js';
import { runHandler } from './run-handler.js';
import { sendMessage, sendRecordId, type SendOutcome } from './send-adapter.js';
import type { z } from 'zod';
import type { EffectSchema, SendEffectSchema } from './schemas.js';
import type { SendRecord, TimerWrite } from '../store/store.js';
import { DEFAULT_JOURNAL } from '../journal/journal.js';
import { contentText, JournalWriter } from '../journal/journal-writer.js';
import { cutText, previewText } from '../journal/journal.js';
import { ERROR_CHARS } from '../journal/journal-entry.js';

/**
 * Inbox sort key of continuations: a handler's result, a send's rejection, a first
 * reconciliation. They finish the event being processed, so they go before any inbound
 * message that arrived meanwhile (which would otherwise meet a flow still waiting on
 * its call, and be ignored).
 */
const CONTINUATION_SORT_KEY = 0;

type AnyEffect = z.infer<typeof EffectSchema>;
type SendEffect = z.infer<typeof SendEffectSchema>;

/**
 * Carries out the effects of one conversation, in order, against its working document.
 * Results that the flow must hear about (handler results, send failures, window events)
 * are enqueued as inbox items, so they are durable and ordered with everything else.
 */
export class EffectExecutor {
  readonly #deps: EngineDeps;
  readonly #conversationId: string;
  readonly #doc: ConversationDoc;
  readonly #journal: JournalWriter;
  /** `accepted` send records not written yet (see `SendJob.defer`). */
  #accepted: SendRecord[] = [];
  /** Timer changes not written yet, in order: they go with the next document write. */
  #timers: TimerWrite[] = [];

  constructor(
    deps: EngineDeps,
    conversationId: string,
    doc: ConversationDoc,
    journal = new JournalWriter(doc, deps.journal ?? DEFAULT_JOURNAL, deps.clock),
  ) {
    this.#deps = deps;
    this.#conversationId = conversationId;
    this.#doc = doc;
    this.#journal = journal;
  }

  /**
   * Runs one effect; returns a short outcome label for observability. `fresh`: the effect
   * comes from this run's own step (see `SendJob.fresh` in send-adapter.ts).
   */
  async execute(effect: AnyEffect, fresh = false): Promise<string> {
    const outcome = await this.#execute(effect, fresh);
    this.#deps.emit('effect', {
      conversationId: this.#conversationId,
      effect,
      outcome,
    });
    return outcome;
  }

  /**
   * The writes of the effects so far that wait for the next document write: the `accepted`
   * records of the sends (see `SendJob.defer`) and the timer changes, in order. The caller
   * writes them with the document, or before it, and then calls {@link written}.
   */
  get unwritten(): {
    readonly sends: readonly SendRecord[];
    readonly timers: readonly TimerWrite[];
  } {
    return { sends: this.#accepted, timers: this.#timers };
  }

  /** The first `sends` records and `timers` timer changes of {@link unwritten} are written. */
  written(sends: number, timers: number): void {
    this.#accepted = this.#accepted.slice(sends);
    this.#timers = this.#timers.slice(timers);
  }

  /** Makes the writes of {@link unwritten}, each a write of its own. */
  async settleRecords(): Promise<void> {
    const { sends, timers } = this.unwritten;
    if (sends.length === 0 && timers.length === 0) return;
    const store = this.#deps.store;
    await Promise.all([
      ...sends.map((record) => store.putSend(record)),
      (async () => {
        for (const t of timers)
          await (t.kind === 'cancel' ? store.cancelTimer(t.id) : store.scheduleTimer(t.timer));
      })(),
    ]);
    this.written(sends.length, timers.length);
  }

  /** Sends held by the `wait` window rule, now that the contact wrote again. */
  async flushHeld(): Promise<void> {
    const held = this.#doc.heldSends;
    this.#doc.heldSends = [];
    for (const effect of held) await this.execute(effect);
  }

  async #execute(effect: AnyEffect, fresh: boolean): Promise<string> {
    const doc = this.#doc;
    const id = this.#conversationId;
    switch (effect.kind) {
      case 'send':
        return this.#send(effect, fresh);
      case 'call': {
        const call = (): ReturnType<typeof runHandler> =>
          runHandler(this.#deps, {
            conversationId: id,
            handler: effect.handler,
            requestId: effect.requestId,
            input: { ...effect.input },
            // Copies: the handler must not reach the flow's own (possibly live) context.
            vars: { ...doc.vars },
            contact: doc.contact,
            timeoutMs: effect.timeoutMs,
          });
        const tracing = this.#deps.tracing;
        const startedAt = this.#deps.clock.now();
        const event = await (tracing === undefined
          ? call()
          : tracing.handler(id, effect.handler, doc, call));
        const durationMs = Math.max(0, this.#deps.clock.now() - startedAt);
        const base = {
          kind: 'handler',
          handler: effect.handler,
          requestId: effect.requestId,
          durationMs,
        } as const;
        if (event.type === 'handler.done')
          this.#journal.note({ ...base, status: 'done', outcome: event.outcome });
        else if (event.type === 'handler.error')
          this.#journal.note({
            ...base,
            status: event.reason,
            error: cutText(event.message, ERROR_CHARS),
          });
        await this.#feedLater(`handler:${id}:${doc.epoch}:${effect.requestId}`, event);
        return event.type;
      }
      case 'timer.start': {
        const dueAt = effect.at ?? this.#deps.clock.now() + effect.delayMs;
        // Written with the document write that follows this effect (see runPending).
        this.#timers.push({
          kind: 'schedule',
          timer: { id: `${id}:${effect.name}`, conversationId: id, name: effect.name, dueAt },
        });
        this.#journal.note({ kind: 'timer', action: 'set', name: effect.name, dueAt });
        return 'scheduled';
      }
      case 'timer.cancel':
        this.#timers.push({ kind: 'cancel', id: `${id}:${effect.name}` });
        this.#journal.note({ kind: 'timer', action: 'cancelled', name: effect.name });
        return 'cancelled';
      case 'handoff.request':
        this.#journal.note({
          kind: 'handoff',
          change: 'requested',
          by: 'flow',
          ...(effect.reason === undefined ? {} : { reason: effect.reason }),
        });
        this.#deps.logger.info('flow asked for a person', {
          conversationId: id,
          reason: effect.reason,
        });
        return 'noted';
      case 'end':
        doc.snapshot = null;
        doc.ended = true;
        this.#journal.note({ kind: 'lifecycle', change: 'ended', flowId: doc.flowId });
        return 'ended';
      case 'flow.call':
        // Carried out when the event was fed (the sub-flow started in the same write).
        return 'started';
      case 'memory.set':
        await saveContactMemory(this.#deps.store, doc.contact.phone, effect.values);
        return 'saved';
      case 'flow.error':
        this.#journal.error('flow', effect.message, { code: effect.code, state: effect.state });
        this.#deps.logger.error('flow took its error path', {
          conversationId: id,
          flow: doc.flowId,
          state: effect.state,
          contactId: doc.contact.id,
          code: effect.code,
          detail: effect.message,
          target: effect.target,
        });
        return 'logged';
    }
  }

  async #send(effect: SendEffect, fresh: boolean): Promise<string> {
    const doc = this.#doc;
    // Zero sends while a person owns the conversation (spec 4.5.5 rule 5).
    if (doc.humanOwned) {
      this.#noteSend(effect.seq, effect.content, { outcome: 'suppressed' });
      return 'suppressed_human_owned';
    }
    const isTemplate = effect.content.type === 'template';
    if (!isTemplate && !this.#windowOpen()) return this.#windowClosed(effect, fresh);
    const outcome = await this.#sendContent(effect.seq, effect.content, fresh);
    // The record of that try, if any, is a resendable window rejection: still fresh.
    if (outcome.status === 'window_closed') return this.#windowClosed(effect, fresh);
    this.#noteOutcome(effect.seq, effect.content, outcome, false);
    return this.#settle(effect.seq, outcome);
  }

  /** The journal entry of one send's outcome. */
  #noteOutcome(
    seq: number,
    content: SendEffect['content'],
    outcome: SendOutcome,
    fallback: boolean,
  ): void {
    const extra = fallback ? { fallback: true } : {};
    switch (outcome.status) {
      case 'accepted':
        this.#noteSend(seq, content, {
          outcome: 'accepted',
          messageId: outcome.messageId,
          ...extra,
        });
        return;
      case 'done': {
        const { messageId, code } = outcome.record;
        this.#noteSend(seq, content, {
          outcome: 'already_done',
          ...(messageId === undefined ? {} : { messageId }),
          ...(code === undefined ? {} : { code }),
          ...extra,
        });
        return;
      }
      case 'rejected':
        this.#noteSend(seq, content, { outcome: 'rejected', code: outcome.code, ...extra });
        return;
      case 'window_closed':
        this.#noteSend(seq, content, {
          outcome: 'rejected',
          code: 'service_window_closed',
          ...extra,
        });
        return;
      case 'owned':
        this.#noteSend(seq, content, {
          outcome: 'owned',
          code: 'conversation_owned_by_human',
          ...extra,
        });
        this.#journal.note({ kind: 'handoff', change: 'taken', by: 'send' });
        return;
      case 'unknown':
        this.#noteSend(seq, content, { outcome: 'unknown', ...extra });
        return;
    }
  }

  #noteSend(
    seq: number,
    content: SendEffect['content'],
    result: {
      outcome:
        'accepted' | 'rejected' | 'unknown' | 'held' | 'suppressed' | 'owned' | 'already_done';
      messageId?: string;
      code?: string;
      fallback?: boolean;
    },
  ): void {
    const text = previewText(contentText(content), this.#journal.options);
    this.#journal.note({
      kind: 'send',
      seq,
      contentType: content.type,
      ...(text === undefined ? {} : { text }),
      ...result,
    });
  }

  #windowOpen(): boolean {
    const last = this.#doc.lastInboundAt;
    return last !== undefined && this.#deps.clock.now() - last < SERVICE_WINDOW_MS;
  }

  /** The state's window rule; default `wait` (hold until the contact writes). */
  async #windowClosed(effect: SendEffect, fresh: boolean): Promise<string> {
    const rule = effect.window ?? { onClosed: 'wait' };
    switch (rule.onClosed) {
      case 'template': {
        const outcome = await this.#sendContent(effect.seq, rule.template, fresh);
        this.#noteOutcome(effect.seq, rule.template, outcome, true);
        if (outcome.status === 'window_closed')
          return this.#settle(effect.seq, { status: 'rejected', code: 'service_window_closed' });
        const settled = await this.#settle(effect.seq, outcome);
        return `template_fallback:${settled}`;
      }
      case 'wait':
        this.#noteSend(effect.seq, effect.content, { outcome: 'held' });
        this.#doc.heldSends.push(effect);
        return 'held_for_window';
      case 'event':
        await this.#feedLater(`window:${this.#recordId(effect.seq)}`, {
          type: 'window.closed',
          seq: effect.seq,
        });
        return 'window_closed';
    }
  }

  #sendContent(seq: number, content: SendEffect['content'], fresh: boolean): Promise<SendOutcome> {
    return sendMessage(this.#deps, {
      conversationId: this.#conversationId,
      epoch: this.#doc.epoch,
      seq,
      to: this.#doc.contact.phone,
      content,
      fresh,
      defer: (record) => this.#accepted.push(record),
    });
  }

  async #settle(seq: number, outcome: SendOutcome): Promise<string> {
    switch (outcome.status) {
      case 'accepted':
        return 'accepted';
      case 'done':
        return `already_${outcome.record.state}`;
      case 'rejected':
        await this.#feedLater(`sendfail:${this.#recordId(seq)}`, {
          type: 'send.failed',
          seq,
          code: outcome.code,
        });
        return `rejected:${outcome.code}`;
      case 'owned':
        // The API says a person owns it: pause now; the flow hears handoff.started.
        this.#doc.humanOwned = true;
        await this.#feedLater(`own409:${this.#recordId(seq)}`, { type: 'handoff.started' });
        return 'owned_by_human';
      case 'window_closed':
        await this.#feedLater(`sendfail:${this.#recordId(seq)}`, {
          type: 'send.failed',
          seq,
          code: 'service_window_closed',
        });
        return 'rejected:service_window_closed';
      case 'unknown':
        await this.#deps.enqueue(this.#conversationId, {
          id: `reconcile:${outcome.record.id}:0`,
          sortKey: CONTINUATION_SORT_KEY,
          payload: { kind: 'reconcile', sendId: outcome.record.id, attempt: 0 },
        });
        return 'unknown';
    }
  }

  #recordId(seq: number): string {
    return sendRecordId(this.#conversationId, this.#doc.epoch, seq);
  }

  async #feedLater(id: string, event: FlowEvent): Promise<void> {
    await this.#deps.enqueue(this.#conversationId, {
      id,
      sortKey: CONTINUATION_SORT_KEY,
      payload: { kind: 'flow', event },
    });
  }
}
