import type { ContactInfo, Effect, FlowContext, Vars } from './contract.js';

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
}

/** How many window routes are remembered. */
const WINDOW_MEMORY = 6;

/** Copies a context for editing. */
export function toWork(ctx: CompiledContext): Work {
  return { ...ctx, outbox: [...ctx.outbox], vars: { ...ctx.vars }, windows: [...ctx.windows] };
}

/** Appends an effect with the next sequence number; returns that number. */
export function emit(w: Work, draft: EffectDraft): number {
  w.seq += 1;
  w.outbox.push({ ...draft, seq: w.seq });
  return w.seq;
}

/** Remembers where a `window.closed` for `seq` leads. */
export function rememberWindow(w: Work, seq: number, target: string): void {
  w.windows.push([seq, target]);
  if (w.windows.length > WINDOW_MEMORY) w.windows.splice(0, w.windows.length - WINDOW_MEMORY);
}
