/**
 * The contract between the engine and a flow machine.
 *
 * A flow machine is an XState v5 machine that does no I/O. The engine feeds it the
 * events below and, after persisting the new snapshot, carries out the effects the
 * machine left in `context.outbox`. Any machine (compiled from a flow file or written
 * by hand) that follows this contract can be run by the engine.
 *
 * Rules:
 * - `context.outbox` holds effects with strictly increasing `seq` numbers. After each
 *   event the engine executes, in order, every effect whose `seq` is greater than the
 *   last one it executed for that conversation (it remembers that number durably), so
 *   a crash between persisting and executing never loses or repeats an effect.
 *   A machine should keep only the effects of the latest event in the outbox.
 * - `context.vars` holds the flow variables (JSON values); `context.ended` is true once
 *   the conversation reached a final state.
 * - No `after` delays and no invoked promises: timers and handlers are effects.
 */
import type { AnyStateMachine } from 'xstate';
import type { MediaAvailability } from '../api/resources.js';
import type { IntentSpec, Understanding } from '../understand/types.js';
import type { UnderstandQuery } from './understand-query.js';

/** JSON value kept in flow variables. */
export type VarValue = string | number | boolean | null;
export type Vars = Record<string, VarValue>;

/** The contact a conversation is with. */
export interface ContactInfo {
  /** E.164 phone number, the `to` of outbound messages. */
  readonly phone: string;
  readonly id: string;
  readonly name: string;
}

/** An inbound message normalised from a callback or a polled page. */
export interface InboundMessage {
  readonly id: string;
  readonly conversationId: string;
  readonly type:
    | 'text'
    | 'template'
    | 'image'
    | 'video'
    | 'audio'
    | 'document'
    | 'interactive'
    | 'location'
    | 'contacts'
    | 'unsupported';
  readonly occurredAt: string;
  /** `text.body` when present (not every inbound message has one). */
  readonly text?: string;
  /** Interactive selection id, to match against what the bot offered. */
  readonly optionId?: string;
  /** Visible label of an interactive reply: display only, never a command. */
  readonly label?: string;
  readonly media?: {
    readonly availability: MediaAvailability;
    readonly id?: string;
    readonly downloadPath?: string;
    /** When the API says it (the sandbox does). */
    readonly mimeType?: string;
    readonly caption?: string;
  };
  readonly location?: {
    readonly latitude: number;
    readonly longitude: number;
    readonly name?: string;
    readonly address?: string;
  };
  readonly contacts?: ReadonlyArray<{
    readonly name?: string;
    readonly phones?: readonly string[];
    readonly emails?: readonly string[];
  }>;
  /**
   * What the engine's understander proposed for this text (recorded in the conversation
   * document before the message was fed): present only where the flow asked for it.
   */
  readonly understood?: Understood;
}

/** A calling flow's understanding that acts inside the sub-flows it runs. */
export interface CallerUnderstanding {
  /** Its global intents (they have a `goto`). */
  readonly intents: readonly IntentSpec[];
  /** Whether it names an `understand.handoff` state. */
  readonly handoff: boolean;
}

/** An understander's proposal for an inbound text, and the threshold it is judged by. */
export interface Understood {
  readonly result: Understanding;
  /** The confidence threshold in force (the state's, the flow's or the bot's). */
  readonly threshold: number;
  /**
   * True when the text was understood inside a sub-flow and one of this flow's global
   * intents (or its handoff) took it: the sub-flow was left and this flow, in the state
   * that ran it, acts on that intent only.
   */
  readonly fromSubflow?: true;
}

/** Outbound content: the `type` and its content object, without `to`/`messaging_product`. */
export interface OutboundContent {
  readonly type: string;
  readonly [content: string]: unknown;
}

/** What to do with a non-template send when the 24-hour window is closed. */
export type WindowRule =
  | { readonly onClosed: 'template'; readonly template: OutboundContent }
  | { readonly onClosed: 'wait' }
  | { readonly onClosed: 'event' };

