/**
 * The common callback read without the schema: a `message.status` event (three per send)
 * whose fields have exactly the types the `CallbackEvent` schema asks. Anything else, or
 * anything in doubt, is left to the schema, which also words the error of a bad body.
 */
import { CallbackEvent } from '../api/callbacks.js';
import { OutboundStatus } from '../api/resources.js';
import type { IngestEvent } from '../engine/types.js';

const STATUS_EVENT = CallbackEvent.options.find(
  (option) => option.shape.type.value === 'message.status',
);
if (STATUS_EVENT === undefined) throw new Error('CallbackEvent has no message.status option');
/** The schema's own timestamp check (ISO 8601 with seconds and a zone), not a copy of it. */
const OCCURRED_AT = STATUS_EVENT.shape.occurredAt;
const STATUSES: ReadonlySet<string> = new Set(OutboundStatus.options);

/** A JSON object (not null, not an array): what both lean readers take a body's parts for. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The ingest event of a parsed `message.status` body when it passes every check of the
 * schema (the same event the schema's output gives); undefined otherwise: then the body
 * goes through `CallbackEvent`, which accepts or refuses it.
 * @example
 * const event = leanStatusEvent(JSON.parse(body)) ?? fromCallbackEvent(CallbackEvent.parse(json));
 */
export function leanStatusEvent(json: unknown): IngestEvent | undefined {
  if (!isRecord(json) || json['type'] !== 'message.status') return undefined;
  const { id, occurredAt, data } = json;
  if (typeof id !== 'string' || id.length === 0 || !isRecord(data)) return undefined;
  const { messageId, conversationId, status, failureCode } = data;
  if (
    typeof messageId !== 'string' ||
    typeof conversationId !== 'string' ||
    typeof status !== 'string' ||
    !STATUSES.has(status) ||
    (failureCode !== undefined && typeof failureCode !== 'string') ||
    typeof occurredAt !== 'string' ||
    !OCCURRED_AT.safeParse(occurredAt).success
  )
    return undefined;
  return {
    kind: 'status',
    conversationId,
    messageId,
    status: status as OutboundStatus,
    occurredAt,
    ...(failureCode === undefined ? {} : { failureCode }),
  };
}
