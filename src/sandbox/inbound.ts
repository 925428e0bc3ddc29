import { z } from 'zod';
import type { Message } from '../api/resources.js';
import { parseDuration } from '../core/duration.js';
import { MAX_CLOCK_ADVANCE_MS } from './sandbox-clock.js';
import type { SandboxContext } from './context.js';
import type { MediaRecord, MessageRecord } from './model.js';
import { toMessage } from './projection.js';
import { newId } from './state.js';

const E164 = z
  .string()
  .regex(/^\+[1-9]\d{7,14}$/, { error: 'from must be an E.164 number like +15551230001' });
const common = {
  /** The contact's phone number. */
  from: E164,
  /** Business number id; default: the first configured number. */
  number: z.string().optional(),
  /** Name of a contact not yet known (a known contact keeps its name). */
  contactName: z.string().min(1).optional(),
  /** When the contact wrote, in the past (ISO 8601); default: now. Not with `ageMs`. */
  occurredAt: z.iso.datetime({ offset: true }).optional(),
  /** How long ago the contact wrote: ms or a duration such as `'25h'`; default 0. Not with `occurredAt`. */
  ageMs: z.union([z.number().nonnegative(), z.string().min(1)]).optional(),
};
const MediaOptions = z.strictObject({
  mimeType: z.string().min(1).optional(),
  filename: z.string().min(1).optional(),
  /** File content as UTF-8 text (default: a small generated file). */
  content: z.string().optional(),
  /** File content as base64 (binary files, e.g. a real image); wins over `content`. */
  contentBase64: z.base64().optional(),
  /** Where availability ends after `readyAfterMs` (default ready). */
  outcome: z.enum(['ready', 'failed', 'unavailable']).default('ready'),
  /** Delay from pending to the outcome, sandbox-clock ms (default: delivery.mediaReadyAfterMs; 0 = at once). */
  readyAfterMs: z.number().int().nonnegative().optional(),
});
const media = (type: 'image' | 'video' | 'audio' | 'document') =>
  z.strictObject({
    ...common,
    type: z.literal(type),
    caption: z.string().optional(),
    media: MediaOptions.default({ outcome: 'ready' }),
  });

/** A message injected as if a contact had sent it (control API). */
export const InboundSpec = z.discriminatedUnion('type', [
  z.strictObject({ ...common, type: z.literal('text'), text: z.string().min(1) }),
  z.strictObject({
    ...common,
    type: z.literal('interactive'),
    optionId: z.string().min(1),
    label: z.string().optional(),
    value: z.string().optional(),
    mode: z.enum(['BUTTON', 'LIST', 'TEMPLATE_QUICK_REPLY']).default('BUTTON'),
  }),
  media('image'),
  media('video'),
  media('audio'),
  media('document'),
  z.strictObject({
    ...common,
    type: z.literal('location'),
    location: z.strictObject({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      name: z.string().optional(),
      address: z.string().optional(),
    }),
  }),
  z.strictObject({
    ...common,
    type: z.literal('contacts'),
    contacts: z
      .array(
        z.strictObject({
          name: z.string().optional(),
          phones: z.array(z.string()).optional(),
          emails: z.array(z.string()).optional(),
        }),
      )
      .min(1),
  }),
  z.strictObject({ ...common, type: z.literal('unsupported') }),
]);
export type InboundSpec = z.infer<typeof InboundSpec>;
export type InboundInput = z.input<typeof InboundSpec>;

const MIME: Record<string, [string, string]> = {
  image: ['image/jpeg', 'photo.jpg'],
  video: ['video/mp4', 'clip.mp4'],
  audio: ['audio/ogg', 'voice.ogg'],
  document: ['application/pdf', 'document.pdf'],
};

/** Outcome of {@link injectInbound}. */
export type InjectResult =
  | { readonly status: 'injected'; readonly message: Message }
  | { readonly status: 'invalid'; readonly message: string };