/** Events the engine sends to a flow machine. */
export type FlowEvent =
  /**
   * Starts the flow (from `bot.start`, with initial variables; or as a sub-flow, with its
   * inputs and the caller's effect seq to continue numbering from).
   */
  | { readonly type: 'conversation.start'; readonly vars?: Vars; readonly seq?: number }
  /** A sub-flow this flow called ended (or could not run: `error`). */
  | {
      readonly type: 'subflow.done';
      readonly requestId: string;
      /** The sub-flow's variables when it ended (the caller takes its `output`s). */
      readonly vars: Vars;
      /** Contact memory as the sub-flow left it. */
      readonly memory?: Vars;
      /** The sub-flow's last effect seq: numbering continues after it. */
      readonly seq: number;
      readonly error?: string;
    }
  /** A named event from outside (`bot.notify`, `POST /events`), with its data. */
  | { readonly type: 'external.event'; readonly name: string; readonly data: Vars }
  | { readonly type: 'inbound.message'; readonly message: InboundMessage }
  | {
      readonly type: 'handler.done';
      readonly requestId: string;
      readonly handler: string;
      readonly outcome: string;
      readonly vars?: Vars;
    }
  | {
      readonly type: 'handler.error';
      readonly requestId: string;
      readonly handler: string;
      readonly reason: 'error' | 'timeout' | 'unknown_outcome';
      readonly message: string;
    }
  | {
      readonly type: 'timer.fired';
      readonly name: string;
      /** When the timer ends a debounce state's burst: the collected text's understanding. */
      readonly understood?: Understood;
    }
  /** An accepted send failed later (status `failed` / `message.failed`), or was rejected. */
  | {
      readonly type: 'send.failed';
      readonly seq: number;
      readonly code: string;
      readonly messageId?: string;
    }
  /** A send whose outcome could not be confirmed by reconciliation (spec 4.5.6). */
  | { readonly type: 'send.unknown'; readonly seq: number }
  /** A non-template send with `onClosed: 'event'` met a closed window. */
  | { readonly type: 'window.closed'; readonly seq: number }
  /** A person took the conversation over (humanOwned became true). */
  | { readonly type: 'handoff.started' }
  /** The conversation was released to the API (humanOwned became false). */
  | { readonly type: 'handoff.released' };

export type FlowEventType = FlowEvent['type'];

/** Every flow event type, for machines that list them (and for metrics labels). */
export const FLOW_EVENT_TYPES: readonly FlowEventType[] = [
  'conversation.start',
  'subflow.done',
  'external.event',
  'inbound.message',
  'handler.done',
  'handler.error',
  'timer.fired',
  'send.failed',
  'send.unknown',
  'window.closed',
  'handoff.started',
  'handoff.released',
];

/** Effects a flow machine asks the engine to carry out. */
export type Effect =
  | {
      readonly kind: 'send';
      readonly seq: number;
      readonly content: OutboundContent;
      readonly window?: WindowRule;
    }
  | {
      readonly kind: 'call';
      readonly seq: number;
      readonly handler: string;
      readonly requestId: string;
      readonly input: Vars;
      readonly timeoutMs: number;
    }
  | {
      readonly kind: 'timer.start';
      readonly seq: number;
      readonly name: string;
      readonly delayMs: number;
      /** Epoch ms the timer is due at, when set (reminders); otherwise `delayMs` from now. */
      readonly at?: number;
    }
  | { readonly kind: 'timer.cancel'; readonly seq: number; readonly name: string }
  /** The flow asked for a person; the engine notes it and logs it (notification is a `call`). */
  | { readonly kind: 'handoff.request'; readonly seq: number; readonly reason?: string }
  /** The conversation reached a final state; the engine may forget its snapshot. */
  | { readonly kind: 'end'; readonly seq: number }
  /** Run flow `flowId` as a sub-flow; it answers with `subflow.done { requestId }`. */
  | {
      readonly kind: 'flow.call';
      readonly seq: number;
      readonly flowId: string;
      readonly requestId: string;
      readonly input: Vars;
    }
  /** Contact memory changed: store these values (all of them) for the contact. */
  | { readonly kind: 'memory.set'; readonly seq: number; readonly values: Vars }
  /**
   * The flow took its error path (unknown handler outcome, handler error without the
   * state's own `onError`): the engine logs one error line and counts it.
   */
  | {
      readonly kind: 'flow.error';
      readonly seq: number;
      readonly state: string;
      readonly code: string;
      readonly message: string;
      readonly target: string | null;
    };

