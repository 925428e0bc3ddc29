import { z } from 'zod';

/**
 * zod schemas of what a flow *says*: message items and window rules. Limits (lengths,
 * counts, media-link rules) are not repeated here: the flow linter checks static content
 * with the message validator of `src/messages`, and the compiled machine checks
 * interpolated content at run time. Field names follow the API content objects (spec 4.5).
 */

/** Names of states, option ids and variables: letters, digits, `_` and `-` (never `.`). */
export const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** A state name (also the target of every `goto`). */
export const StateName = z
  .string()
  .regex(NAME_PATTERN, {
    error: 'must start with a letter and contain only letters, digits, "_" or "-" (at most 64)',
  })
  .describe('Name of a state of this flow.');

/** A variable name usable as `{{name}}`. */
export const VarName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
    error: 'must start with a letter or "_" and contain only letters, digits or "_"',
  })
  .refine((v) => v !== 'contact' && v !== 'error', {
    error: '"contact" and "error" are reserved names',
  })
  .describe('Name of a flow variable.');

/**
 * Where a value can be stored: a flow variable, or a field of the contact's memory
 * (`contact.language`), kept across conversations of the same contact.
 */
export const VarTarget = z
  .string()
  .regex(/^(?:contact\.)?[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
    error:
      'must be a variable name (letters, digits, "_"; no "-") or contact.<name> for contact memory',
  })
  .refine((v) => v !== 'contact' && v !== 'error', {
    error: '"contact" and "error" are reserved names',
  })
  .describe('A flow variable, or contact.<name> (contact memory).');

/** A duration such as `500ms`, `30s`, `10m`, `25h` or `2d`; never zero. */
export const DurationSchema = z
  .string()
  .regex(/^\d+(ms|s|m|h|d)$/, { error: 'must be a duration such as 500ms, 30s, 10m, 25h or 2d' })
  .refine((v) => !/^0+(ms|s|m|h|d)$/.test(v), {
    error: 'must be longer than zero (a zero duration never waits; remove the rule instead)',
  })
  .describe('A duration: a whole number (above 0) followed by ms, s, m, h or d.');

/** JSON value of a flow variable. */
export const VarValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const TemplateSchema = z
  .strictObject({
    name: z.string().min(1).describe('Exact name of the approved template.'),
    language: z.string().min(1).describe('Language code, e.g. en_US.'),
    components: z
      .array(z.looseObject({ type: z.enum(['header', 'body', 'button']) }))
      .optional()
      .describe('Template components as in spec 4.5.4 (`{{…}}` allowed in strings).'),
  })
  .describe('An approved template (spec 4.5.4).');

/** What to do with a message when the 24-hour window is closed. */
export const WindowRuleSchema = z
  .discriminatedUnion('onClosed', [
    z.strictObject({
      onClosed: z.literal('template'),
      template: TemplateSchema,
    }),
    z.strictObject({ onClosed: z.literal('wait') }),
    z.strictObject({ onClosed: z.literal('goto'), goto: StateName }),
  ])
  .describe(
    'When the 24-hour window is closed: send an approved template instead, wait for the customer to write, or go to a state.',
  );
export type WindowRuleDef = z.infer<typeof WindowRuleSchema>;

const MediaSchema = z.strictObject({ link: z.string().min(1), caption: z.string().optional() });

const ContactCardSchema = z.strictObject({
  name: z.strictObject({
    formatted_name: z.string(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    middle_name: z.string().optional(),
    prefix: z.string().optional(),
    suffix: z.string().optional(),
  }),
  phones: z
    .array(
      z.strictObject({
        phone: z.string(),
        type: z.string().optional(),
        wa_id: z.string().optional(),
      }),
    )
    .optional(),
  emails: z.array(z.strictObject({ email: z.string(), type: z.string().optional() })).optional(),
  urls: z.array(z.strictObject({ url: z.string(), type: z.string().optional() })).optional(),
  org: z
    .strictObject({
      company: z.string().optional(),
      department: z.string().optional(),
      title: z.string().optional(),
    })
    .optional(),
});

/** Keys of a message item that name its content type. */
export const CONTENT_KEYS = [
  'text',
  'template',
  'image',
  'video',
  'audio',
  'document',
  'interactive',
  'location',
  'contact',
] as const;

/** One outbound message: exactly one content key, plus an optional window rule and delay. */
export const MessageItemSchema = z
  .strictObject({
    text: z.string().optional().describe('Text body (1 to 4,096 characters).'),
    previewUrl: z.boolean().optional().describe('text.preview_url'),
    template: TemplateSchema.optional(),
    image: MediaSchema.optional(),
    video: MediaSchema.optional(),
    audio: z.strictObject({ link: z.string().min(1) }).optional(),
    document: MediaSchema.extend({ filename: z.string().optional() }).optional(),
    interactive: z
      .looseObject({ type: z.enum(['button', 'list']) })
      .optional()
      .describe('A raw interactive object (spec 4.5.2); prefer `menu`, whose options route.'),
    location: z
      .strictObject({
        latitude: z.number(),
        longitude: z.number(),
        name: z.string().optional(),
        address: z.string().optional(),
      })
      .optional(),
    contact: ContactCardSchema.optional().describe('One contact card (spec 4.5.3).'),
    window: WindowRuleSchema.optional(),
    delay: DurationSchema.optional().describe(
      'A pause before this message (a durable timer; in a state `say` only). Alone: just a pause.',
    ),
  })
  .superRefine((item, ctx) => {
    const keys = CONTENT_KEYS.filter((k) => item[k] !== undefined);
    if (keys.length === 0 && item.delay !== undefined) {
      if (item.window !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['window'],
          message: 'a pause sends nothing: window does not apply',
        });
      return;
    }
    if (keys.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          keys.length === 0
            ? `a message needs one of ${CONTENT_KEYS.join(', ')} (or delay: for a pause)`
            : `a message has exactly one content key; found ${keys.join(', ')}`,
      });
    }
    if (item.previewUrl !== undefined && item.text === undefined) {
      ctx.addIssue({ code: 'custom', path: ['previewUrl'], message: 'previewUrl needs text' });
    }
  })
  .describe('One outbound message (exactly one of the content keys).');
export type MessageItem = z.infer<typeof MessageItemSchema>;

/** A message or a list of messages; a plain string is a text message. */
export const SayInputSchema = z
  .union([z.string(), MessageItemSchema, z.array(z.union([z.string(), MessageItemSchema])).min(1)])
  .describe(
    'One message, or a list of messages; a string is a text message. `{{var}}` interpolates.',
  );
export type SayInput = z.infer<typeof SayInputSchema>;

/** Normalises a say input to a list of message items. */
export function sayItems(say: SayInput | undefined): MessageItem[] {
  if (say === undefined) return [];
  const list = Array.isArray(say) ? say : [say];
  return list.map((m) => (typeof m === 'string' ? { text: m } : m));
}
