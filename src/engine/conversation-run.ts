import { isCompiledMachine } from '../flows/compile-flow.js';
import { BURST_ID_PREFIX } from '../flows/decide.js';
import type { Effect, FlowEvent, InboundMessage, RunnableFlow, Vars } from '../flows/contract.js';
import type { ActorCache, LiveActor } from './actor-cache.js';
import { APPLIED_KEPT, type ConversationDoc, type InboxPayload } from './conversation-doc.js';
import { EffectExecutor } from './effect-executor.js';
import type { EngineDeps } from './engine-deps.js';
import { loadContactMemory } from './contact-memory.js';
import { stepFlow, type StepResult } from './flow-runner.js';
import { followStatus, followUnknownSend } from './send-followup.js';
import { toStoredDoc } from './stored-doc.js';
import type { CasResult, ValueWrite } from '../store/store.js';
import { understandInbound, type Understood } from './understand-inbound.js';
import { DEFAULT_JOURNAL } from '../journal/journal.js';
import { JournalWriter, type StepBefore } from '../journal/journal-writer.js';

type OkStep = Extract<StepResult, { status: 'ok' }>;

/** Sub-flow calls and returns followed within one event (a guard against loops). */
const MAX_SUBFLOW_HOPS = 16;
/** Deepest sub-flow nesting. */
const MAX_STACK_DEPTH = 8;

/**
 * Whether a stored snapshot must go through the flow's version rule: another version,
 * or (same version, e.g. a flow reloaded while editing) a state the machine lacks.
 */
function needsMigration(
  flow: RunnableFlow,
  doc: { readonly flowVersion: number; readonly state: string },
): boolean {
  if (doc.flowVersion !== flow.version) return true;
  const top = doc.state.split('.')[0] ?? '';
  if (top === '' || !isCompiledMachine(flow.machine)) return false;
  return !Object.hasOwn(flow.machine.root.states, top);
}

/** `context.seq` of a compiled machine's persisted snapshot (0 when not readable). */
function contextSeq(snapshot: unknown): number {
  const seq: unknown = Reflect.get(Object(Reflect.get(Object(snapshot), 'context')), 'seq');
  return typeof seq === 'number' ? seq : 0;
}

/** A persisted snapshot whose `context.seq` is at least `seq`. */
function withSeqAtLeast(snapshot: unknown, seq: number): unknown {
  if (typeof snapshot !== 'object' || snapshot === null) return snapshot;
  const context: unknown = Reflect.get(snapshot, 'context');
  if (typeof context !== 'object' || context === null || contextSeq(snapshot) >= seq)
    return snapshot;
  return { ...snapshot, context: { ...context, seq } };
}

/** A conversation document changed under us although we hold its lease. */
export class ConversationConflictError extends Error {
  constructor(conversationId: string, status: string) {
    super(`conversation ${conversationId}: store write ${status}; the item will be retried`);
    this.name = 'ConversationConflictError';
  }
}

/** A conversation document loaded for processing, with its CAS version. */
export interface Loaded {
  doc: ConversationDoc;
  version: number;
}

/** The processing of one item: a working copy of the document and how to save it. */
export class ConversationRun {
  readonly #deps: EngineDeps;
  readonly #actors: ActorCache;
  readonly #id: string;
  readonly #loaded: Loaded;
  readonly #fence: number;
  readonly #effects: EffectExecutor;
  readonly #journal: JournalWriter;
  /** The running actor whose persisted snapshot is `doc.snapshot` (when there is one). */
  #live: LiveActor | undefined;
  /** The id of the item being applied, recorded by the save that changes the state. */
  #itemId: string | undefined;
  /** Seqs of the effects this run's own steps produced (no send record can exist yet). */
  readonly #fresh = new Set<number>();
  /** Values to write with the next document write (see {@link writeAlong}). */
  #values: ValueWrite[] = [];

  constructor(
    deps: EngineDeps,
    actors: ActorCache,
    conversationId: string,
    loaded: Loaded,
    fence: number,
  ) {
    this.#deps = deps;
    this.#actors = actors;
    this.#id = conversationId;
    this.#loaded = loaded;
    this.#fence = fence;
    this.#journal = new JournalWriter(loaded.doc, deps.journal ?? DEFAULT_JOURNAL, deps.clock);
    this.#effects = new EffectExecutor(deps, conversationId, loaded.doc, this.#journal);
    // Statuses that wrote nothing when they came go with this run's first write.
    for (const [messageId, note] of deps.deliveryNotes?.take(conversationId) ?? [])
      this.#journal.deliveryStatus(messageId, note.status, note.code);
  }

