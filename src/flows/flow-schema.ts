import { z } from 'zod';
import {
  DurationSchema,
  SayInputSchema,
  StateName,
  VarName,
  VarTarget,
  VarValueSchema,
  WindowRuleSchema,
  NAME_PATTERN,
} from './content-schema.js';
import { OnEventsSchema, RemindSchema } from './proactive-schema.js';

/**
 * The flow language: ONE zod schema, the single source of truth for flow files (YAML or
 * JSON, checked by `loadFlowFile`), for typed flows in TypeScript (`defineFlow`) and for
 * the JSON Schema editors use (`flowJsonSchema`). See docs/flows.md and docs/flow-reference.md for every construct.
 */

export { DurationSchema };

/** Assignments: target (a variable or contact.<name>) → a literal or a `{{…}}` string. */
const SetSchema = z
  .record(VarTarget, VarValueSchema)
  .describe(
    'Assignments: a variable (or contact.<name>) → a literal; strings interpolate, and a string that is exactly "{{x}}" copies x with its type.',
  );

const HandlerName = z
  .string()
  .regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, { error: 'must be a JavaScript identifier' })
  .describe('Name of a plug-in handler provided by the bot.');

const OptionSchema = z
  .strictObject({
    id: z
      .string()
      .regex(NAME_PATTERN, {
        error: 'must start with a letter and contain only letters, digits, "_" or "-" (at most 64)',
      })
      .describe('Option id (encoded with the flow version and state when sent).'),
    title: z.string().min(1).describe('Button title (up to 20) or list row title (up to 24).'),
    description: z.string().optional().describe('List row description (up to 72).'),
    keywords: z
      .array(z.string().min(1))
      .optional()
      .describe('Typed words that also select this option (case- and accent-insensitive).'),
    set: SetSchema.optional().describe('Variables set when this option is chosen.'),
    goto: StateName,
  })
  .describe('A menu option and the state it leads to.');

/** A menu of reply buttons or a list; options route by id, typed text matches titles/keywords. */
export const MenuSchema = z
  .strictObject({
    type: z
      .enum(['buttons', 'list'])
      .default('buttons')
      .describe('Reply buttons (1 to 3) or a list.'),
    body: z.string().min(1).describe('Message body (up to 1,024 characters).'),
    header: z.string().optional().describe('Header text (up to 60).'),
    footer: z.string().optional().describe('Footer text (up to 60).'),
    button: z
      .string()
      .optional()
      .describe('List only: the label of the button opening the list (up to 20).'),
    section: z
      .string()
      .optional()
      .describe('List only: the section title (up to 24); default: `button`.'),
    options: z.array(OptionSchema).default([]),
    rowsFrom: VarName.optional().describe(
      'List only: a variable holding a JSON array of rows [{"id","title","description"?}] (e.g. set by a handler), shown before `options`.',
    ),
    onSelect: z
      .strictObject({
        var: VarName.optional().describe(
          'Stores the chosen row id here, and its title in <var>Title.',
        ),
        goto: StateName,
      })
      .optional()
      .describe('Where a row from `rowsFrom` leads.'),
    window: WindowRuleSchema.optional(),
    typed: z
      .union([
        z.boolean(),
        z.strictObject({
          numbers: z.boolean().optional().describe('"1", "2"… pick the n-th row/option.'),
          titles: z
            .boolean()
            .optional()
            .describe('The title (any case, accents optional) or a keyword picks it.'),
        }),
      ])
      .optional()
      .describe(
        'How typed text picks an option (default true: numbers, titles and keywords); false: taps only.',
      ),
  })
  .describe('A menu (reply buttons or a list) whose options route to states.');
export type MenuDef = z.infer<typeof MenuSchema>;

/** `ask.validate.kind`s that capture an attachment. */
export const MEDIA_KINDS = ['image', 'document', 'audio', 'video', 'media'] as const;

const ValidationSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('pattern'),
      pattern: z.string().min(1),
      flags: z.string().optional(),
    }),
    z.strictObject({
      kind: z.literal('number'),
      min: z.number().optional(),
      max: z.number().optional(),
      integer: z.boolean().optional(),
    }),
    z.strictObject({ kind: z.literal('email') }),
    z
      .strictObject({ kind: z.literal('phone') })
      .describe('An E.164 number: + then 8 to 15 digits.'),
    z.strictObject({ kind: z.literal('date') }).describe('A calendar date written YYYY-MM-DD.'),
    z.strictObject({ kind: z.literal('time') }).describe('A time of day written HH:MM (24 h).'),
    z.strictObject({ kind: z.literal('oneOf'), values: z.array(z.string().min(1)).min(1) }),
    ...MEDIA_KINDS.map((kind) =>
      z
        .strictObject({ kind: z.literal(kind) })
        .describe(
          `An inbound ${kind === 'media' ? 'image, video, audio or document' : kind}: stores <var> (media id), <var>MimeType, <var>Caption, <var>Availability.`,
        ),
    ),
    z
      .strictObject({ kind: z.literal('location') })
      .describe(
        'A shared location: stores <var> ("lat,lng"), <var>Latitude, <var>Longitude, <var>Name, <var>Address.',
      ),
    z
      .strictObject({ kind: z.literal('contact') })
      .describe('A shared contact card: stores <var> (name) and <var>Phone.'),
  ])
  .describe('How the answer is checked.');
export type ValidationDef = z.infer<typeof ValidationSchema>;

/** Capture an answer (text, number, date, media, location, contact…) into a variable. */
export const AskSchema = z
  .strictObject({
    prompt: SayInputSchema,
    var: VarTarget,
    validate: ValidationSchema.optional(),
    retry: SayInputSchema.optional().describe(
      'Sent after an invalid answer (before the next attempt).',
    ),
    maxAttempts: z.int().min(1).max(10).default(3),
    goto: StateName.describe('Where a valid answer leads.'),
    onFail: StateName.optional().describe('Where to go after maxAttempts invalid answers.'),
  })
  .describe('Ask a question and store the validated answer in a variable.');
export type AskDef = z.infer<typeof AskSchema>;

/** Invoke a plug-in handler; its outcomes route. */
export const CallSchema = z
  .strictObject({
    handler: HandlerName,
    input: z
      .record(z.string(), VarValueSchema)
      .optional()
      .describe('Handler input; `{{…}}` in strings interpolates.'),
    sets: z
      .array(VarTarget)
      .optional()
      .describe('Variables (or contact.<name>) the handler may set (declares them).'),
    outcomes: z.record(z.string(), StateName).describe('Outcome name → state.'),
    onError: StateName.optional().describe('Where a handler error (or an unknown outcome) leads.'),
    onTimeout: StateName.optional().describe('Where a timeout leads; default: onError.'),
    timeout: DurationSchema.default('10s'),
  })
  .describe('Call a named handler; map its outcomes to states.');
export type CallDef = z.infer<typeof CallSchema>;

/** Run another flow and come back with its result. */
export const SubflowSchema = z
  .strictObject({
    use: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,63}$/, { error: 'must be a flow id (kebab-case)' })
      .describe("Id of the flow to run (one of the bot's flows; it declares inputs/outputs)."),
    input: z
      .record(VarName, VarValueSchema)
      .optional()
      .describe("Values of the sub-flow's inputs; strings interpolate."),
    output: z
      .record(VarTarget, VarName)
      .optional()
      .describe('Variable here (or contact.<name>) ← output of the sub-flow.'),
    goto: StateName.describe('Where to go when the sub-flow ends.'),
    onError: StateName.optional().describe('Where to go if the sub-flow cannot run.'),
  })
  .describe('Run another flow (a call stack in the conversation) and come back with its outputs.');
export type SubflowDef = z.infer<typeof SubflowSchema>;