/** Records an inbound message from a contact: opens the 24-hour window and emits `message.received`. */
export function injectInbound(ctx: SandboxContext, spec: InboundSpec): InjectResult {
  const numberId = spec.number ?? ctx.config.numbers[0]?.id;
  if (numberId === undefined || !ctx.config.numbers.some((n) => n.id === numberId)) {
    return { status: 'invalid', message: `unknown number "${String(spec.number)}"` };
  }
  const now = ctx.clock.now();
  const when = occurredAtOf(spec, now);
  if (typeof when === 'string') return { status: 'invalid', message: when };
  const contact = ctx.state.contact(spec.from);
  if (spec.contactName !== undefined && contact.name === contact.phoneNumber)
    contact.name = spec.contactName;
  const conversation = ctx.state.conversation(numberId, spec.from, when);
  const id = newId('msg');
  let content: Record<string, unknown> = {};
  let mediaId: string | undefined;
  switch (spec.type) {
    case 'text':
      content = { text: { body: spec.text } };
      break;
    case 'interactive':
      content = {
        interactive: {
          type: 'INTERACTIVE_RESPONSE',
          mode: spec.mode,
          optionId: spec.optionId,
          label: spec.label ?? spec.optionId,
          value: spec.value ?? spec.label ?? spec.optionId,
        },
      };
      break;
    case 'location':
      content = { location: spec.location };
      break;
    case 'contacts':
      content = { contacts: spec.contacts };
      break;
    case 'unsupported':
      break;
    default: {
      const [mimeType, filename] = MIME[spec.type] ?? ['application/octet-stream', 'file.bin'];
      const delay = spec.media.readyAfterMs ?? ctx.config.delivery.mediaReadyAfterMs;
      const record: MediaRecord = {
        id: newId('med'),
        numberId,
        messageId: id,
        availability: delay === 0 ? spec.media.outcome : 'pending',
        readyAt: delay === 0 ? undefined : now + delay,
        final: spec.media.outcome,
        mimeType: spec.media.mimeType ?? mimeType,
        filename: spec.media.filename ?? filename,
        bytes:
          spec.media.contentBase64 === undefined
            ? Buffer.from(spec.media.content ?? `sandbox ${spec.type} ${id}\n`)
            : Buffer.from(spec.media.contentBase64, 'base64'),
      };
      ctx.state.media.set(record.id, record);
      mediaId = record.id;
      if (spec.caption !== undefined) content = { [spec.type]: { caption: spec.caption } };
    }
  }
  const message: MessageRecord = {
    id,
    seq: ctx.state.nextSeq(),
    numberId,
    conversationId: conversation.id,
    contactId: contact.id,
    direction: 'inbound',
    status: 'received',
    failureCode: undefined,
    type: spec.type,
    occurredAt: when,
    content,
    mediaId,
    plan: {},
  };
  ctx.state.addMessage(message);
  ctx.state.emit({ type: 'message.received', message });
  return { status: 'injected', message: toMessage(message, ctx.state) };
}

/**
 * The time an inbound message occurred: now, `occurredAt`, or now minus `ageMs`; a
 * string explains why the spec's time is refused (both given, in the future, too old).
 */
function occurredAtOf(spec: InboundSpec, now: number): number | string {
  if (spec.occurredAt !== undefined && spec.ageMs !== undefined)
    return 'give occurredAt or ageMs, not both';
  let when = now;
  if (spec.occurredAt !== undefined) {
    when = Date.parse(spec.occurredAt);
    if (when > now)
      return `occurredAt ${spec.occurredAt} is after the sandbox clock (${new Date(now).toISOString()}); inbound messages can only be in the past`;
  } else if (spec.ageMs !== undefined) {
    const age = parseDuration(spec.ageMs);
    if (age.status === 'invalid') return `ageMs: ${age.message}`;
    when = now - Math.round(age.ms);
  }
  if (now - when > MAX_CLOCK_ADVANCE_MS || when < 0)
    return `an inbound message can be at most 3650d in the past (and not before 1970)`;
  return when;
}
