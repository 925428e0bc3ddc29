import { z } from 'zod';

/**
 * zod schemas of the resources of spec part 2, as the API returns them.
 * Responses are parsed with these, never cast. Unknown extra fields are kept
 * (`looseObject`) because the spec says not every provider field is shown.
 */

/** The fixed platform constant sent as `messaging_product` (see shared/DESIGN.md). */
export const MESSAGING_PRODUCT = 'whatsapp';

export const MessageDirection = z.enum(['inbound', 'outbound']);
export type MessageDirection = z.infer<typeof MessageDirection>;

export const OutboundStatus = z.enum(['queued', 'sent', 'delivered', 'read', 'failed']);
export type OutboundStatus = z.infer<typeof OutboundStatus>;

export const MessageStatus = z.enum(['received', 'queued', 'sent', 'delivered', 'read', 'failed']);
export type MessageStatus = z.infer<typeof MessageStatus>;

/** The nine send types of POST /v1/messages (spec 4.5), in spec order. */
export const SEND_TYPES = [
  'text',
  'template',
  'image',
  'video',
  'audio',
  'document',
  'interactive',
  'location',
  'contacts',
] as const;

/** Message types on read: the send types, plus `unsupported` for inbound (spec 2.2). */
export const MessageType = z.enum([...SEND_TYPES, 'unsupported']);
export type MessageType = z.infer<typeof MessageType>;

/** Inbound interactive reply (spec 2.3). `label` is display-only: never parse it as a command. */
export const InteractiveReply = z.looseObject({
  type: z.literal('INTERACTIVE_RESPONSE'),
  mode: z.enum(['BUTTON', 'LIST', 'TEMPLATE_QUICK_REPLY']),
  optionId: z.string(),
  label: z.string().optional(),
  value: z.string().optional(),
});
export type InteractiveReply = z.infer<typeof InteractiveReply>;

export const MediaAvailability = z.enum(['ready', 'pending', 'failed', 'unavailable']);
export type MediaAvailability = z.infer<typeof MediaAvailability>;

/** Inbound media availability projection (spec 2.4). `id` and `downloadPath` only when ready. */
export const MediaProjection = z.looseObject({
  availability: MediaAvailability,
  id: z.string().optional(),
  downloadPath: z
    .string()
    .regex(/^\/v1\/media\/[^/]+$/, 'downloadPath must have the shape /v1/media/<media_id>')
    .optional(),
  mimeType: z.string().optional(),
  filename: z.string().optional(),
});
export type MediaProjection = z.infer<typeof MediaProjection>;

/** Inbound contact card entry: name is a string, phones and emails are arrays of strings. */
export const InboundContactCard = z.looseObject({
  name: z.string().optional(),
  phones: z.array(z.string()).optional(),
  emails: z.array(z.string()).optional(),
});

/**
 * Message object (spec 2.2): same shape in history, in `lastMessage` and in the
 * single-message read. Content fields depend on `type`; `text.body` may be missing.
 * Outbound content (template, media, interactive, contacts...) is kept as submitted,
 * so those fields are loose records.
 */
export const Message = z.looseObject({
  id: z.string(),
  conversationId: z.string(),
  contactId: z.string(),
  direction: MessageDirection,
  status: MessageStatus,
  failureCode: z.string().optional(),
  type: MessageType,
  occurredAt: z.iso.datetime({ offset: true }),
  text: z.looseObject({ body: z.string().optional() }).optional(),
  interactive: z.union([InteractiveReply, z.record(z.string(), z.unknown())]).optional(),
  media: MediaProjection.optional(),
  downloadPath: z.string().optional(),
  location: z.record(z.string(), z.unknown()).optional(),
  contacts: z.array(z.record(z.string(), z.unknown())).optional(),
  template: z.record(z.string(), z.unknown()).optional(),
  image: z.record(z.string(), z.unknown()).optional(),
  video: z.record(z.string(), z.unknown()).optional(),
  audio: z.record(z.string(), z.unknown()).optional(),
  document: z.record(z.string(), z.unknown()).optional(),
});
export type Message = z.infer<typeof Message>;

/** Conversation list item (spec 2.1). */
export const Conversation = z.looseObject({
  id: z.string(),
  contactId: z.string(),
  phoneNumber: z.string(),
  contactName: z.string(),
  lastMessageAt: z.iso.datetime({ offset: true }),
  humanOwned: z.boolean(),
  lastMessage: Message.nullable(),
});
export type Conversation = z.infer<typeof Conversation>;

/** A page of a list endpoint (spec 4.1, 4.2). A null `nextCursor` means no next page. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const ConversationPage = pageOf(Conversation);
export type ConversationPage = z.infer<typeof ConversationPage>;
export const MessagePage = pageOf(Message);
export type MessagePage = z.infer<typeof MessagePage>;

/** `GET /v1/messages/:id` response (spec 4.3). */
export const MessageEnvelope = z.object({ message: Message });

/** Send response (spec 2.5). */
export const SendResponse = z.looseObject({
  messaging_product: z.literal(MESSAGING_PRODUCT),
  messageId: z.string().min(1),
  status: z.literal('queued'),
});
export type SendResponse = z.infer<typeof SendResponse>;

/** Every error code of spec part 7 (with the part 7 correction: `backlog_full`). */
export const ERROR_CODES = [
  'invalid_message',
  'invalid_pagination',
  'invalid_cursor',
  'unauthorized',
  'invalid_api_key',
  'insufficient_scope',
  'api_key_not_allowed',
  'message_not_found',
  'conversation_not_found',
  'media_not_found',
  'template_not_found',
  'instance_not_api_managed',
  'instance_unavailable',
  'contact_unavailable',
  'message_not_allowed',
  'conversation_owned_by_human',
  'service_window_closed',
  'template_not_approved',
  'quality_blocked',
  'contact_opted_out',
  'contact_instance_restricted',
  'contact_marketing_restricted',
  'rate_limited',
  'media_concurrency_exceeded',
  'temporarily_unavailable',
  'backlog_full',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Error envelope (spec part 7): a stable `code`, a human `message`, and optional safe
 * detail fields such as `retryAfterSeconds`. Codes we do not know are kept as strings.
 */
export const ErrorEnvelope = z.looseObject({
  code: z.string().min(1),
  message: z.string(),
  retryAfterSeconds: z.number().nonnegative().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
