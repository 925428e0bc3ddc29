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
