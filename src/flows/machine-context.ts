import type { ContactInfo, Effect, FlowContext, VarValue, Vars } from './contract.js';

/** An effect before it gets its sequence number. */
export type EffectDraft = Effect extends infer E
  ? E extends Effect
    ? Omit<E, 'seq'>
    : never
  : never;

/** The last error the machine recorded (handler error, invalid content, send failure). */
export interface RecordedError {
  readonly code: string;
  readonly message: string;
}

/**
 * Context of a compiled flow machine: {@link FlowContext} plus what the compiled machine
 * needs to route. Small on purpose: it is persisted after every event.
 */
export interface CompiledContext extends FlowContext {
  readonly outbox: readonly Effect[];
  readonly contact: ContactInfo;
  /** Unmatched answers / invalid attempts in the current state. */
  readonly attempts: number;
  /** requestId of the handler call the state waits for. */
  readonly pending: string | null;
  /** Name of the current state's timer. */
  readonly timer: string | null;
  /** `[seq, target]` of recent sends whose window rule is `goto` (window.closed routes). */
  readonly windows: readonly (readonly [number, string])[];
  readonly lastError: RecordedError | null;
  /** Set by a state's entry when its content could not be rendered: the error target. */
  readonly failed: string | null;
  /** True between handoff.started and handoff.released. */
  readonly humanOwned: boolean;
  /**
   * Highest effect seq when the flow last routed on a send failure: failures of sends up
   * to it belong to a batch already handled (one opted-out contact fails every message of
   * a reply) and are ignored. Missing in snapshots older than this field: read as 0.
   */
  readonly sendFailureSeq?: number;
  /** Name of the current state's pending reminder timer (`remind:`). */
  readonly reminder?: string | null;
  /** Contact memory (`contact.<name>`), loaded when the conversation starts. */
  readonly memory?: Vars | undefined;
  /** Effect seq when the current state was entered (names its timers). */
  readonly entrySeq?: number | undefined;
  /** Nudges already said by the current state's timeout. */
  readonly nudges?: number | undefined;
  /** A `delay:` in progress: its timer and the say item to continue from. */
  readonly delay?: DelayPending | null | undefined;
  /** Debounced text collected so far, and its timer. */
  readonly burst?: { readonly text: string; readonly timer: string } | null | undefined;
  /** Set by a flow migration: where the conversation continues at its next event. */
  readonly resumeAt?: string | null | undefined;
  /**
   * Set with `resumeAt` when the migration had no target for the removed state (`start`):
   * the next message is handled as a first message, not as an answer.
   */
  readonly resumeFirst?: boolean | undefined;
  /**
   * Within one event only (never persisted set): a migrated conversation entered its
   * target quietly and the same message is decided again there, as its answer.
   */
  readonly landing?: boolean | undefined;
  /** Values understanding proposed for asks not reached yet (checked when reached). */
  readonly heard?: Vars | undefined;
  /** The intents the current state asked the customer to choose between. */
  readonly clarify?: ClarifyPending | null | undefined;
  /** An ask answered by understanding on entry: where the state goes on at once. */
  readonly skipTo?: string | null | undefined;
}

/** A "did you mean" menu in progress: the intents offered and the slots understood. */
export interface ClarifyPending {
  readonly state: string;
  readonly intents: readonly string[];
  readonly slots?: Vars;
}

/** A `delay:` in progress. */
export interface DelayPending {
  readonly timer: string;
  /** Index of the say item to continue with (its delay is over). */
  readonly index: number;
}

/** A mutable working copy of the context inside one action. */
export interface Work {
  outbox: Effect[];
  seq: number;
  vars: Vars;
  ended: boolean;
  contact: ContactInfo;
  attempts: number;
  pending: string | null;
  timer: string | null;
  windows: (readonly [number, string])[];
  lastError: RecordedError | null;
  failed: string | null;
  humanOwned: boolean;
  sendFailureSeq?: number;
  reminder?: string | null;
  memory?: Vars | undefined;
  entrySeq?: number | undefined;
  nudges?: number | undefined;
  delay?: DelayPending | null | undefined;
  burst?: { readonly text: string; readonly timer: string } | null | undefined;
  resumeAt?: string | null | undefined;
  resumeFirst?: boolean | undefined;
  landing?: boolean | undefined;
  heard?: Vars | undefined;
  clarify?: ClarifyPending | null | undefined;
  skipTo?: string | null | undefined;
}

/** The routing fields of a compiled machine's context. */
export type RoutingFields = Pick<
  Work,
  'attempts' | 'pending' | 'timer' | 'windows' | 'lastError' | 'failed' | 'humanOwned'
>;

/**
 * The routing fields as a conversation starts (fresh objects each call). The compact
 * stored snapshot (engine/compact-snapshot.ts) leaves out the fields still at these values.
 */
export function initialRouting(): RoutingFields {
  return {
    attempts: 0,
    pending: null,
    timer: null,
    windows: [],
    lastError: null,
    failed: null,
    humanOwned: false,
  };
}

/** How many window routes are remembered. */
const WINDOW_MEMORY = 6;

/** Copies a context for editing. */
export function toWork(ctx: CompiledContext): Work {
  return {
    ...ctx,
    outbox: [...ctx.outbox],
    vars: { ...ctx.vars },
    windows: [...ctx.windows],
    ...(ctx.memory === undefined ? {} : { memory: { ...ctx.memory } }),
  };
}

/**
 * Stores a value into a variable or, for `contact.<name>`, into contact memory. The
 * built-in contact fields (`contact.name`, `contact.phone`) can be overridden in memory.
 */
export function assignVar(w: Work, target: string, value: VarValue): void {
  if (target.startsWith('contact.')) {
    w.memory = { ...w.memory, [target.slice('contact.'.length)]: value };
  } else {
    w.vars[target] = value;
  }
}

/** Stores several values (see {@link assignVar}). */
export function assignVars(w: Work, vars: Vars | undefined): void {
  if (vars === undefined) return;
  for (const [k, v] of Object.entries(vars)) assignVar(w, k, v);
}

/** After an action: a changed contact memory is written through a `memory.set` effect. */
export function flushMemory(before: Vars | undefined, w: Work): void {
  const after = w.memory ?? {};
  const prev = before ?? {};
  const keys = new Set([...Object.keys(after), ...Object.keys(prev)]);
  for (const k of keys) {
    if (!Object.is(after[k], prev[k])) {
      emit(w, { kind: 'memory.set', values: { ...after } });
      return;
    }
  }
}

/**
 * Appends an effect with the next sequence number; returns that number. `draft` is a
 * fresh literal at every call site, so it is completed in place: `{ ...draft, seq }` (a
 * spread followed by a key the source lacks) takes V8's slow clone path, ~0.6 µs here.
 */
export function emit(w: Work, draft: EffectDraft): number {
  w.seq += 1;
  const effect = draft as EffectDraft & { seq: number };
  effect.seq = w.seq;
  w.outbox.push(effect);
  return w.seq;
}

/** Remembers where a `window.closed` for `seq` leads. */
export function rememberWindow(w: Work, seq: number, target: string): void {
  w.windows.push([seq, target]);
  if (w.windows.length > WINDOW_MEMORY) w.windows.splice(0, w.windows.length - WINDOW_MEMORY);
}
