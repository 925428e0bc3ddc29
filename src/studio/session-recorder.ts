import type { Clock } from '../core/clock.js';
import type { Effect, FlowEvent, Understood } from '../flows/contract.js';
import type { DocWrite } from './observed-store.js';
import { StateAnalytics } from './state-analytics.js';

/** One line of a conversation's timeline in the studio. */
export interface TimelineEntry {
  /** Order of recording, across the session. */
  readonly seq: number;
  /** Studio clock, epoch ms. */
  readonly at: number;
  readonly kind: 'event' | 'state' | 'effect' | 'send' | 'error' | 'control';
  readonly text: string;
  /** For effects: the engine's outcome label (`accepted`, `rejected:<code>`, …). */
  readonly outcome?: string;
  /** False for outcomes that went wrong (rejections, errors, unknown sends). */
  readonly ok?: boolean;
}

/** Entries kept per conversation (the oldest are dropped beyond it). */
const KEPT = 400;

/**
 * What the studio records of a session: a timeline per conversation (events fed to the
 * machine, state changes, effects and their outcomes, control actions), the latest
 * document of each conversation, and the per-state analytics.
 */
export class SessionRecorder {
  readonly analytics: StateAnalytics;
  readonly #clock: Clock;
  readonly #onChange: (conversationId: string | undefined) => void;
  readonly #timelines = new Map<string, TimelineEntry[]>();
  readonly #session: TimelineEntry[] = [];
  readonly #docs = new Map<string, DocWrite>();
  readonly #cause = new Map<string, string>();
  #seq = 0;

  constructor(options: {
    clock: Clock;
    onChange?: (conversationId: string | undefined) => void;
    analytics?: StateAnalytics;
  }) {
    this.#clock = options.clock;
    this.#onChange = options.onChange ?? (() => undefined);
    this.analytics = options.analytics ?? new StateAnalytics();
  }

  /** An event was fed to a conversation's machine (the bot's `event`). */
  onEvent(conversationId: string, event: FlowEvent): void {
    this.#cause.set(conversationId, event.type);
    this.#add(conversationId, { kind: 'event', text: describeEvent(event) });
  }