  get #doc(): ConversationDoc {
    return this.#loaded.doc;
  }

  /**
   * Applies one item. The save that records its effect on the machine also records its id
   * in `applied` (one compare-and-set), so a retry after a crash never applies it twice.
   * Saves before that point change nothing a second application would not redo the same.
   */
  async apply(payload: InboxPayload, itemId?: string): Promise<void> {
    const doc = this.#doc;
    this.#itemId = itemId;
    switch (payload.kind) {
      case 'inbound': {
        doc.contact = payload.contact;
        const at = Date.parse(payload.message.occurredAt);
        doc.lastInboundAt = Math.max(doc.lastInboundAt ?? at, at);
        if (payload.humanOwned !== undefined) await this.#ownership(payload.humanOwned);
        if (doc.humanOwned) {
          // Recorded (window, contact) but not fed: a person is handling it.
          this.#journal.inbound(payload.message, 'human_owned');
          this.#markApplied();
          await this.#save();
          return;
        }
        if (await this.#deps.history.isHistory(at, payload.message.id)) {
          // From before the bot's first start (or already answered): recorded, never fed.
          this.#journal.inbound(payload.message, 'history');
          this.#markApplied();
          await this.#save();
          return;
        }
        this.#journal.inbound(payload.message);
        if (doc.heldSends.length > 0) {
          await this.#save();
          await this.#effects.flushHeld();
        }
        this.#unwindForTrigger(payload.message);
        const heard = await this.#understand(payload.message);
        this.#journal.understood(heard.message);
        await this.#feed({ type: 'inbound.message', message: heard.message });
        return;
      }
      case 'ownership':
        if (payload.contact !== undefined) doc.contact = payload.contact;
        await this.#ownership(payload.humanOwned);
        this.#markApplied();
        await this.#save();
        return;
      case 'flow':
        await this.#feed(await this.#withBurstUnderstood(payload.event));
        return;
      case 'status':
        await this.#status(payload.messageId, payload.status, payload.failureCode);
        return;
      case 'reconcile':
        await this.#reconcile(payload.sendId, payload.attempt);
        return;
      case 'event':
        await this.#external(payload);
        return;
    }
  }

  /**
   * Understands an inbound text before the machine sees it (the machine is pure), exactly
   * once. When a caller's global intent takes it, the sub-flow is left, as for a trigger,
   * and the message goes to that caller.
   */
  async #understand(message: InboundMessage): Promise<Understood> {
    const doc = this.#doc;
    const frames = [...(doc.stack ?? [])].reverse();
    const heard = await understandInbound(
      this.#deps,
      this.#flow(),
      doc,
      message,
      () => this.#save(),
      frames.flatMap((f) => this.#deps.flows.get(f.flowId) ?? []),
    );
    if (heard.caller !== undefined) this.#unwindTo(frames.length - 1 - heard.caller, 'intent');
    return heard;
  }

  /**
   * A timer that ends a debounce state's burst: the collected text is understood first
   * (recorded under the id `burst:<timer>`), like an inbound text. A caller's intent that
   * takes it leaves the sub-flow and feeds the text to that caller instead.
   */
  async #withBurstUnderstood(event: FlowEvent): Promise<FlowEvent> {
    if (event.type !== 'timer.fired') return event;
    const text = this.#flow().burstOf?.(this.#doc.snapshot, event.name);
    if (text === undefined) return event;
    const message: InboundMessage = {
      id: `${BURST_ID_PREFIX}${event.name}`,
      conversationId: this.#id,
      type: 'text',
      occurredAt: new Date(this.#deps.clock.now()).toISOString(),
      text,
    };
    const heard = await this.#understand(message);
    if (heard.caller !== undefined) return { type: 'inbound.message', message: heard.message };
    const understood = heard.message.understood;
    return understood === undefined ? event : { ...event, understood };
  }

  /** `bot.notify` feeds the named event; `bot.start` (re)starts the named flow with vars. */
  async #external(payload: Extract<InboxPayload, { kind: 'event' }>): Promise<void> {
    const doc = this.#doc;
    const event = payload.event;
    if (event.type === 'notify') {
      await this.#feed({ type: 'external.event', name: event.name, data: event.data });
      return;
    }
    const flow = this.#deps.flows.get(event.flowId);
    if (flow === undefined) {
      this.#deps.logger.error('bot.start names an unknown flow; ignored', {
        conversationId: this.#id,
        flowId: event.flowId,
      });
      return;
    }
    // A fresh start in that flow: whatever ran before is left (its timers fire into nothing).
    this.dispose();
    delete doc.stack;
    doc.flowId = flow.id;
    doc.flowVersion = flow.version;
    doc.snapshot = null;
    await this.#feed({ type: 'conversation.start', vars: event.vars });
  }

  /** A value to write with this run's next document write (nothing when undefined). */
  writeAlong(value: ValueWrite | undefined): void {
    if (value !== undefined) this.#values.push(value);
  }

  /**
   * Makes the writes that no document write took: the `accepted` records of this run's
   * sends (see `SendJob.defer`), its timer changes and the values of {@link writeAlong}.
   */
  async settleRecords(): Promise<void> {
    const values = this.#values;
    await Promise.all([
      this.#effects.settleRecords(),
      ...values.map((v) => this.#deps.store.setValue(v.key, v.value, v.ttlMs)),
    ]);
    this.#values = this.#values.slice(values.length);
  }

  /** Hands the live actor to the cache: the stored document is the one it produced. */
  keepActor(): void {
    const live = this.#live;
    const { doc, version } = this.#loaded;
    if (live === undefined || doc.snapshot === null || live.machine !== this.#flow().machine)
      return;
    this.#live = undefined;
    // The document goes with it: nothing changes it after this run (the run is done).
    this.#actors.put(this.#id, live, { version, epoch: doc.epoch, state: doc.state }, doc);
  }

  /** Stops an actor that was not kept (an error or a conflict ended the run). */
  dispose(): void {
    this.#live?.actor.stop();
    this.#live = undefined;
  }

  async runPending(): Promise<void> {
    const doc = this.#doc;
    const todo = doc.pending.filter((e) => e.seq > doc.lastEffectSeq).sort((a, b) => a.seq - b.seq);
    for (let i = 0; i < todo.length; i++) {
      const effect = todo[i];
      if (effect === undefined) continue;
      await this.#effects.execute(effect, this.#fresh.delete(effect.seq));
      doc.lastEffectSeq = effect.seq;
      const last = i === todo.length - 1;
      // After the last one nothing is left to run: clear the list in the same write.
      if (last) doc.pending = [];
      // A send needs no save of its own: its final record already says it is done, and a
      // retry that runs it again finds that record (or reconciles an unknown outcome).
      if (last || effect.kind !== 'send') await this.#save();
    }
    if (doc.pending.length > 0) {
      doc.pending = [];
      await this.#save();
    }
  }

  async #ownership(humanOwned: boolean): Promise<void> {
    const doc = this.#doc;
    if (doc.humanOwned === humanOwned) return;
    doc.humanOwned = humanOwned;
    this.#journal.note({ kind: 'handoff', change: humanOwned ? 'taken' : 'released', by: 'api' });
    this.#deps.logger.info(
      humanOwned ? 'a person took the conversation over' : 'conversation released to the bot',
      {
        conversationId: this.#id,
      },
    );
    if (doc.snapshot !== null)
      await this.#feed({ type: humanOwned ? 'handoff.started' : 'handoff.released' });
  }

  async #status(messageId: string, hinted: string, code: string | undefined): Promise<void> {
    const event = await followStatus(this.#deps, this.#id, this.#doc.epoch, {
      messageId,
      hinted,
      code,
    });
    if (event === undefined) {
      // Nothing for the flow: no write now; the next write of this conversation keeps it.
      this.#deps.deliveryNotes?.note(this.#id, messageId, hinted, code);
      return;
    }
    if (event.type === 'send.failed') this.#journal.deliveryStatus(messageId, 'failed', event.code);
    await this.#feed(event);
  }

  async #reconcile(sendId: string, attempt: number): Promise<void> {
    const event = await followUnknownSend(
      this.#deps,
      this.#id,
      this.#doc.epoch,
      sendId,
      attempt,
      (entry) => this.#journal.note(entry),
    );
    if (event !== undefined) await this.#feed(event);
    // How it was reconciled is written now (rare: one write per attempt), not left to chance.
    else if (this.#journal.takeDirty()) await this.#save();
  }

  /** Feeds an event to the machine, persists, then runs the new effects. */
  async #feed(event: FlowEvent): Promise<void> {
    const doc = this.#doc;
    const flow = this.#flow();
    let snapshot = doc.snapshot;
    if (snapshot !== null && needsMigration(flow, doc)) snapshot = this.#migrate(flow, snapshot);
    const before: StepBefore = {
      flowId: doc.flowId,
      state: doc.state,
      vars: { ...doc.vars },
      started: snapshot !== null,
      depth: doc.stack?.length ?? 0,
    };
    if (event.type === 'timer.fired' && snapshot !== null)
      this.#journal.note({ kind: 'timer', action: 'fired', name: event.name });
    let memory: Vars | undefined;
    if (snapshot === null) {
      // Only a message from the contact, an explicit start or an external event begins one.
      if (
        event.type !== 'inbound.message' &&
        event.type !== 'conversation.start' &&
        event.type !== 'external.event'
      )
        return;
      doc.epoch += 1;
      doc.lastEffectSeq = -1;
      doc.ended = false;
      delete doc.stack;
      memory = await loadContactMemory(this.#deps.store, doc.contact.phone);
    }
    const live = snapshot === null ? undefined : this.#liveFor(flow, snapshot);
    if (live === undefined) this.dispose();
    this.#live = undefined;
    doc.flowId = flow.id;
    doc.flowVersion = flow.version;
    const step = stepFlow({
      machine: flow.machine,
      snapshot,
      conversationId: this.#id,
      contact: doc.contact,
      event,
      live,
      memory,
    });
    this.#deps.emit('event', { conversationId: this.#id, event });
    if (step.status === 'error') {
      this.#stepFailed(event.type, step.error);
      this.#markApplied();
      await this.#save();
      return;
    }
    this.#live = step.live;
    let result: OkStep = step;
    let effects = step.context.outbox.filter((e) => e.seq > doc.lastEffectSeq);
    // Sub-flow calls and returns happen in this same write (bounded: a chain of hops
    // within one event, e.g. a sub-flow that ends at once).
    for (let hop = 0; hop < MAX_SUBFLOW_HOPS; hop++) {
      const next = this.#subflowHop(result, effects);
      if (next === undefined) break;
      result = next.step;
      effects = next.effects;
    }
    doc.snapshot = result.snapshot;
    doc.state = result.state;
    doc.vars = result.context.vars;
    doc.ended = result.context.ended;
    doc.pending = effects;
    this.#journal.step(event.type, before, doc);
    this.#markApplied();
    await this.#save();
    for (const effect of effects) this.#fresh.add(effect.seq);
    await this.runPending();
  }

  /**
   * A trigger keyword of a caller, typed while a sub-flow runs: the sub-flow (and any
   * nested in it) is left, and the caller gets the message (its trigger routes it).
   * The sub-flow's own triggers win.
   */
  #unwindForTrigger(message: InboundMessage): void {
    const doc = this.#doc;
    const stack = doc.stack ?? [];
    if (stack.length === 0 || this.#flow().hasTrigger?.(message) === true) return;
    for (let i = stack.length - 1; i >= 0; i--) {
      const frame = stack[i];
      if (frame === undefined) continue;
      const caller = this.#deps.flows.get(frame.flowId);
      if (caller?.hasTrigger?.(message) !== true) continue;
      this.#unwindTo(i, 'trigger');
      return;
    }
  }

  /** Leaves the sub-flows above stack frame `i`: that frame's caller runs again. */
  #unwindTo(i: number, why: 'trigger' | 'intent'): void {
    const doc = this.#doc;
    const stack = doc.stack ?? [];
    const frame = stack[i];
    if (frame === undefined) return;
    this.dispose();
    // The caller numbers its effects after the sub-flow's (a send record id is its seq).
    const used = Math.max(doc.lastEffectSeq, contextSeq(doc.snapshot));
    doc.flowId = frame.flowId;
    doc.flowVersion = frame.flowVersion;
    doc.snapshot = withSeqAtLeast(frame.snapshot, used);
    doc.state = frame.state;
    const rest = stack.slice(0, i);
    if (rest.length > 0) doc.stack = rest;
    else delete doc.stack;
    this.#deps.logger.info(`a caller ${why} left the sub-flow`, {
      conversationId: this.#id,
      flow: frame.flowId,
    });
  }

  #stepFailed(eventType: string, error: unknown): void {
    this.#journal.error(
      'machine',
      `${eventType}: ${error instanceof Error ? error.message : String(error)}`,
      { state: this.#doc.state },
    );
    this.#deps.logger.error('flow machine failed on an event; state unchanged', {
      conversationId: this.#id,
      flow: this.#doc.flowId,
      event: eventType,
      error: error instanceof Error ? error.message : String(error),
    });
    this.#deps.emit('error', { conversationId: this.#id, error });
  }

  /**
   * After a step: a `flow.call` starts the sub-flow (the caller's snapshot is pushed on
   * the document's stack); a sub-flow that ended returns to its caller (popped) with
   * `subflow.done`. Returns the new step and effects, or undefined when nothing to do.
   */
  #subflowHop(
    result: OkStep,
    effects: readonly Effect[],
  ): { step: OkStep; effects: Effect[] } | undefined {
    const doc = this.#doc;
    const call = result.context.outbox.find(
      (e): e is Extract<Effect, { kind: 'flow.call' }> =>
        e.kind === 'flow.call' && e.seq > doc.lastEffectSeq,
    );
    const stack = doc.stack ?? [];
    if (call !== undefined && !stack.some((f) => f.requestId === call.requestId)) {
      const child = this.#deps.flows.get(call.flowId);
      const callerFlow = this.#flow();
      const answer = (error: string): { step: OkStep; effects: Effect[] } | undefined =>
        this.#resume(callerFlow, result.snapshot, effects, {
          type: 'subflow.done',
          requestId: call.requestId,
          vars: {},
          seq: result.context.seq,
          error,
        });
      if (child === undefined) return answer(`no flow "${call.flowId}" in this bot`);
      if (stack.length >= MAX_STACK_DEPTH)
        return answer(`sub-flows nest deeper than ${MAX_STACK_DEPTH}`);
      this.dispose();
      const started = stepFlow({
        machine: child.machine,
        snapshot: null,
        conversationId: this.#id,
        contact: doc.contact,
        event: { type: 'conversation.start', vars: call.input, seq: result.context.seq },
        memory: result.context.memory,
      });
      if (started.status === 'error') {
        this.#stepFailed('conversation.start', started.error);
        return answer(`sub-flow ${call.flowId} failed to start`);
      }
      doc.stack = [
        ...stack,
        {
          flowId: doc.flowId,
          flowVersion: doc.flowVersion,
          snapshot: result.snapshot,
          state: result.state,
          requestId: call.requestId,
        },
      ];
      doc.flowId = child.id;
      doc.flowVersion = child.version;
      this.#live = started.live;
      return {
        step: started,
        effects: [...effects, ...started.context.outbox.filter((e) => e.seq > doc.lastEffectSeq)],
      };
    }
    const frame = stack.at(-1);
    if (!result.context.ended || frame === undefined) return undefined;
    const caller = this.#deps.flows.get(frame.flowId);
    if (caller === undefined) {
      this.#deps.logger.error('the caller of a sub-flow is gone; the conversation ends', {
        conversationId: this.#id,
        flow: frame.flowId,
      });
      delete doc.stack;
      return undefined;
    }
    // The sub-flow's end is its return, not the conversation's.
    const ownEnd = new Set(result.context.outbox.filter((e) => e.kind === 'end').map((e) => e.seq));
    const kept = effects.filter((e) => !ownEnd.has(e.seq));
    const rest = stack.slice(0, -1);
    if (rest.length > 0) doc.stack = rest;
    else delete doc.stack;
    this.dispose();
    doc.flowId = frame.flowId;
    doc.flowVersion = frame.flowVersion;
    let snapshot = frame.snapshot;
    if (needsMigration(caller, { flowVersion: frame.flowVersion, state: frame.state }))
      snapshot = this.#migrate(caller, snapshot, frame.flowVersion);
    return this.#resume(caller, snapshot, kept, {
      type: 'subflow.done',
      requestId: frame.requestId,
      vars: result.context.vars,
      ...(result.context.memory === undefined ? {} : { memory: result.context.memory }),
      seq: result.context.seq,
    });
  }

  /** Feeds a caller its sub-flow's answer. */
  #resume(
    caller: RunnableFlow,
    snapshot: unknown,
    effects: readonly Effect[],
    event: FlowEvent,
  ): { step: OkStep; effects: Effect[] } | undefined {
    const doc = this.#doc;
    const live = this.#live?.machine === caller.machine ? this.#live : undefined;
    if (live === undefined) this.dispose();
    doc.flowId = caller.id;
    doc.flowVersion = caller.version;
    const step = stepFlow({
      machine: caller.machine,
      snapshot,
      conversationId: this.#id,
      contact: doc.contact,
      event,
      live,
    });
    this.#deps.emit('event', { conversationId: this.#id, event });
    if (step.status === 'error') {
      this.#stepFailed(event.type, step.error);
      this.#live = undefined;
      return undefined;
    }
    this.#live = step.live;
    return {
      step,
      effects: [...effects, ...step.context.outbox.filter((e) => e.seq > doc.lastEffectSeq)],
    };
  }

  /** Records the item being applied (once; the oldest ids beyond the bound are dropped). */
  #markApplied(): void {
    const id = this.#itemId;
    if (id === undefined) return;
    this.#itemId = undefined;
    const applied = this.#doc.applied.filter((a) => a !== id);
    applied.push(id);
    this.#doc.applied = applied.slice(-APPLIED_KEPT);
  }

  /** A running actor whose state is `snapshot`: this run's own, or a matching cached one. */
  #liveFor(flow: RunnableFlow, snapshot: unknown): LiveActor | undefined {
    const doc = this.#doc;
    if (snapshot !== doc.snapshot) return undefined;
    if (this.#live !== undefined)
      return this.#live.machine === flow.machine ? this.#live : undefined;
    return this.#actors.take(this.#id, {
      machine: flow.machine,
      version: this.#loaded.version,
      epoch: doc.epoch,
      state: doc.state,
    });
  }

  #flow(): RunnableFlow {
    return this.#deps.flows.get(this.#doc.flowId) ?? this.#deps.entry;
  }

  #migrate(flow: RunnableFlow, snapshot: unknown, from = this.#doc.flowVersion): unknown {
    this.#deps.logger.info('flow version changed', {
      conversationId: this.#id,
      from,
      to: flow.version,
    });
    if (flow.onVersionChange.kind === 'restart') return null;
    try {
      return flow.onVersionChange.migrate(snapshot, from) ?? null;
    } catch (error) {
      this.#deps.logger.warn('flow migration failed; restarting the conversation', {
        error: String(error),
      });
      return null;
    }
  }

  async #save(): Promise<void> {
    const { doc, version } = this.#loaded;
    const flow = this.#flow();
    // The stored outbox of a machine that resets it at every event is left empty: what is
    // still to run is in `pending` (written in this same document), the rest ran already.
    const dropOutbox = doc.flowVersion === flow.version && isCompiledMachine(flow.machine);
    this.#journal.bound();
    this.#journal.takeDirty();
    const stored = toStoredDoc(doc, dropOutbox);
    const result = await this.#put(stored, version);
    if (result.status !== 'ok') throw new ConversationConflictError(this.#id, result.status);
    this.#loaded.version = result.version;
  }

  /**
   * Writes the document with the `accepted` records of the sends before it, the timer
   * changes of the effects before it and the values of {@link writeAlong}, in one store
   * call when the store can (never the document before them: a document that says a send
   * ran has its record, so a retry never has to reconcile it; one that says a timer effect
   * ran has its timer).
   */
  async #put(stored: unknown, version: number): Promise<CasResult> {
    const store = this.#deps.store;
    const { sends, timers } = this.#effects.unwritten;
    const values = this.#values;
    if (sends.length === 0 && timers.length === 0 && values.length === 0)
      return store.putConversation(this.#id, stored, version, this.#fence);
    if (store.putConversationWith === undefined) {
      await this.settleRecords();
      return store.putConversation(this.#id, stored, version, this.#fence);
    }
    const result = await store.putConversationWith(this.#id, stored, version, this.#fence, {
      sends,
      values,
      timers,
    });
    // Kept until written: a failed write leaves them to `settleRecords` (see process()).
    this.#effects.written(sends.length, timers.length);
    this.#values = this.#values.slice(values.length);
    return result;
  }
}