/** One conditional transition; the last one has no `if`. */
export const BranchRuleSchema = z
  .strictObject({
    if: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A condition: ==, !=, <, <=, >, >=, in [..], not in [..], a bare name (is set), not, and, or, ( ).',
      ),
    goto: StateName,
  })
  .describe('Go to `goto` when `if` holds (no `if`: always).');

const SendFailedRule = z.strictObject({
  codes: z
    .array(z.string().min(1))
    .optional()
    .describe(
      'Error/failure codes this rule handles (`unknown` = outcome not confirmed); default: all.',
    ),
  goto: StateName,
});
const SendFailedSchema = z
  .union([SendFailedRule, z.array(SendFailedRule).min(1)])
  .describe('Where a rejected or later-failed send leads (first matching rule).');

/** One state of a flow. */
export const StateSchema = z
  .strictObject({
    description: z.string().optional(),
    set: SetSchema.optional().describe('Assignments done when the state is entered, before say.'),
    say: SayInputSchema.optional(),
    menu: MenuSchema.optional(),
    ask: AskSchema.optional(),
    call: CallSchema.optional(),
    subflow: SubflowSchema.optional(),
    branch: z
      .array(BranchRuleSchema)
      .min(1)
      .optional()
      .describe('Conditional transitions, first match wins; the last rule has no `if`.'),
    debounce: DurationSchema.optional().describe(
      'Messages typed within this time of each other are answered once, as one text.',
    ),
    handoff: z
      .strictObject({
        reason: z.string().optional(),
        notify: HandlerName.optional().describe(
          'A handler called to notify people (its outcome is ignored).',
        ),
        resume: StateName.describe('Where to go after Release to API.'),
      })
      .optional()
      .describe('Ask for a person, then stay silent until the conversation is released.'),
    otherwise: z
      .strictObject({
        say: SayInputSchema.optional(),
        reprompt: z
          .int()
          .min(0)
          .max(10)
          .optional()
          .describe('Re-prompts before escalating (default 2).'),
        goto: StateName.optional().describe('Escalation target.'),
      })
      .optional()
      .describe('Input the state cannot match.'),
    timeout: z
      .strictObject({
        after: DurationSchema,
        nudge: SayInputSchema.optional().describe('Said each time `after` passes without a reply.'),
        nudges: z
          .int()
          .min(1)
          .max(10)
          .optional()
          .describe('How many nudges before giving up (default 1 when `nudge` is set).'),
        goto: StateName,
      })
      .optional()
      .describe('No reply within `after` → nudge (up to `nudges` times), then goto.'),
    goto: StateName.optional().describe('Go on right after the state says its messages.'),
    remind: RemindSchema.optional(),
    onSendFailed: SendFailedSchema.optional(),
    final: z.boolean().optional().describe('The conversation ends here (a sub-flow returns).'),
  })
  .superRefine((s, ctx) => {
    const kinds = (['menu', 'ask', 'call', 'subflow', 'handoff', 'branch'] as const).filter(
      (k) => s[k] !== undefined,
    );
    if (kinds.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [kinds[1] ?? ''],
        message: `a state has at most one of menu, ask, call, subflow, handoff, branch; found ${kinds.join(', ')}`,
      });
    }
    if (s.timeout !== undefined && (s.goto !== undefined || s.branch !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['timeout'],
        message: `timeout never fires in a state that goes on at once (${s.goto !== undefined ? 'goto' : 'branch'}); put it on the state that waits`,
      });
    }
    if (s.debounce !== undefined && s.menu === undefined && s.ask === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['debounce'],
        message: 'debounce applies to a state that reads text (menu or ask)',
      });
    }
    if (s.goto !== undefined && kinds.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['goto'],
        message: `goto cannot be combined with ${kinds.join(', ')}`,
      });
    }
    if (s.final === true && (kinds.length > 0 || s.goto !== undefined || s.timeout !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['final'], message: 'a final state only says things' });
    }
  })
  .describe('A state: say things, then wait on a menu, an ask, a call or a handoff, or go on.');
export type StateDef = z.infer<typeof StateSchema>;

