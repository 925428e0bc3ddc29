import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { Conversation, Message, OutboundStatus } from './resources.js';

/**
 * Callback (webhook) payloads and signing. The spec leaves both open (part 6); the
 * sandbox and the default verifier agree on this documented scheme:
 *
 * - Headers: `X-Callback-Timestamp: <unix seconds>` and
 *   `X-Callback-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`.
 * - The receiver recomputes the HMAC over the raw bytes, compares in constant time and
 *   rejects timestamps outside a replay window (default 300 s).
 * - Delivery is at least once: the same event `id` may arrive more than once.
 */

export const SIGNATURE_HEADER = 'x-callback-signature';
export const TIMESTAMP_HEADER = 'x-callback-timestamp';
export const DEFAULT_REPLAY_WINDOW_SECONDS = 300;

const base = { id: z.string().min(1), occurredAt: z.iso.datetime({ offset: true }) };

/** One callback event. `message.failed` is the kind the spec names; the others are ours. */
export const CallbackEvent = z.discriminatedUnion('type', [
  z.looseObject({
    ...base,
    type: z.literal('message.received'),
    data: z.looseObject({
      message: Message,
      /** The conversation, so a receiver knows the contact without another read. */
      conversation: Conversation.omit({ lastMessage: true }),
    }),
  }),
  z.looseObject({
    ...base,
    type: z.literal('message.status'),
    data: z.looseObject({
      messageId: z.string(),
      conversationId: z.string(),
      status: OutboundStatus,
      failureCode: z.string().optional(),
    }),
  }),
  z.looseObject({
    ...base,
    type: z.literal('message.failed'),
    data: z.looseObject({
      messageId: z.string(),
      conversationId: z.string(),
      status: z.literal('failed'),
      failureCode: z.string().optional(),
    }),
  }),
  z.looseObject({
    ...base,
    type: z.literal('conversation.ownership'),
    data: z.looseObject({ conversationId: z.string(), humanOwned: z.boolean() }),
  }),
]);
export type CallbackEvent = z.infer<typeof CallbackEvent>;

/** Computes the `X-Callback-Signature` value for a raw body. */
export function signCallback(
  secret: string,
  timestampSeconds: number,
  rawBody: string | Buffer,
): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestampSeconds}.`);
  mac.update(rawBody);
  return `v1=${mac.digest('hex')}`;
}

export type VerifyResult =
  | { readonly status: 'valid' }
  | {
      readonly status: 'invalid';
      readonly reason: 'missing_signature' | 'bad_signature' | 'stale_timestamp';
    };

/**
 * Verifies a callback's signature over the raw bytes, in constant time, and its
 * timestamp against the replay window.
 */
export function verifyCallback(options: {
  readonly secret: string;
  readonly rawBody: Buffer;
  readonly signature: string | undefined;
  readonly timestamp: string | undefined;
  readonly nowMs: number;
  readonly replayWindowSeconds?: number;
}): VerifyResult {
  const { signature, timestamp } = options;
  if (signature === undefined || timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) {
    return { status: 'invalid', reason: 'missing_signature' };
  }
  const ts = Number(timestamp);
  const window = options.replayWindowSeconds ?? DEFAULT_REPLAY_WINDOW_SECONDS;
  if (Math.abs(options.nowMs / 1000 - ts) > window)
    return { status: 'invalid', reason: 'stale_timestamp' };
  const expected = Buffer.from(signCallback(options.secret, ts, options.rawBody));
  const given = Buffer.from(signature);
  // Compare lengths first: timingSafeEqual throws on unequal lengths, and the length of
  // the expected value is public (fixed by the scheme).
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { status: 'invalid', reason: 'bad_signature' };
  }
  return { status: 'valid' };
}
