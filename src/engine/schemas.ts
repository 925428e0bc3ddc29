/**
 * zod schemas of the flow contract's data, used wherever the engine reads it back
 * (store documents, inbox items) or takes it from a machine.
 */
import { z } from 'zod';
import { UnderstandingSchema } from '../understand/understanding-schema.js';
import { MediaAvailability, MessageType } from '../api/resources.js';

export const VarsSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);

export const ContactInfoSchema = z.object({ phone: z.string(), id: z.string(), name: z.string() });

export const InboundMessageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  type: MessageType,
  occurredAt: z.string(),
  text: z.string().exactOptional(),
  optionId: z.string().exactOptional(),
  label: z.string().exactOptional(),
  media: z
    .object({
      availability: MediaAvailability,
      id: z.string().exactOptional(),
      downloadPath: z.string().exactOptional(),
      mimeType: z.string().exactOptional(),
      caption: z.string().exactOptional(),
    })
    .exactOptional(),
  location: z
    .object({
      latitude: z.number(),
      longitude: z.number(),
      name: z.string().exactOptional(),
      address: z.string().exactOptional(),
    })
    .exactOptional(),
  contacts: z
    .array(
      z.object({
        name: z.string().exactOptional(),
        phones: z.array(z.string()).exactOptional(),
        emails: z.array(z.string()).exactOptional(),
      }),
    )
    .exactOptional(),
  understood: z.object({ result: UnderstandingSchema, threshold: z.number() }).exactOptional(),
});

export const OutboundContentSchema = z.looseObject({ type: z.string() });

export const WindowRuleSchema = z.discriminatedUnion('onClosed', [
  z.object({ onClosed: z.literal('template'), template: OutboundContentSchema }),
  z.object({ onClosed: z.literal('wait') }),
  z.object({ onClosed: z.literal('event') }),
]);

const seq = z.number().int();

export const SendEffectSchema = z.object({
  kind: z.literal('send'),
  seq,
  content: OutboundContentSchema,
  window: WindowRuleSchema.exactOptional(),
});

export const EffectSchema = z.discriminatedUnion('kind', [
  SendEffectSchema,
  z.object({
    kind: z.literal('call'),
    seq,
    handler: z.string(),
    requestId: z.string(),
    input: VarsSchema,
    timeoutMs: z.number(),
  }),
  z.object({
    kind: z.literal('timer.start'),
    seq,
    name: z.string(),
    delayMs: z.number(),
    at: z.number().exactOptional(),
  }),
  z.object({ kind: z.literal('timer.cancel'), seq, name: z.string() }),
  z.object({ kind: z.literal('handoff.request'), seq, reason: z.string().exactOptional() }),
  z.object({ kind: z.literal('end'), seq }),
  z.object({
    kind: z.literal('flow.call'),
    seq,
    flowId: z.string(),
    requestId: z.string(),
    input: VarsSchema,
  }),
  z.object({ kind: z.literal('memory.set'), seq, values: VarsSchema }),
  z.object({
    kind: z.literal('flow.error'),
    seq,
    state: z.string(),
    code: z.string(),
    message: z.string(),
    target: z.string().nullable(),
  }),
]);

export const FlowEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('conversation.start'),
    vars: VarsSchema.exactOptional(),
    seq: z.number().int().exactOptional(),
  }),
  z.object({
    type: z.literal('subflow.done'),
    requestId: z.string(),
    vars: VarsSchema,
    memory: VarsSchema.exactOptional(),
    seq,
    error: z.string().exactOptional(),
  }),
  z.object({ type: z.literal('external.event'), name: z.string(), data: VarsSchema }),
  z.object({ type: z.literal('inbound.message'), message: InboundMessageSchema }),
  z.object({
    type: z.literal('handler.done'),
    requestId: z.string(),
    handler: z.string(),
    outcome: z.string(),
    vars: VarsSchema.exactOptional(),
  }),
  z.object({
    type: z.literal('handler.error'),
    requestId: z.string(),
    handler: z.string(),
    reason: z.enum(['error', 'timeout', 'unknown_outcome']),
    message: z.string(),
  }),
  z.object({ type: z.literal('timer.fired'), name: z.string() }),
  z.object({
    type: z.literal('send.failed'),
    seq,
    code: z.string(),
    messageId: z.string().exactOptional(),
  }),
  z.object({ type: z.literal('send.unknown'), seq }),
  z.object({ type: z.literal('window.closed'), seq }),
  z.object({ type: z.literal('handoff.started') }),
  z.object({ type: z.literal('handoff.released') }),
]);

/** The part of a machine's context the engine relies on (extra fields are allowed). */
export const FlowContextSchema = z.looseObject({
  outbox: z.array(EffectSchema),
  seq: z.number(),
  vars: VarsSchema,
  ended: z.boolean(),
});