/** The whole flow file. */
export const FlowSchema = z
  .strictObject({
    $schema: z.string().optional(),
    id: z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, { error: 'must be kebab-case (a-z, 0-9, "-")' }),
    version: z
      .int()
      .min(1)
      .describe('Bump when the flow changes; snapshots and option ids carry it.'),
    description: z.string().optional(),
    start: StateName.describe('The state the first message enters.'),
    vars: z
      .record(z.string(), VarValueSchema)
      .optional()
      .describe('Declared variables and initial values.'),
    contact: z
      .record(z.string(), VarValueSchema)
      .optional()
      .describe(
        'Contact memory: fields (with defaults) kept across conversations of the contact, read and set as contact.<name>.',
      ),
    inputs: z
      .array(VarName)
      .optional()
      .describe('As a sub-flow: the variables a caller must give (declares them).'),
    outputs: z
      .array(VarName)
      .optional()
      .describe('As a sub-flow: the variables a caller may take back when it ends.'),
    locales: z
      .array(
        z.string().regex(/^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?$/, {
          error: 'must be a locale code such as en, fr or pt-BR',
        }),
      )
      .min(1)
      .optional()
      .describe('Locales of the texts; the first is the one the flow is written in.'),
    locale: VarTarget.optional().describe(
      "The variable that holds the contact's locale (default: contact.locale).",
    ),
    translations: z
      .record(z.string(), z.record(z.string(), z.string()))
      .optional()
      .describe(
        'Per locale (other than the first): text as written in the flow → translated text.',
      ),
    migrate: z
      .record(z.string(), StateName)
      .optional()
      .describe(
        'After a change of the flow: a removed state → the state its conversations continue in (default: start).',
      ),
    triggers: z
      .array(z.strictObject({ keywords: z.array(z.string().min(1)).min(1), goto: StateName }))
      .optional()
      .describe('Keywords that work from any state (except during a handoff).'),
    fallback: SayInputSchema.optional().describe(
      'Said when an inbound message cannot be used (unsupported type, media where text is expected, no text).',
    ),
    stale: SayInputSchema.optional().describe(
      'Said before re-showing a menu after a tap on an old one.',
    ),
    onError: StateName.optional().describe(
      'Default target of handler errors and invalid rendered content.',
    ),
    onSendFailed: SendFailedSchema.optional(),
    onRelease: z
      .string()
      .optional()
      .describe('Release to API outside a handoff state: "current" (default, stay) or a state.'),
    window: WindowRuleSchema.optional().describe(
      'Default window rule of messages (default: wait).',
    ),
    on: OnEventsSchema.optional(),
    states: z.record(z.string(), StateSchema),
  })
  .superRefine((f, ctx) => {
    // Keys are checked here (not with a record key schema) for readable messages.
    for (const key of Object.keys(f.vars ?? {})) {
      const r = VarName.safeParse(key);
      if (!r.success)
        ctx.addIssue({
          code: 'custom',
          path: ['vars', key],
          message: r.error.issues[0]?.message ?? 'invalid name',
        });
    }
    for (const key of Object.keys(f.contact ?? {})) {
      const r = VarName.safeParse(key);
      if (!r.success)
        ctx.addIssue({
          code: 'custom',
          path: ['contact', key],
          message: r.error.issues[0]?.message ?? 'invalid name',
        });
    }
    for (const key of Object.keys(f.states)) {
      const r = StateName.safeParse(key);
      if (!r.success)
        ctx.addIssue({
          code: 'custom',
          path: ['states', key],
          message: `state name ${r.error.issues[0]?.message ?? 'is invalid'}`,
        });
    }
    if (Object.keys(f.states).length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['states'],
        message: 'a flow needs at least one state',
      });
    }
  })
  .describe('A switchboard conversation flow.');

/** A parsed flow (defaults applied). */
export type FlowDefinition = z.output<typeof FlowSchema>;
/** What an author writes (defaults optional), e.g. in `defineFlow({...})`. */
export type FlowDefinitionInput = z.input<typeof FlowSchema>;
