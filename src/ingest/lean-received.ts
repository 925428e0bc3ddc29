/**
 * The inbound callback read without the schema: a `message.received` event of a plain
 * message (text or none, no media, reply, location, contacts or template part) whose fields
 * have exactly the types the `CallbackEvent` schema asks. At a few messages a second the
 * schema's code stays cold (interpreted) and costs more than the rest of the read; anything
 * else, or anything in doubt, is left to the schema, which also words the error.
 */
import { CallbackEvent } from '../api/callbacks.js';
import {
  Conversation,
  Message,
  MessageDirection,
  MessageStatus,
  MessageType,
} from '../api/resources.js';
import type { IngestEvent } from '../engine/types.js';
import { isRecord } from './lean-status.js';
import { fromApiMessage } from './normalize.js';

const RECEIVED_EVENT = CallbackEvent.options.find(
  (option) => option.shape.type.value === 'message.received',
);
if (RECEIVED_EVENT === undefined) throw new Error('CallbackEvent has no message.received option');
/** The schemas' own timestamp checks (ISO 8601 with seconds and a zone), not copies. */
const EVENT_AT = RECEIVED_EVENT.shape.occurredAt;
const MESSAGE_AT = Message.shape.occurredAt;
const LAST_MESSAGE_AT = Conversation.shape.lastMessageAt;
const DIRECTIONS: ReadonlySet<string> = new Set(MessageDirection.options);
const STATUSES: ReadonlySet<string> = new Set(MessageStatus.options);
const TYPES: ReadonlySet<string> = new Set(MessageType.options);
/** Optional parts of a message that only the schema reads (their shapes are richer). */
const LEFT_TO_THE_SCHEMA = [
  'interactive',
  'media',
  'downloadPath',
  'location',
  'contacts',
  'template',
  'image',
  'video',
  'audio',
  'document',
] as const;

const isIsoTime = (schema: typeof EVENT_AT, value: unknown): boolean =>
  typeof value === 'string' && schema.safeParse(value).success;

function plainMessage(m: unknown): m is Message {
  if (!isRecord(m)) return false;
  const { id, conversationId, contactId, direction, status, failureCode, type, text } = m;
  if (
    typeof id !== 'string' ||
    typeof conversationId !== 'string' ||
    typeof contactId !== 'string' ||
    typeof direction !== 'string' ||
    !DIRECTIONS.has(direction) ||
    typeof status !== 'string' ||
    !STATUSES.has(status) ||
    (failureCode !== undefined && typeof failureCode !== 'string') ||
    typeof type !== 'string' ||
    !TYPES.has(type) ||
    !isIsoTime(MESSAGE_AT, m['occurredAt'])
  )
    return false;
  if (
    text !== undefined &&
    !(isRecord(text) && ['string', 'undefined'].includes(typeof text['body']))
  )
    return false;
  return LEFT_TO_THE_SCHEMA.every((part) => m[part] === undefined);
}

function conversationOk(
  c: unknown,
): c is Pick<Conversation, 'phoneNumber' | 'contactId' | 'contactName' | 'humanOwned'> {
  if (!isRecord(c)) return false;
  return (
    typeof c['id'] === 'string' &&
    typeof c['contactId'] === 'string' &&
    typeof c['phoneNumber'] === 'string' &&
    typeof c['contactName'] === 'string' &&
    typeof c['humanOwned'] === 'boolean' &&
    isIsoTime(LAST_MESSAGE_AT, c['lastMessageAt'])
  );
}

/**
 * What `fromCallbackEvent(CallbackEvent.parse(json))` gives for a plain `message.received`
 * body that passes every check of the schema: the ingest event, or `null` for an outbound
 * message (nothing to do); undefined when the body is not such a body: then it goes
 * through the schema, which accepts or refuses it.
 * @example
 * const lean = leanReceivedEvent(JSON.parse(body));
 * if (lean !== undefined) return lean === null ? [] : [lean];
 */
export function leanReceivedEvent(json: unknown): IngestEvent | null | undefined {
  if (!isRecord(json) || json['type'] !== 'message.received') return undefined;
  const { id, data } = json;
  if (typeof id !== 'string' || id.length === 0 || !isIsoTime(EVENT_AT, json['occurredAt']))
    return undefined;
  if (!isRecord(data) || !plainMessage(data['message']) || !conversationOk(data['conversation']))
    return undefined;
  return fromApiMessage(data['message'], data['conversation']) ?? null;
}
