import { z } from 'zod';
import type { InboxItem, SendRecord, TimerRecord } from './store.js';
import { StoreDataError } from './store-data-error.js';

/**
 * A JSON value inside stored JSON text. What `JSON.parse` returns is JSON by construction,
 * so it is not walked again (`z.json()` cost a tenth of a Redis worker's CPU).
 */
const parsedJson = z.unknown();

/** An inbox item as RedisStore writes it. */
export const storedInboxItemSchema = z.object({
  id: z.string(),
  sortKey: z.number(),
  payload: parsedJson,
}) satisfies z.ZodType<InboxItem>;

/** A timer record as RedisStore writes it. */
export const storedTimerSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  name: z.string(),
  dueAt: z.number(),
}) satisfies z.ZodType<TimerRecord>;

/** A send record as RedisStore writes it. */
export const storedSendSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  seq: z.number(),
  state: z.enum(['pending', 'accepted', 'rejected', 'unknown', 'failed', 'reconciled']),
  messageId: z.string().exactOptional(),
  code: z.string().exactOptional(),
  startedAt: z.number(),
  contentType: z.string(),
  fingerprint: z.string().exactOptional(),
  request: parsedJson.exactOptional(),
  resends: z.number().int().exactOptional(),
  unknownSince: z.number().exactOptional(),
}) satisfies z.ZodType<SendRecord>;

/** A value envelope: expiry (epoch ms, or null for none) and the value. */
export const storedValueSchema = z.object({ e: z.number().nullable(), v: parsedJson });

/** A conversation document's JSON, parsed (see `parsedJson`). */
export const storedDocJsonSchema = parsedJson;

/** A conversation document hash: version and JSON. */
export const storedDocSchema = z.object({
  v: z.coerce.number().int().positive(),
  d: z.string(),
  /** Idle expiry (epoch ms); absent on documents written before retention existed. */
  e: z.coerce.number().exactOptional(),
});

/**
 * Parses JSON text read from `key` and validates it, or throws a {@link StoreDataError}
 * naming the key.
 */
export function parseStored<S extends z.ZodType>(
  key: string,
  text: string,
  schema: S,
): z.output<S> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new StoreDataError(key, 'not valid JSON', { cause });
  }
  return validateStored(key, data, schema);
}

/** Validates data read from `key`, or throws a {@link StoreDataError} naming the key. */
export function validateStored<S extends z.ZodType>(
  key: string,
  data: unknown,
  schema: S,
): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new StoreDataError(key, z.prettifyError(result.error), { cause: result.error });
  }
  return result.data;
}
