/**
 * The entries of a conversation's journal: what happened to one conversation, newest
 * last, kept in its stored document (see journal.ts for the bound and docs/inspect.md).
 * Every entry carries `at` (epoch ms, the engine's clock) and a `kind`. Texts are short
 * previews ({@link PREVIEW_CHARS}) and are left out entirely when the bot's privacy
 * switch (`journal.texts: false`, `SWITCHBOARD_JOURNAL_TEXTS=0`) is on.
 */
import { z } from 'zod';

/** Longest text preview kept in an entry (characters; an ellipsis marks a cut). */
export const PREVIEW_CHARS = 60;
/** Longest error message kept in an entry (characters). */
export const ERROR_CHARS = 160;

const at = z.number();
const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** An inbound message the conversation received (also one ignored while a person owns it). */
export const InboundEntrySchema = z.object({
  kind: z.literal('inbound'),
  at,
  messageId: z.string(),
  /** The message type (`text`, `interactive`, `image`, …). */
  type: z.string(),
  /** Short preview of its text, caption or chosen option's label (absent: private or none). */
  text: z.string().exactOptional(),
  /** The option (button / list row) chosen, when it was one. */
  optionId: z.string().exactOptional(),
  /** Why it was not fed to the flow: a person owns the conversation, or it predates the bot. */
  ignored: z.enum(['human_owned', 'history']).exactOptional(),
});

/** What the understander made of an inbound text. */
export const UnderstoodEntrySchema = z.object({
  kind: z.literal('understood'),
  at,
  messageId: z.string(),
  source: z.string(),
  intent: z.string().exactOptional(),
  confidence: z.number().exactOptional(),
  /** Whether the intent reached the threshold it was judged by. */
  matched: z.boolean(),
  /** Slot names filled (values stay out of the journal). */
  slots: z.array(z.string()).exactOptional(),
});

/** The flow machine moved from one state to another (dotted state paths). */
export const TransitionEntrySchema = z.object({
  kind: z.literal('transition'),
  at,
  from: z.string(),
  to: z.string(),
  /** The event type that caused it (`inbound.message`, `handler.done`, `timer.fired`, …). */
  event: z.string(),
  flowId: z.string(),
});

/** Variables set or removed by one step (values previewed; private: names only). */
export const VarsEntrySchema = z.object({
  kind: z.literal('vars'),
  at,
  set: z.record(z.string(), Scalar),
  unset: z.array(z.string()).exactOptional(),
});

/** A handler call and how it ended. */
export const HandlerEntrySchema = z.object({
  kind: z.literal('handler'),
  at,
  handler: z.string(),
  requestId: z.string(),
  /** `done` with the handler's outcome name, or the error reason. */
  status: z.enum(['done', 'error', 'timeout', 'unknown_outcome']),
  outcome: z.string().exactOptional(),
  durationMs: z.number(),
  error: z.string().exactOptional(),
});

/** One send effect and what the API answered (`status`: the latest delivery status seen). */
export const SendEntrySchema = z.object({
  kind: z.literal('send'),
  at,
  seq: z.number().int(),
  /** The send record id (`<conversationId>:<epoch>:<seq>`), joined at inspect time. */
  sendId: z.string(),
  /** The content type sent (`text`, `interactive`, `template`, …). */
  contentType: z.string(),
  text: z.string().exactOptional(),
  outcome: z.enum([
    'accepted',
    'rejected',
    'unknown',
    'held',
    'suppressed',
    'owned',
    'already_done',
  ]),
  messageId: z.string().exactOptional(),
  /** The API's error code of a rejection (or of a later failure). */
  code: z.string().exactOptional(),
  /** The latest delivery status reported (`sent`, `delivered`, `read`, `failed`). */
  status: z.string().exactOptional(),
  /** The send went out as the window rule's template fallback. */
  fallback: z.boolean().exactOptional(),
});

/** A durable timer set, fired or cancelled. */
export const TimerEntrySchema = z.object({
  kind: z.literal('timer'),
  at,
  action: z.enum(['set', 'fired', 'cancelled']),
  name: z.string(),
  dueAt: z.number().exactOptional(),
});

/** Ownership changed (a person took over / released), or the flow asked for a person. */
export const HandoffEntrySchema = z.object({
  kind: z.literal('handoff'),
  at,
  /** `requested`: the flow asked; the others: who changed ownership. */
  change: z.enum(['taken', 'released', 'requested']),
  /** `api`: an ownership callback/inbound flag; `send`: a send answered 409; `flow`. */
  by: z.enum(['api', 'send', 'flow']),
  reason: z.string().exactOptional(),
});

/** One reconciliation attempt of a send whose outcome was unknown (spec 4.5.6). */
export const ReconcileEntrySchema = z.object({
  kind: z.literal('reconcile'),
  at,
  sendId: z.string(),
  seq: z.number().int(),
  attempt: z.number().int(),
  /**
   * `found`: it was admitted (messageId); `resent`: proven absent and sent once more
   * (`messageId` when accepted, `code` when rejected, neither when unknown again);
   * `retry`: not decided yet, another attempt is scheduled; `gave_up`: the flow heard
   * `send.unknown`.
   */
  result: z.enum(['found', 'resent', 'retry', 'gave_up']),
  messageId: z.string().exactOptional(),
  code: z.string().exactOptional(),
});

/** The conversation started afresh, ended, or entered / left a sub-flow. */
export const LifecycleEntrySchema = z.object({
  kind: z.literal('lifecycle'),
  at,
  change: z.enum(['started', 'ended', 'subflow_started', 'subflow_returned']),
  flowId: z.string(),
});

/** Something went wrong: the flow's error path, a machine failure, a failed send. */
export const ErrorEntrySchema = z.object({
  kind: z.literal('error'),
  at,
  source: z.enum(['flow', 'machine', 'send', 'handler']),
  code: z.string().exactOptional(),
  message: z.string(),
  state: z.string().exactOptional(),
});

/** One journal entry (validated when read back from a store). */
export const JournalEntrySchema = z.discriminatedUnion('kind', [
  InboundEntrySchema,
  UnderstoodEntrySchema,
  TransitionEntrySchema,
  VarsEntrySchema,
  HandlerEntrySchema,
  SendEntrySchema,
  TimerEntrySchema,
  HandoffEntrySchema,
  ReconcileEntrySchema,
  LifecycleEntrySchema,
  ErrorEntrySchema,
]);
export type JournalEntry = z.infer<typeof JournalEntrySchema>;
export type JournalEntryKind = JournalEntry['kind'];
/** The entry of one kind. */
export type JournalEntryOf<K extends JournalEntryKind> = Extract<JournalEntry, { kind: K }>;
