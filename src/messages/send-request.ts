/**
 * The POST /v1/messages request body (spec 4.5): the single definition of send
 * validation, used by the API client, the sandbox and the flow linter.
 */
import { z } from 'zod';
import { MESSAGING_PRODUCT } from '../api/resources.js';
import { LIMITS } from '../core/limits.js';
import { CONTENT_VARIANTS, parseWith, type Content } from './content.js';
import { MessageValidationError } from './errors.js';
import { quote, type IssueParams, type MessageIssue, type ValidationResult } from './issues.js';
import { fastTextContent, hasOnlyKeys } from './text.js';

/**
 * E.164 as accepted here: `+`, then 8 to 15 digits, the first 1-9 (country codes never
 * start with 0), and nothing else (no spaces, dashes or brackets).
 */
export const E164 = /^\+[1-9]\d{7,14}$/;

/** The `to` field: an E.164 number with country code. */
export const RecipientSchema = z.string().superRefine((to, ctx) => {
  if (!E164.test(to)) {
    const params: IssueParams = { spec: '4.5' };
    ctx.addIssue({
      code: 'custom',
      message: `Recipient ${quote(to)} is not an E.164 number; write "+", the country code and the number, 8 to 15 digits in all, without spaces or punctuation, e.g. "+14155550123" (spec 4.5)`,
      params,
    });
  }
});

const envelope = {
  messaging_product: z.literal(MESSAGING_PRODUCT),
  to: RecipientSchema,
  recipient_type: z.literal('individual').optional(),
};

/** A content variant with the envelope fields first (so issues come in reading order). */
function withEnvelope<S extends z.ZodRawShape>(variant: z.ZodObject<S>) {
  return z.strictObject({ ...envelope, ...variant.shape });
}

/** The whole POST /v1/messages body: the envelope plus one content variant (strict). */
export const SendRequestSchema = z.discriminatedUnion('type', [
  withEnvelope(CONTENT_VARIANTS[0]),
  withEnvelope(CONTENT_VARIANTS[1]),
  withEnvelope(CONTENT_VARIANTS[2]),
  withEnvelope(CONTENT_VARIANTS[3]),
  withEnvelope(CONTENT_VARIANTS[4]),
  withEnvelope(CONTENT_VARIANTS[5]),
  withEnvelope(CONTENT_VARIANTS[6]),
  withEnvelope(CONTENT_VARIANTS[7]),
  withEnvelope(CONTENT_VARIANTS[8]),
]);
/** A valid POST /v1/messages body. */
export type SendRequest = z.infer<typeof SendRequestSchema>;

/** The JSON size of a body in bytes, or undefined when it cannot be serialised. */
function jsonBytes(body: unknown): number | undefined {
  try {
    const json = JSON.stringify(body) as string | undefined;
    return json === undefined ? undefined : Buffer.byteLength(json);
  } catch {
    // Cyclic structures and BigInt cannot be sent; the schema reports the shape.
    return undefined;
  }
}

const TEXT_REQUEST_KEYS = ['messaging_product', 'to', 'recipient_type', 'type', 'text'] as const;

/**
 * A valid text request without zod (see {@link fastTextContent}), or `undefined` for
 * anything else. A text body of at most 4,096 characters cannot reach the JSON size
 * limit (6 bytes per escaped character at most), so the size is not measured.
 */
function fastTextRequest(body: unknown): SendRequest | undefined {
  if (typeof body !== 'object' || body === null || !hasOnlyKeys(body, TEXT_REQUEST_KEYS))
    return undefined;
  const {
    messaging_product: product,
    to,
    recipient_type: kind,
    type,
    text,
  } = body as {
    readonly [key: string]: unknown;
  };
  if (product !== MESSAGING_PRODUCT || typeof to !== 'string' || !E164.test(to)) return undefined;
  const content = fastTextContent({ type, text });
  if (content === undefined) return undefined;
  if (kind === 'individual')
    return { messaging_product: product, to, recipient_type: kind, ...content };
  if (kind !== undefined || Object.hasOwn(body, 'recipient_type')) return undefined;
  return { messaging_product: product, to, ...content };
}

/**
 * Validates a POST /v1/messages body: every field, limit and rule of spec 4.5, and the
 * 262,144-byte JSON limit measured as `Buffer.byteLength(JSON.stringify(body))`.
 *
 * @example
 * const r = validateSendRequest(req.body);
 * if (r.status === 'invalid') return badRequest(r.issues);
 */
export function validateSendRequest(body: unknown): ValidationResult<SendRequest> {
  const text = fastTextRequest(body);
  if (text !== undefined) return { status: 'valid', value: text };
  const issues: MessageIssue[] = [];
  const size = jsonBytes(body);
  if (size !== undefined && size > LIMITS.requestBodyBytes) {
    issues.push({
      path: '',
      message: `Request body is ${size} bytes of JSON; the limit is ${LIMITS.requestBodyBytes} bytes (spec 4.5 rule 2); send less content`,
      limit: LIMITS.requestBodyBytes,
      size,
      spec: '4.5 rule 2',
    });
  }
  const result = parseWith(SendRequestSchema, body);
  if (result.status === 'invalid') issues.push(...result.issues);
  if (issues.length > 0) return { status: 'invalid', issues };
  return result;
}

/**
 * Wraps content into a send request for `to` and validates it.
 *
 * @throws MessageValidationError when the recipient, the content or the size is invalid.
 * @example
 * buildSendRequest('+14155550123', text('Hello'));
 */
export function buildSendRequest(to: string, content: Content): SendRequest {
  const result = validateSendRequest({ messaging_product: MESSAGING_PRODUCT, to, ...content });
  if (result.status === 'invalid') throw new MessageValidationError(result.issues);
  return result.value;
}
