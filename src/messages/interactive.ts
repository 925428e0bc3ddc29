/**
 * Interactive content (spec 4.5.2): reply buttons and lists only (4.5 rule 4).
 * Option ids (button ids, or row ids across the whole list) must be unique within a
 * message so a selection maps back to exactly one option.
 */
import { z } from 'zod';
import { LIMITS } from '../core/limits.js';
import { boundedArray, limitedString } from './fields.js';
import { quote, type IssueParams } from './issues.js';

const SPEC = '4.5.2';

/** Optional header: text only (a union so another header type gets one clear issue). */
export const InteractiveHeaderSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('text'),
    text: limitedString({ label: 'Header text', max: LIMITS.interactiveHeaderText, spec: SPEC }),
  }),
]);
/** Required body. */
export const InteractiveBodySchema = z.strictObject({
  text: limitedString({ label: 'Body text', max: LIMITS.interactiveBody, spec: SPEC }),
});
/** Optional footer. */
export const InteractiveFooterSchema = z.strictObject({
  text: limitedString({ label: 'Footer text', max: LIMITS.interactiveFooterText, spec: SPEC }),
});

/** `{ type: 'reply', reply: { id, title } }`. */
export const ReplyButtonSchema = z.strictObject({
  type: z.literal('reply'),
  reply: z.strictObject({
    id: limitedString({ label: 'Button id', max: LIMITS.buttonId, spec: SPEC }),
    title: limitedString({ label: 'Button title', max: LIMITS.buttonTitle, spec: SPEC }),
  }),
});

/** A list row. */
export const ListRowSchema = z.strictObject({
  id: limitedString({ label: 'Row id', max: LIMITS.rowId, spec: SPEC }),
  title: limitedString({ label: 'Row title', max: LIMITS.rowTitle, spec: SPEC }),
  description: limitedString({
    label: 'Row description',
    max: LIMITS.rowDescription,
    spec: SPEC,
  }).optional(),
});

/** A list section: a title and at least one row (rows are also limited across the list). */
export const ListSectionSchema = z.strictObject({
  title: limitedString({ label: 'Section title', max: LIMITS.sectionTitle, spec: SPEC }),
  // The row limit applies across the whole list (checked on the action); here only non-empty.
  rows: boundedArray(ListRowSchema, { label: 'Section rows', min: 1, max: Infinity, spec: SPEC }),
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const whenObject = { when: (payload: { value: unknown }) => isRecord(payload.value) };

/** Reports each id seen before at `path`, naming where it was first used. */
function reportDuplicates(
  ids: ReadonlyArray<{ id: unknown; path: (string | number)[]; at: string }>,
  label: string,
  ctx: z.RefinementCtx,
): void {
  const first = new Map<string, string>();
  for (const { id, path, at } of ids) {
    if (typeof id !== 'string') continue;
    const seen = first.get(id);
    if (seen === undefined) first.set(id, at);
    else {
      const params: IssueParams = { spec: SPEC };
      ctx.addIssue({
        code: 'custom',
        path,
        message: `${label} ${quote(id)} is already used by ${seen}; option ids must be unique within a message (spec ${SPEC})`,
        params,
      });
    }
  }
}

/** `action` of a reply-button message. */
export const ButtonActionSchema = z
  .strictObject({
    buttons: boundedArray(ReplyButtonSchema, {
      label: 'Reply buttons',
      ...LIMITS.buttons,
      spec: SPEC,
    }),
  })
  .superRefine((action, ctx) => {
    const buttons: unknown[] = Array.isArray(action.buttons) ? action.buttons : [];
    const ids = buttons.map((b, i) => ({
      id: isRecord(b) && isRecord(b['reply']) ? b['reply']['id'] : undefined,
      path: ['buttons', i, 'reply', 'id'],
      at: `buttons[${i}]`,
    }));
    reportDuplicates(ids, 'Button id', ctx);
  }, whenObject);

/** `action` of a list message. */
export const ListActionSchema = z
  .strictObject({
    button: limitedString({ label: 'List button label', max: LIMITS.listButton, spec: SPEC }),
    sections: boundedArray(ListSectionSchema, {
      label: 'List sections',
      ...LIMITS.sections,
      spec: SPEC,
    }),
  })
  .superRefine((action, ctx) => {
    const sections: unknown[] = Array.isArray(action.sections) ? action.sections : [];
    const ids: Array<{ id: unknown; path: (string | number)[]; at: string }> = [];
    sections.forEach((section, s) => {
      const rows: unknown[] =
        isRecord(section) && Array.isArray(section['rows']) ? section['rows'] : [];
      rows.forEach((row, r) => {
        ids.push({
          id: isRecord(row) ? row['id'] : undefined,
          path: ['sections', s, 'rows', r, 'id'],
          at: `sections[${s}].rows[${r}]`,
        });
      });
    });
    if (ids.length > LIMITS.totalRows) {
      const params: IssueParams = { limit: LIMITS.totalRows, size: ids.length, spec: SPEC };
      ctx.addIssue({
        code: 'custom',
        path: ['sections'],
        message: `List rows: ${ids.length} across the whole list; the limit is ${LIMITS.totalRows} (spec ${SPEC}); remove ${ids.length - LIMITS.totalRows}`,
        params,
      });
    }
    reportDuplicates(ids, 'Row id', ctx);
  }, whenObject);

const common = {
  header: InteractiveHeaderSchema.optional(),
  body: InteractiveBodySchema,
  footer: InteractiveFooterSchema.optional(),
};

/** `interactive` object of a reply-button message. */
export const ButtonInteractiveSchema = z.strictObject({
  type: z.literal('button'),
  ...common,
  action: ButtonActionSchema,
});
/** `interactive` object of a list message. */
export const ListInteractiveSchema = z.strictObject({
  type: z.literal('list'),
  ...common,
  action: ListActionSchema,
});

/** `interactive` object: `button` or `list`. */
export const InteractiveObjectSchema = z.discriminatedUnion('type', [
  ButtonInteractiveSchema,
  ListInteractiveSchema,
]);

/** `{ type: 'interactive', interactive: { type: 'button' | 'list', ... } }`. */
export const InteractiveContentSchema = z.strictObject({
  type: z.literal('interactive'),
  interactive: InteractiveObjectSchema,
});
/** Interactive content (buttons or list). */
export type InteractiveContent = z.infer<typeof InteractiveContentSchema>;
/** One reply button. */
export type ReplyButton = z.infer<typeof ReplyButtonSchema>;
/** One list section. */
export type ListSection = z.infer<typeof ListSectionSchema>;
/** One list row. */
export type ListRow = z.infer<typeof ListRowSchema>;
