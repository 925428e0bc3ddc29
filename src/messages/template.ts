/**
 * Template content and components (spec 4.5.4). Whether a template exists, is approved
 * and declares these exact parameter kinds is checked at admission (the sandbox uses
 * {@link templateParameterKinds} for that); this module checks the structure.
 */
import { z } from 'zod';
import { LIMITS } from '../core/limits.js';
import { limitedString } from './fields.js';
import { quote, type IssueParams } from './issues.js';
import { MediaLinkSchema } from './media-link.js';

const SPEC = '4.5.4';
const required = (label: string) => limitedString({ label, spec: SPEC });
const parameterName = required('parameter_name').optional();

const currencyCode = z.string().superRefine((code, ctx) => {
  const size = [...code].length;
  if (size !== LIMITS.currencyCodeLength) {
    const params: IssueParams = { limit: LIMITS.currencyCodeLength, size, spec: SPEC };
    ctx.addIssue({
      code: 'custom',
      message: `Currency code ${quote(code)} is ${size} characters; it must be exactly ${LIMITS.currencyCodeLength}, e.g. "USD" (spec ${SPEC})`,
      params,
    });
  }
});

/** A `text` parameter (optional `parameter_name` for named variables). */
export const TextParameterSchema = z.strictObject({
  type: z.literal('text'),
  text: required('Text parameter'),
  parameter_name: parameterName,
});
/** A `currency` parameter: fallback_value, 3-character code, integer amount_1000. */
export const CurrencyParameterSchema = z.strictObject({
  type: z.literal('currency'),
  currency: z.strictObject({
    fallback_value: required('Currency fallback_value'),
    code: currencyCode,
    amount_1000: z.number().int(),
  }),
  parameter_name: parameterName,
});
/** A `date_time` parameter: fallback_value. */
export const DateTimeParameterSchema = z.strictObject({
  type: z.literal('date_time'),
  date_time: z.strictObject({ fallback_value: required('Date/time fallback_value') }),
  parameter_name: parameterName,
});
/** An `image` parameter by media link (4.5.1); header only. */
export const ImageParameterSchema = z.strictObject({
  type: z.literal('image'),
  image: z.strictObject({ link: MediaLinkSchema }),
});
/** A `video` parameter by media link (4.5.1); header only. */
export const VideoParameterSchema = z.strictObject({
  type: z.literal('video'),
  video: z.strictObject({ link: MediaLinkSchema }),
});
/** A `document` parameter by media link (4.5.1), optional filename; header only. */
export const DocumentParameterSchema = z.strictObject({
  type: z.literal('document'),
  document: z.strictObject({
    link: MediaLinkSchema,
    filename: limitedString({
      label: 'Document filename',
      max: LIMITS.documentFilename,
      spec: SPEC,
    }).optional(),
  }),
});

/** One template parameter. */
export const TemplateParameterSchema = z.discriminatedUnion('type', [
  TextParameterSchema,
  CurrencyParameterSchema,
  DateTimeParameterSchema,
  ImageParameterSchema,
  VideoParameterSchema,
  DocumentParameterSchema,
]);
/** One template parameter. */
export type TemplateParameter = z.infer<typeof TemplateParameterSchema>;

const MEDIA_KINDS = new Set(['image', 'video', 'document']);

/** Media parameters belong in the header; report them elsewhere. */
function mediaOnlyInHeader(
  component: { type: string; parameters: unknown },
  ctx: z.RefinementCtx,
): void {
  if (!Array.isArray(component.parameters)) return;
  component.parameters.forEach((p: unknown, i) => {
    const kind = typeof p === 'object' && p !== null && 'type' in p ? p.type : undefined;
    if (typeof kind === 'string' && MEDIA_KINDS.has(kind)) {
      const params: IssueParams = { spec: SPEC };
      ctx.addIssue({
        code: 'custom',
        path: ['parameters', i, 'type'],
        message: `${kind === 'image' ? 'An' : 'A'} ${kind} parameter is not valid in a ${component.type} component; media parameters belong in the header component (spec ${SPEC})`,
        params,
      });
    }
  });
}
const whenObject = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null,
};

const parameters = z.array(TemplateParameterSchema);

/** A `header` component: any parameter kind. */
export const HeaderComponentSchema = z.strictObject({ type: z.literal('header'), parameters });
/** A `body` component: text, currency and date_time parameters. */
export const BodyComponentSchema = z
  .strictObject({ type: z.literal('body'), parameters })
  .superRefine(mediaOnlyInHeader, whenObject);
/** A `button` component: optional sub_type and string index; no media parameters. */
export const ButtonComponentSchema = z
  .strictObject({
    type: z.literal('button'),
    sub_type: z.enum(['quick_reply', 'url', 'copy_code']).optional(),
    index: required('Button index').optional(),
    parameters,
  })
  .superRefine(mediaOnlyInHeader, whenObject);

/** One template component: header, body or button. */
export const TemplateComponentSchema = z.discriminatedUnion('type', [
  HeaderComponentSchema,
  BodyComponentSchema,
  ButtonComponentSchema,
]);
/** One template component. */
export type TemplateComponent = z.infer<typeof TemplateComponentSchema>;

/** `template` content object. */
export const TemplateObjectSchema = z.strictObject({
  name: required('Template name'),
  language: z.strictObject({ code: required('Template language code') }),
  components: z.array(TemplateComponentSchema).optional(),
});

/** `{ type: 'template', template: { name, language: { code }, components? } }`. */
export const TemplateContentSchema = z.strictObject({
  type: z.literal('template'),
  template: TemplateObjectSchema,
});
/** Template content. */
export type TemplateContent = z.infer<typeof TemplateContentSchema>;

/** The parameter kinds of one component, in order. */
export interface ComponentParameterKinds {
  readonly component: 'header' | 'body' | 'button';
  /** Button index, for button components that carry one. */
  readonly index?: string;
  /** Parameter types in order, e.g. `['text', 'currency']`. */
  readonly kinds: readonly TemplateParameter['type'][];
}

/**
 * The ordered parameter kinds of validated template components, to compare with an
 * approved template's declared kinds and order (spec 4.5.4).
 *
 * @example
 * templateParameterKinds([{ type: 'body', parameters: [{ type: 'text', text: 'Ann' }] }]);
 * // [{ component: 'body', kinds: ['text'] }]
 */
export function templateParameterKinds(
  components: readonly TemplateComponent[] | undefined,
): ComponentParameterKinds[] {
  return (components ?? []).map((c) => ({
    component: c.type,
    ...(c.type === 'button' && c.index !== undefined && { index: c.index }),
    kinds: c.parameters.map((p) => p.type),
  }));
}