export type EffectKind = Effect['kind'];

/** Every effect kind. */
export const EFFECT_KINDS: readonly EffectKind[] = [
  'send',
  'call',
  'timer.start',
  'timer.cancel',
  'handoff.request',
  'end',
  'flow.call',
  'memory.set',
  'flow.error',
];

/** The context shape every flow machine keeps (extra fields are allowed). */
export interface FlowContext {
  readonly outbox: readonly Effect[];
  readonly seq: number;
  readonly vars: Vars;
  readonly ended: boolean;
  /** Contact memory (compiled flows); the engine hands it to a sub-flow. */
  readonly memory?: Vars | undefined;
}

/** Input given to a flow machine when a conversation starts. */
export interface FlowInput {
  readonly conversationId: string;
  readonly contact: ContactInfo;
  /** The contact's memory (`contact.<name>` values kept across conversations). */
  readonly memory?: Vars;
}

/**
 * What the engine runs: a flow machine with its identity. `compileFlow()` produces one
 * from a flow file; a hand-written XState machine following this contract can be
 * wrapped the same way.
 */
export interface RunnableFlow {
  readonly id: string;
  /** Integer version; persisted snapshots carry it. */
  readonly version: number;
  /**
   * An XState v5 machine (typed loosely here so hand-written machines fit): created with
   * `createActor(machine, { input: FlowInput })` or `{ snapshot }` when restored; its
   * context follows {@link FlowContext}.
   */
  readonly machine: AnyStateMachine;
  /** Handler names the flow may call (for configuration checks at start). */
  readonly handlers: readonly string[];
  /** Ids of the flows it runs as sub-flows (they must be among the bot's flows). */
  readonly subflows?: readonly string[];
  /**
   * Whether a message is one of the flow's trigger keywords: while a sub-flow runs, a
   * caller's trigger ends the sub-flow and is handled by the caller.
   */
  readonly hasTrigger?: (message: InboundMessage) => boolean;
  /**
   * The intents the flow declares (given to the bot's understander when it is built);
   * absent when the flow does not use understanding.
   */
  readonly intents?: readonly IntentSpec[];
  /** The flow's out-of-scope examples per locale (`understand.outOfScope`), if any. */
  readonly outOfScope?: Readonly<Record<string, readonly string[]>>;
  /**
   * What of this flow's understanding still acts while a sub-flow it called runs: its
   * global intents (those with `goto`) and whether it hands off on request.
   */
  readonly callerUnderstanding?: CallerUnderstanding;
  /**
   * Whether the machine, in the persisted `snapshot` (null: not started), wants this
   * message understood, and what to ask: undefined when its deterministic matching takes
   * the message (a tap, a trigger, a typed choice, a valid answer) or understanding is off
   * there. Pure: the engine asks before feeding the message (see docs/understanding.md).
   * `outer`: the global intents of the flows that called this one (it runs as a sub-flow),
   * in scope after its own. A flow without understanding answers only when `outer` is
   * not empty.
   */
  readonly understandQuery?: (
    snapshot: unknown,
    message: InboundMessage,
    outer?: readonly IntentSpec[],
  ) => UnderstandQuery | undefined;
  /**
   * The text a debounce state collected, when `timer` (in the persisted `snapshot`) ends
   * its burst: the engine understands it before feeding the timer, like an inbound text.
   */
  readonly burstOf?: (snapshot: unknown, timer: string) => string | undefined;
  /**
   * What to do with a snapshot persisted under another version of this flow:
   * `restart` drops it and starts the conversation again; `migrate` returns a new
   * persisted snapshot, or undefined to restart.
   */
  readonly onVersionChange:
    | { readonly kind: 'restart' }
    | {
        readonly kind: 'migrate';
        readonly migrate: (persisted: unknown, fromVersion: number) => unknown;
      };
}