  /** An effect was carried out (the bot's `effect`). */
  onEffect(conversationId: string, effect: Effect, outcome: string): void {
    const ok = !/^(rejected|unknown|window_closed|owned_by_human|failed)/.test(outcome);
    this.#add(conversationId, {
      kind: effect.kind === 'send' ? 'send' : 'effect',
      text: describeEffect(effect),
      outcome,
      ok,
    });
  }

  /** Something went wrong that the bot survived (the bot's `error`). */
  onError(conversationId: string | undefined, error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    if (conversationId === undefined) this.note(undefined, `error: ${text}`, false);
    else this.#add(conversationId, { kind: 'error', text, ok: false });
  }

  /** A conversation document was written (see `observeStore`). */
  onWrite(write: DocWrite): void {
    const before = this.#docs.get(write.conversationId);
    this.#docs.set(write.conversationId, write);
    const at = this.#clock.now();
    this.analytics.record({
      conversationId: write.conversationId,
      flowId: write.flowId,
      state: write.state,
      ended: write.ended,
      at,
      cause: this.#cause.get(write.conversationId),
    });
    if (before?.state !== write.state || before.flowId !== write.flowId) {
      const from = before === undefined || before.state === '' ? '' : `${before.state} → `;
      this.#add(write.conversationId, {
        kind: 'state',
        text: `state ${from}${write.state}${write.ended ? ' (ended)' : ''}`,
      });
    } else {
      this.#onChange(write.conversationId);
    }
  }

  /** A control action or session event (take over, clock, reload…); undefined = every conversation. */
  note(conversationId: string | undefined, text: string, ok = true): void {
    const entry = { kind: 'control' as const, text, ...(ok ? {} : { ok }) };
    if (conversationId !== undefined) return this.#add(conversationId, entry);
    this.#session.push({ ...entry, seq: ++this.#seq, at: this.#clock.now() });
    if (this.#session.length > KEPT) this.#session.splice(0, this.#session.length - KEPT);
    this.#onChange(undefined);
  }

  /** A conversation's timeline with the session-wide notes, oldest first. */
  timeline(conversationId: string): TimelineEntry[] {
    const own = this.#timelines.get(conversationId) ?? [];
    const first = own[0]?.seq ?? Infinity;
    // Session notes from before the conversation began are not part of its story.
    return [...own, ...this.#session.filter((e) => e.seq > first)].sort((a, b) => a.seq - b.seq);
  }

  /** The latest document written for a conversation. */
  doc(conversationId: string): DocWrite | undefined {
    return this.#docs.get(conversationId);
  }

  #add(conversationId: string, entry: Omit<TimelineEntry, 'seq' | 'at'>): void {
    let list = this.#timelines.get(conversationId);
    if (list === undefined) this.#timelines.set(conversationId, (list = []));
    list.push({ ...entry, seq: ++this.#seq, at: this.#clock.now() });
    if (list.length > KEPT) list.splice(0, list.length - KEPT);
    this.#onChange(conversationId);
  }
}

/** What was understood of a text: intent, confidence, slots, source (and why it fell back). */
export function describeUnderstood(u: Understood): string {
  const r = u.result;
  const parts: string[] = [];
  if (r.handoff === true) parts.push('asks for a person');
  if (r.correction === true) parts.push('correction');
  if (r.intent !== undefined)
    parts.push(
      `intent ${r.intent.id} (${r.intent.confidence.toFixed(2)}${r.intent.confidence < u.threshold ? ` < ${u.threshold}` : ''})`,
    );
  const slots = Object.entries(r.slots ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v.value)}`);
  if (slots.length > 0) parts.push(slots.join(' '));
  if (r.knowledge !== undefined)
    parts.push(
      `knowledge (${r.knowledge.confidence.toFixed(2)}${r.knowledge.sources[0] === undefined ? '' : ` ${r.knowledge.sources[0].file} › ${r.knowledge.sources[0].heading}`})`,
    );
  if (r.outOfScope === true) parts.push('out of scope');
  if (parts.length === 0) parts.push('not understood');
  return `→ ${parts.join(', ')} [${r.source}${r.fallback === undefined ? '' : `, fallback: ${r.fallback}`}]`;
}

/** One readable line for an event fed to a machine. */
export function describeEvent(event: FlowEvent): string {
  switch (event.type) {
    case 'inbound.message': {
      const m = event.message;
      const what =
        m.text !== undefined
          ? `"${m.text}"`
          : m.optionId !== undefined
            ? `tap "${m.label ?? m.optionId}" (${m.optionId})`
            : m.type;
      const heard = m.understood === undefined ? '' : ` ${describeUnderstood(m.understood)}`;
      return `inbound ${m.type === 'text' || m.optionId !== undefined ? '' : `${m.type} `}${what}${heard}`.replace(
        /\s+/g,
        ' ',
      );
    }
    case 'handler.done':
      return `handler ${event.handler} → ${event.outcome}`;
    case 'handler.error':
      return `handler ${event.handler} failed (${event.reason}): ${event.message}`;
    case 'timer.fired':
      return `timer fired (${event.name})`;
    case 'send.failed':
      return `send #${event.seq} failed: ${event.code}`;
    case 'send.unknown':
      return `send #${event.seq}: outcome unknown`;
    case 'window.closed':
      return `window closed for send #${event.seq}`;
    case 'external.event':
      return `external event ${event.name}`;
    case 'conversation.start':
      return 'conversation started';
    case 'handoff.started':
      return 'a person took the conversation over';
    case 'handoff.released':
      return 'released to the API';
    case 'subflow.done':
      return event.error === undefined
        ? 'sub-flow returned'
        : `sub-flow could not run: ${event.error}`;
  }
}

/** One readable line for an effect. */
export function describeEffect(effect: Effect): string {
  switch (effect.kind) {
    case 'send': {
      const c = effect.content as Record<string, unknown>;
      const text = (c['text'] as { body?: unknown } | undefined)?.body;
      const body = (c['interactive'] as { body?: { text?: unknown } } | undefined)?.body?.text;
      const name = (c['template'] as { name?: unknown } | undefined)?.name;
      const shown = [text, body, name].find((v) => typeof v === 'string');
      return `send ${effect.content.type}${typeof shown === 'string' ? ` "${clip(shown)}"` : ''}`;
    }
    case 'call':
      return `call ${effect.handler}`;
    case 'timer.start':
      return `timer ${effect.name} in ${Math.round(effect.delayMs / 1000)} s`;
    case 'timer.cancel':
      return `timer ${effect.name} cancelled`;
    case 'handoff.request':
      return `handoff requested${effect.reason === undefined ? '' : `: ${effect.reason}`}`;
    case 'end':
      return 'conversation ended';
    case 'flow.call':
      return `sub-flow ${effect.flowId}`;
    case 'memory.set':
      return `contact memory: ${Object.keys(effect.values).join(', ')}`;
    case 'flow.error':
      return `error path: ${effect.code}`;
  }
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
