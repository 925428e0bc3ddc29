import { z } from 'zod';
import { StateName, VarName } from './content-schema.js';

/**
 * The understanding part of the flow language (DESIGN: "Understanding proposes, flows
 * decide"): the intents a flow declares (`intents:`), its settings (`understand:` at the top
 * of the flow) and a state's own (`understand:` in a state). See docs/understanding.md.
 */

/** Names of intents: like state names (letters, digits, `_`, `-`). */
export const IntentName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, {
    error: 'must start with a letter and contain only letters, digits, "_" or "-" (at most 64)',
  })
  .describe('Name of an intent of this flow.');

const SLOT_KINDS = [
  'text',
  'number',
  'integer',
  'amount',
  'date',
  'time',
  'datetime',
  'email',
  'phone',
  'oneOf',
] as const;

const ChoiceSchema = z.union([
  z.string().min(1),
  z.strictObject({
    value: z.string().min(1),
    synonyms: z.array(z.string().min(1)).optional().describe('Other words that mean it.'),
  }),
]);

const SlotObjectSchema = z
  .strictObject({
    kind: z.enum(SLOT_KINDS),
    values: z
      .array(ChoiceSchema)
      .min(1)
      .optional()
      .describe('oneOf only: the allowed values (a word, or { value, synonyms }).'),
    description: z.string().optional().describe('What the slot holds (given to a model as is).'),
  })
  .superRefine((s, ctx) => {
    if (s.kind === 'oneOf' && s.values === undefined)
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'a oneOf slot lists its values' });
    if (s.kind !== 'oneOf' && s.values !== undefined)
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'values is for oneOf slots only' });
  });

/** A slot: its kind alone (`qty: integer`) or an object with values / a description. */
export const SlotSchema = z
  .union([z.enum(SLOT_KINDS), SlotObjectSchema])
  .describe(
    'What the slot holds: text, number, integer, amount, date, time, datetime, email, phone, or { kind: oneOf, values }.',
  );
export type SlotDef = z.infer<typeof SlotSchema>;

/** One intent: examples per language, the slots it carries, where it leads from anywhere. */
export const IntentSchema = z
  .strictObject({
    title: z
      .string()
      .min(1)
      .optional()
      .describe('Button title when the bot asks which of two intents was meant (up to 20).'),
    description: z.string().optional().describe('One line (given to a model as is).'),
    examples: z
      .record(z.string(), z.array(z.string().min(1)).min(1))
      .describe('Example phrases per locale (en, es, …), as customers write them.'),
    slots: z
      .record(VarName, SlotSchema)
      .optional()
      .describe(
        'Values the intent can carry, by variable name (an ask var is skipped when filled).',
      ),
    goto: StateName.optional().describe(
      'A global intent: from any state (like a trigger), it leads here. Without goto, the intent acts only in states that list it.',
    ),
  })
  .describe('Something a customer may mean, with examples.');
export type IntentDef = z.infer<typeof IntentSchema>;

const Threshold = z
  .number()
  .min(0)
  .max(1)
  .describe('Lowest confidence acted on (0 to 1); below it the text is not understood.');

/** Flow-level settings of understanding. */
export const FlowUnderstandSchema = z
  .strictObject({
    threshold: Threshold.optional(),
    outOfScope: z
      .record(z.string(), z.array(z.string().min(1)).min(1))
      .optional()
      .describe(
        "What the bot does NOT do, as customers would ask it, per locale (en, es, …), like an intent's examples: a message closest to these is not understood.",
      ),
    model: z
      .boolean()
      .optional()
      .describe("false: never send this flow's texts to a model (the builtin understands them)."),
    knowledge: z
      .boolean()
      .optional()
      .describe("Answer questions from the bot's knowledge files (default true)."),
    handoff: StateName.optional().describe(
      'Where "talk to a person" leads (absent: that request is not acted on).',
    ),
    noAnswer: StateName.optional().describe(
      "Where a text understanding could not place goes instead of the state's otherwise.",
    ),
    clarify: z
      .strictObject({
        body: z
          .string()
          .min(1)
          .optional()
          .describe('Text of the menu asking which intent was meant (default "Did you mean…").'),
        margin: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe('Two intents closer than this are asked about (default 0.1; 0: never).'),
      })
      .optional(),
  })
  .describe('How free text is understood in this flow.');
export type FlowUnderstandDef = z.infer<typeof FlowUnderstandSchema>;

/** A state's settings of understanding, or `false` to turn it off in that state. */
export const StateUnderstandSchema = z
  .union([
    z.literal(false),
    z.strictObject({
      intents: z
        .record(IntentName, StateName)
        .optional()
        .describe('Intents acted on in this state → the state each leads to.'),
      threshold: Threshold.optional(),
      model: z.boolean().optional().describe('false: texts of this state never go to a model.'),
      knowledge: z.boolean().optional().describe('false: no knowledge answers in this state.'),
      noAnswer: StateName.optional().describe("Overrides the flow's understand.noAnswer here."),
    }),
  ])
  .describe('Understanding in this state (false: off).');
export type StateUnderstandDef = z.infer<typeof StateUnderstandSchema>;
