/**
 * Message content: `type` and the one content object named after it, without the
 * envelope fields (`to`, `messaging_product`, `recipient_type`). Compatible with
 * `OutboundContent` of the flow contract.
 */
import { z } from 'zod';
import { ContactsContentSchema } from './contacts.js';
import { InteractiveContentSchema } from './interactive.js';
import { toMessageIssues, type ValidationResult } from './issues.js';
import { LocationContentSchema } from './location.js';
import {
  AudioContentSchema,
  DocumentContentSchema,
  ImageContentSchema,
  VideoContentSchema,
} from './media.js';
import { TemplateContentSchema } from './template.js';
import { fastTextContent, TextContentSchema } from './text.js';
import { SEND_TYPES } from '../api/resources.js';

/** The nine send types (spec 4.5), in spec order (defined with the API resources). */
export const CONTENT_TYPES = SEND_TYPES;
/** One of the nine send types. */
/** Content of any send type: `{ type, <type>: {...} }`. */
export type ContentType = (typeof CONTENT_TYPES)[number];

/** The variants of {@link ContentSchema}, one per send type. */
export const CONTENT_VARIANTS = [
  TextContentSchema,
  TemplateContentSchema,
  ImageContentSchema,
  VideoContentSchema,
  AudioContentSchema,
  DocumentContentSchema,
  InteractiveContentSchema,
  LocationContentSchema,
  ContactsContentSchema,
] as const;

/** Content of any of the nine send types. */
export const ContentSchema = z.discriminatedUnion('type', CONTENT_VARIANTS);
export type Content = z.infer<typeof ContentSchema>;

/**
 * Validates message content (the same rules as a send request, without the envelope).
 *
 * @example
 * const r = validateContent({ type: 'text', text: { body: 'Hi' } });
 * if (r.status === 'invalid') console.log(r.issues);
 */
export function validateContent(content: unknown): ValidationResult<Content> {
  const text = fastTextContent(content);
  if (text !== undefined) return { status: 'valid', value: text };
  return parseWith(ContentSchema, content);
}

/** Runs a schema and turns its issues into message issues. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
): ValidationResult<z.output<S>> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return { status: 'valid', value: result.data };
  return { status: 'invalid', issues: toMessageIssues(result.error.issues) };
}
