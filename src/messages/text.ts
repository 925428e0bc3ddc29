/** Text content (spec 4.5): body of 1 to 4,096 characters, optional boolean preview_url. */
import { z } from 'zod';
import { LIMITS } from '../core/limits.js';
import { limitedString } from './fields.js';

/** `text` content object. */
export const TextObjectSchema = z.strictObject({
  body: limitedString({
    label: 'Text body',
    min: LIMITS.textBody.min,
    max: LIMITS.textBody.max,
    spec: '4.5',
  }),
  preview_url: z.boolean().optional(),
});

/** `{ type: 'text', text: { body, preview_url? } }`. */
export const TextContentSchema = z.strictObject({
  type: z.literal('text'),
  text: TextObjectSchema,
});
/** Text content. */
export type TextContent = z.infer<typeof TextContentSchema>;

/** Whether `value` is a plain object (a literal or JSON) whose keys are all in `allowed`. */
export function hasOnlyKeys(value: object, allowed: readonly string[]): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) if (!allowed.includes(key)) return false;
  return true;
}

const TEXT_KEYS = ['type', 'text'] as const;
const TEXT_OBJECT_KEYS = ['body', 'preview_url'] as const;

/**
 * The common case of {@link TextContentSchema} without zod: `input` is exactly a valid
 * text content (`type` and `text` only; `body` a string of 1 to 4,096 UTF-16 units, so
 * of as many code points or fewer; `preview_url` absent or boolean). Returns the parsed
 * value as the schema would, or `undefined` whenever the input is anything else, and
 * the caller runs the schema (which also explains what is wrong). Text is what bots
 * send most; this keeps zod off that path.
 */
export function fastTextContent(input: unknown): TextContent | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const { type, text } = input as { type?: unknown; text?: unknown };
  if (type !== 'text' || typeof text !== 'object' || text === null) return undefined;
  if (!hasOnlyKeys(input, TEXT_KEYS) || !hasOnlyKeys(text, TEXT_OBJECT_KEYS)) return undefined;
  const { body, preview_url: preview } = text as { body?: unknown; preview_url?: unknown };
  if (typeof body !== 'string' || body.length < LIMITS.textBody.min) return undefined;
  if (body.length > LIMITS.textBody.max) return undefined;
  if (preview === undefined && !Object.hasOwn(text, 'preview_url'))
    return { type: 'text', text: { body } };
  if (typeof preview !== 'boolean') return undefined;
  return { type: 'text', text: { body, preview_url: preview } };
}
