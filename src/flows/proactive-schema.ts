import { z } from 'zod';
import { NAME_PATTERN, SayInputSchema, StateName, VarName } from './content-schema.js';

/**
 * The flow language's constructs for speaking first: `on:` (named events from outside,
 * handled in any state) and a state's `remind:` (a message at a time taken from a
 * variable, cancelled when the flow leaves the state). See docs/proactive.md.
 */

/** What a flow does with one named event. */
export const OnEventSchema = z
  .strictObject({
    vars: z
      .array(VarName)
      .optional()
      .describe('Fields of the event data stored as flow variables (declares them).'),
    say: SayInputSchema.optional().describe(
      'Said where the flow is (it stays there); window rules apply as for any message.',
    ),
    goto: StateName.optional().describe('The state the event leads to.'),
  })
  .superRefine((e, ctx) => {
    if ((e.say === undefined) === (e.goto === undefined))
      ctx.addIssue({ code: 'custom', message: 'an event rule has exactly one of say, goto' });
  })
  .describe('What a named event does: say something where the flow is, or go to a state.');
export type OnEventDef = z.infer<typeof OnEventSchema>;

/** `on:` — named events (from `bot.notify` or `POST /events`), valid in any state. */
export const OnEventsSchema = z
  .record(
    z.string().regex(NAME_PATTERN, {
      error: 'an event name starts with a letter and has only letters, digits, "_" or "-"',
    }),
    OnEventSchema,
  )
  .describe('Named events from outside, handled in any state except during a handoff.');

/** A duration such as `30m`, `24h` or `2d` (the same units as `timeout.after`). */
const Offset = z.string().regex(/^\d+(ms|s|m|h|d)$/, {
  error: 'must be a duration such as 30m, 24h or 2d',
});

/** A state's reminder. */
export const RemindSchema = z
  .strictObject({
    at: z
      .string()
      .min(1)
      .describe(
        'The reference time, an ISO 8601 date-time; usually a variable, e.g. "{{appointmentAt}}".',
      ),
    before: Offset.optional().describe('Remind this long before `at`.'),
    after: Offset.optional().describe('Remind this long after `at`.'),
    say: SayInputSchema.optional().describe(
      'The reminder; give it a `window: { onClosed: template }` rule for a closed window.',
    ),
    goto: StateName.optional().describe('Where the flow goes when the reminder is due.'),
  })
  .superRefine((r, ctx) => {
    if (r.before !== undefined && r.after !== undefined)
      ctx.addIssue({ code: 'custom', message: 'a reminder has before or after, not both' });
    if ((r.say === undefined) === (r.goto === undefined))
      ctx.addIssue({ code: 'custom', message: 'a reminder has exactly one of say, goto' });
  })
  .describe(
    'A durable reminder at a time from a variable (with an offset), cancelled when the flow leaves the state.',
  );
export type RemindDef = z.infer<typeof RemindSchema>;

/** Variables declared by `on.<event>.vars`. */
export function eventVariables(flow: {
  readonly on?: Readonly<Record<string, OnEventDef>> | undefined;
}): string[] {
  return Object.values(flow.on ?? {}).flatMap((rule) => rule.vars ?? []);
}
