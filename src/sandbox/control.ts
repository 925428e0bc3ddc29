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
  E164,
} from './config.js';
import type { SandboxContext } from './context.js';
import { setStatus } from './delivery.js';
import { createInboxControl, type InboxControl } from './control-inbox.js';
import { FaultSpec, type FaultInput } from './faults.js';
import { InboundSpec, injectInbound, type InboundInput } from './inbound.js';
import type { ConversationRecord, SentRecord } from './model.js';
import { toConversation, toMessage } from './projection.js';
import { SandboxControlError } from './control-error.js';
import type { MediaHoldView } from './media-streams.js';
import { parse } from './provisioning-input.js';
import { createProvisioning, type ProvisioningControl } from './provisioning.js';

export { SandboxControlError } from './control-error.js';

/** A conversation as the control API lists it: the API shape plus sandbox state. */
export type ControlConversation = Conversation & {
  readonly numberId: string;
  readonly lastInboundAt: string | null;
  readonly windowOpen: boolean;
};

/** Callback settings accepted by {@link SandboxControl.setCallback}. */
export type CallbackInput = Pick<CallbackConfig, 'url' | 'secret'> &
  Partial<Omit<CallbackConfig, 'url' | 'secret'>>;

/** The scopes of {@link SandboxControl.reset}. */
export const RESET_SCOPES = ['rate-limits', 'conversations', 'faults', 'all'] as const;
/** What `reset` clears; see {@link SandboxControl.reset}. */
export type ResetScope = (typeof RESET_SCOPES)[number];

/** Holds on media downloads (media concurrency tests), see `MediaStreams`. */
export interface MediaHoldControl {
  /** Holds the next `count` downloads (default 1; of `mediaId` only when given) open before their first body byte. */
  holdDownloads(options?: { readonly count?: number; readonly mediaId?: string }): MediaHoldView;
  /** Lets the downloads of one hold finish and removes the hold. */
  releaseDownloads(holdId: string): void;
  /** Holds with the downloads they still catch and those waiting. */
  downloadHolds(): MediaHoldView[];
}

/** The in-process control API: the same operations as the `/sandbox` routes. */
export interface SandboxControl extends ProvisioningControl, MediaHoldControl, InboxControl {
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
  /** Holds every media download before its first body byte until `false` (prefer {@link MediaHoldControl.holdDownloads}). */
  holdMediaStreams(held: boolean): void;
  /** Every callback delivery attempt so far. */
  callbackAttempts(): readonly CallbackAttempt[];
  /** Resolves when no callback is queued or in flight. */
  callbacksIdle(): Promise<void>;
  /** Applies due status and media changes now. */
  runDue(): number;
  /**
   * Clears state by scope: `rate-limits` (request budgets), `conversations`
   * (conversations, messages, media, sends, queued callbacks; contacts back to their
   * provisioned state), `faults`, or `all` (the default: all of these and every media
   * hold). Provisioning (keys, numbers, templates, contacts, callback) is kept.
   */
  reset(scope?: ResetScope): void;
}

/** Builds the control object over a sandbox context. */
export function createControl(ctx: SandboxContext): SandboxControl {
  const conversationOf = (ref: string): ConversationRecord => {
    if (ref.startsWith('+')) parse(E164, ref, 'phone number');
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
    ...createProvisioning(ctx),
    ...mediaHoldControl(ctx),
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
      try {
        ctx.clock.advance(d.ms);
      } catch (error) {
        return invalid((error as Error).message);
      }
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
      ctx.state.contact(parse(E164, phoneNumber, 'phone number')).state = state;
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
      if (callback === undefined) {
        delete ctx.config.callback;
        ctx.callbacks.configure(undefined);
        return;
      }
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
    reset(scope = 'all') {
      if (!RESET_SCOPES.includes(scope))
        return invalid(`unknown reset scope "${String(scope)}"; use ${RESET_SCOPES.join(', ')}`);
      if (scope === 'rate-limits' || scope === 'all') ctx.rate.reset();
      if (scope === 'faults' || scope === 'all') ctx.faults.clear();
      if (scope === 'conversations' || scope === 'all') {
        ctx.state.reset();
        ctx.callbacks.clear();
      }
      if (scope === 'all') ctx.mediaStreams.releaseAll();
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

/** The media-hold operations of the control object (kept apart to ease merging). */
function mediaHoldControl(ctx: SandboxContext): MediaHoldControl {
  return {
    holdDownloads(options = {}) {
      const count = options.count ?? 1;
      if (!Number.isInteger(count) || count < 1 || count > 1_000)
        throw new SandboxControlError(
          'invalid_request',
          `count must be an integer 1..1000 (got ${count})`,
        );
      return ctx.mediaStreams.addHold(count, options.mediaId);
    },
    releaseDownloads(holdId) {
      if (!ctx.mediaStreams.releaseHold(holdId))
        throw new SandboxControlError('not_found', `no media hold "${holdId}"`);
    },
    downloadHolds: () => ctx.mediaStreams.holds(),
  };
}
