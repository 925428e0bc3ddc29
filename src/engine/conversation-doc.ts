/**
 * The persisted document of one conversation and the inbox items that drive it.
 * Both are validated with zod when read back from the store.
 */
import { z } from 'zod';
import { OutboundStatus } from '../api/resources.js';
import { UnderstandingSchema } from '../understand/understanding-schema.js';
import type { JournalEntry } from '../journal/journal-entry.js';
import { ExternalEventPayloadSchema } from './external-event.js';
import {
  ContactInfoSchema,
  EffectSchema,
  FlowEventSchema,
  InboundMessageSchema,
  SendEffectSchema,
  VarsSchema,
} from './schemas.js';

/** How many applied item ids a document remembers (items apply in order, so few suffice). */
export const APPLIED_KEPT = 32;

/** A flow waiting for the sub-flow it runs (a frame of the conversation's call stack). */
export const StackFrameSchema = z.object({
  flowId: z.string(),
  flowVersion: z.number().int(),
  /** The caller's persisted snapshot, in its sub-flow state. */
  snapshot: z.unknown(),
  state: z.string(),
  /** The `flow.call` request the sub-flow answers. */
  requestId: z.string(),
});
export type StackFrame = z.infer<typeof StackFrameSchema>;

/**
 * The understanding of the latest understood inbound message, recorded before any effect
 * of it: `started` (a model call began; a retry must not call again) or `done` with the
 * proposal and the threshold it is judged by.
 */
export const UnderstoodRecordSchema = z.object({
  messageId: z.string(),
  status: z.enum(['started', 'done']),
  result: UnderstandingSchema.exactOptional(),
  threshold: z.number().exactOptional(),
});
export type UnderstoodRecord = z.infer<typeof UnderstoodRecordSchema>;

/** The conversation document (key: the conversation id). */
export const ConversationDocSchema = z.object({
  flowId: z.string(),
  flowVersion: z.number().int(),
  /**
   * Incremented each time the conversation starts afresh (after an end or a restart),
   * so send records and effect numbers of an earlier run never collide.
   */
  epoch: z.number().int(),
  /** XState persisted snapshot; null when the flow ended (the next inbound starts afresh). */
  snapshot: z.unknown(),
  /** Effects of the latest event; those with `seq > lastEffectSeq` are still to run. */
  pending: z.array(EffectSchema),
  lastEffectSeq: z.number().int(),
  contact: ContactInfoSchema,
  lastInboundAt: z.number().exactOptional(),
  humanOwned: z.boolean(),
  /** Non-template sends held until the contact writes again (window rule `wait`). */
  heldSends: z.array(SendEffectSchema),
  /** The machine's state value as a dotted path (for `inspect`). */
  state: z.string(),
  vars: VarsSchema,
  ended: z.boolean(),
  /**
   * Ids of the latest inbox items applied to this document (newest last, at most
   * {@link APPLIED_KEPT}), written in the same compare-and-set as the state they led to:
   * an item found here after a crash is not applied again, only its pending effects run.
   */
  applied: z.array(z.string()),
  /** Callers of the running sub-flow, innermost last (absent: no sub-flow runs). */
  stack: z.array(StackFrameSchema).exactOptional(),
  /** The understanding of the latest understood inbound message (see docs/understanding.md). */
  understood: UnderstoodRecordSchema.exactOptional(),
  /**
   * What happened to the conversation, oldest first, bounded (src/journal/journal.ts);
   * stored compact (src/journal/stored-journal.ts). Entries are checked one by one when
   * an operator reads them (conversation-view.ts): the engine only appends, so a damaged
   * entry never makes the document unreadable (a stored one that does not decode is left
   * out with a warning).
   */
  journal: z.array(z.custom<JournalEntry>(isEntryLike)).exactOptional(),
});
export type ConversationDoc = z.infer<typeof ConversationDocSchema>;

/** What an inbox item carries. */
export const InboxPayloadSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('inbound'),
    message: InboundMessageSchema,
    contact: ContactInfoSchema,
    humanOwned: z.boolean().exactOptional(),
  }),
  z.object({
    kind: z.literal('status'),
    messageId: z.string(),
    status: OutboundStatus,
    failureCode: z.string().exactOptional(),
  }),
  z.object({
    kind: z.literal('ownership'),
    humanOwned: z.boolean(),
    contact: ContactInfoSchema.exactOptional(),
  }),
  /** An event produced by the engine itself (handler result, timer, send outcome). */
  z.object({ kind: z.literal('flow'), event: FlowEventSchema }),
  /** An event from outside (`bot.notify`, `bot.start`, `POST /events`); see external-event.ts. */
  ExternalEventPayloadSchema,
  /** Another attempt to reconcile a send whose outcome is unknown. */
  z.object({ kind: z.literal('reconcile'), sendId: z.string(), attempt: z.number().int() }),
]);
export type InboxPayload = z.infer<typeof InboxPayloadSchema>;

function isEntryLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
