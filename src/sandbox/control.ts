import type { Conversation, Message, OutboundStatus } from '../api/resources.js';
import { parseDuration } from '../core/duration.js';
import { windowOpen } from './admission.js';
import type { CallbackAttempt } from './callback-dispatcher.js';
import {
  type CallbackConfig,
  type ContactState,
  type NumberConfig,
  type Quality,
  CallbackConfigSchema,
} from './config.js';
import type { SandboxContext } from './context.js';
import { setStatus } from './delivery.js';
import { createInboxControl, type InboxControl } from './control-inbox.js';
import { FaultSpec, type FaultInput } from './faults.js';
import { InboundSpec, injectInbound, type InboundInput } from './inbound.js';
import type { ConversationRecord, SentRecord } from './model.js';
import { toConversation, toMessage } from './projection.js';

/** A control operation that cannot be done (unknown id, invalid input). */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
  constructor(
    /** `not_found` or `invalid_request`. */
    readonly code: 'not_found' | 'invalid_request',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A conversation as the control API lists it: the API shape plus sandbox state. */
export type ControlConversation = Conversation & {
  readonly numberId: string;
  readonly lastInboundAt: string | null;
  readonly windowOpen: boolean;
};

/** Callback settings accepted by {@link SandboxControl.setCallback}. */
export type CallbackInput = Pick<CallbackConfig, 'url' | 'secret'> &
  Partial<Omit<CallbackConfig, 'url' | 'secret'>>;

/** The in-process control API: the same operations as the `/sandbox` routes. */
export interface SandboxControl extends InboxControl {
  /** Records a message from a contact (opens the window, emits `message.received`). */
  injectInbound(spec: InboundInput): Message;
  /** A person takes the conversation over (by id, or by the contact's phone number). */
  takeOver(conversation: string): Conversation;
  /** A teammate selects "Release to API". */
  release(conversation: string): Conversation;
  /** Moves the sandbox clock (ms or `'25h'`) and applies everything that became due. */
  advance(by: number | string): number;
  /** Forces an outbound message's status (and failure code). */
  setStatus(messageId: string, status: OutboundStatus, failureCode?: string): Message;
  /** Arms a fault for the next `count` calls of a route. */
  addFault(spec: FaultInput): void;
  clearFaults(): void;
  /** Every send accepted by POST /v1/messages, oldest first. */
  sent(): readonly SentRecord[];
  /** Every conversation of every number, latest first, with window state. */
  conversations(): ControlConversation[];
  setContactState(phoneNumber: string, state: ContactState): void;
  /** Sets a number's quality (default: the first number), or a template's with `template`. */
  setQuality(
    quality: Quality,
    target?: { readonly number?: string; readonly template?: string },
  ): void;
  /** Changes a number's handling or connection. */
  setNumber(
    numberId: string,
    change: Partial<Pick<NumberConfig, 'handling' | 'connected' | 'quality'>>,
  ): void;
  /** Sets (or with undefined removes) the callback receiver. */
  setCallback(callback: CallbackInput | undefined): void;
  /** Holds media downloads open after their first chunk (media concurrency tests). */
  holdMediaStreams(held: boolean): void;
  /** Every callback delivery attempt so far. */
  callbackAttempts(): readonly CallbackAttempt[];
  /** Resolves when no callback is queued or in flight. */
  callbacksIdle(): Promise<void>;
  /** Applies due status and media changes now. */
  runDue(): number;
  /** Clears conversations, messages, sends, faults, counters and callback queues. */
  reset(): void;
}

/** Builds the control object over a sandbox context. */
export function createControl(ctx: SandboxContext): SandboxControl {
  const conversationOf = (ref: string): ConversationRecord => {
    const found = ref.startsWith('+')
      ? ctx.state.findConversation(ctx.config.numbers[0]?.id ?? '', ref)
      : ctx.state.conversations.get(ref);
    if (found === undefined) throw new SandboxControlError('not_found', `no conversation "${ref}"`);
    return found;
  };
  const setOwner = (ref: string, humanOwned: boolean): Conversation => {
    ctx.runDue();
    const conversation = conversationOf(ref);
    if (conversation.humanOwned !== humanOwned) {
      conversation.humanOwned = humanOwned;
      ctx.state.emit({ type: 'conversation.ownership', conversation });
    }
    return toConversation(conversation, ctx.state);
  };
  const invalid = (message: string): never => {
    throw new SandboxControlError('invalid_request', message);
  };

  return {
    ...createInboxControl(ctx, (code, message) => {
      throw new SandboxControlError(code, message);
    }),
    injectInbound(input) {
      ctx.runDue();
      const spec = InboundSpec.safeParse(input);
      if (!spec.success)
        return invalid(
          `invalid inbound message: ${spec.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      const result = injectInbound(ctx, spec.data);
      if (result.status === 'invalid') return invalid(result.message);
      return result.message;
    },
    takeOver: (ref) => setOwner(ref, true),
    release: (ref) => setOwner(ref, false),
    advance(by) {
      const d = parseDuration(by);
      if (d.status === 'invalid') return invalid(d.message);
      ctx.clock.advance(d.ms);
      ctx.runDue();
      return ctx.clock.now();
    },
    setStatus(messageId, status, failureCode) {
      ctx.runDue();
      const message = ctx.state.messages.get(messageId);
      if (message === undefined)
        throw new SandboxControlError('not_found', `no message "${messageId}"`);
      if (message.direction !== 'outbound')
        return invalid(`message "${messageId}" is inbound; only outbound statuses change`);
      setStatus(ctx.state, message, status, failureCode);
      return toMessage(message, ctx.state);
    },
    addFault(input) {
      const spec = FaultSpec.safeParse(input);
      if (!spec.success)
        return invalid(
          `invalid fault: ${spec.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      ctx.faults.add(spec.data);
    },
    clearFaults: () => ctx.faults.clear(),
    sent: () => [...ctx.state.sentLog],
    conversations() {
      ctx.runDue();
      const now = ctx.clock.now();
      return [...ctx.state.conversations.values()]
        .sort((a, b) => b.lastMessageAt - a.lastMessageAt || b.seq - a.seq)
        .map((c) => ({
          ...toConversation(c, ctx.state),
          numberId: c.numberId,
          lastInboundAt:
            c.lastInboundAt === undefined ? null : new Date(c.lastInboundAt).toISOString(),
          windowOpen: windowOpen(c, now),
        }));
    },
    setContactState(phoneNumber, state) {
      ctx.state.contact(phoneNumber).state = state;
    },
    setQuality(quality, target = {}) {
      if (target.template !== undefined) {
        const templates = ctx.config.templates.filter((t) => t.name === target.template);
        if (templates.length === 0)
          throw new SandboxControlError('not_found', `no template "${target.template}"`);
        for (const t of templates) t.quality = quality;
        return;
      }
      numberOf(target.number).quality = quality;
    },
    setNumber(numberId, change) {
      Object.assign(numberOf(numberId), change);
    },
    setCallback(callback) {
      if (callback === undefined) return ctx.callbacks.configure(undefined);
      const parsed = CallbackConfigSchema.safeParse(callback);
      if (!parsed.success) {
        return invalid(
          `invalid callback: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      }
      ctx.config.callback = parsed.data;
      ctx.callbacks.configure(parsed.data);
    },
    holdMediaStreams: (held) => ctx.mediaStreams.hold(held),
    callbackAttempts: () => [...ctx.callbacks.attempts],
    callbacksIdle: () => ctx.callbacks.idle(),
    runDue: () => ctx.runDue(),
    reset() {
      ctx.state.reset();
      ctx.faults.clear();
      ctx.rate.reset();
      ctx.callbacks.clear();
      ctx.mediaStreams.hold(false);
    },
  };

  function numberOf(id: string | undefined): NumberConfig {
    const number =
      id === undefined ? ctx.config.numbers[0] : ctx.config.numbers.find((n) => n.id === id);
    if (number === undefined)
      throw new SandboxControlError('not_found', `no number "${String(id)}"`);
    return number;
  }
}
