import {
  CallbackEvent,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyCallback,
} from '../api/callbacks.js';
import type { Logger } from '../log/logger.js';
import { StoreUnavailableError } from '../store/guarded-store.js';
import type {
  CallbackParser,
  CallbackVerifier,
  IngestEvent,
  RawCallbackRequest,
  RawCallbackResponse,
} from '../engine/types.js';
import { leanReceivedEvent } from './lean-received.js';
import { leanStatusEvent } from './lean-status.js';
import { fromCallbackEvent } from './normalize.js';

/** Default cap of a callback body (1 MiB). */
export const DEFAULT_CALLBACK_BODY_BYTES = 1024 * 1024;

/** Seconds the API is asked to wait before redelivering a callback we could not record. */
export const CALLBACK_RETRY_AFTER_SECONDS = 5;

/** The event types the default parser knows; others are acknowledged and ignored. */
const KNOWN_TYPES: ReadonlySet<string> = new Set(
  CallbackEvent.options.map((option) => option.shape.type.value),
);

/** Options of {@link createCallbackHandler}. */
export interface CallbackHandlerOptions {
  readonly secret: string;
  readonly replayWindowSeconds?: number;
  readonly verifier?: CallbackVerifier;
  readonly parser?: CallbackParser;
  readonly maxBodyBytes?: number;
  readonly now: () => number;
  readonly logger: Logger;
  /** Takes the verified, parsed events (enqueues them); must not throw for outcomes. */
  readonly accept: (events: readonly IngestEvent[]) => Promise<void>;
}

/** The default verifier: HMAC-SHA256 over `<ts>.<raw body>`, constant time, replay window. */
export function defaultVerifier(secret: string, replayWindowSeconds?: number): CallbackVerifier {
  return ({ rawBody, headers, nowMs }) =>
    verifyCallback({
      secret,
      rawBody,
      signature: headers[SIGNATURE_HEADER],
      timestamp: headers[TIMESTAMP_HEADER],
      nowMs,
      ...(replayWindowSeconds === undefined ? {} : { replayWindowSeconds }),
    });
}

/** The default parser: JSON, then the `CallbackEvent` schema (one event per body). */
export const defaultParser: CallbackParser = (rawBody) => {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return { status: 'invalid', message: 'body is not JSON' };
  }
  // An event type we do not know (the API may add kinds) is acknowledged, not refused:
  // a 4xx would make the API redeliver it for days.
  const type: unknown = Reflect.get(Object(json), 'type');
  if (typeof json === 'object' && json !== null && !Array.isArray(json) && typeof type === 'string')
    if (!KNOWN_TYPES.has(type))
      return { status: 'ok', events: [], ignored: `unknown event type "${type.slice(0, 64)}"` };
  // The common bodies (statuses, plain inbound messages) are read without the schema when
  // well formed; the schema still decides, and words the error, for anything else.
  const lean =
    type === 'message.status'
      ? leanStatusEvent(json)
      : type === 'message.received'
        ? leanReceivedEvent(json)
        : undefined;
  if (lean !== undefined) return { status: 'ok', events: lean === null ? [] : [lean] };
  const parsed = CallbackEvent.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      status: 'invalid',
      message:
        `not a callback event: ${first?.path.join('.') ?? ''} ${first?.message ?? ''}`.trim(),
    };
  }
  const event = fromCallbackEvent(parsed.data);
  return { status: 'ok', events: event === undefined ? [] : [event] };
};

const error = (status: number, code: string, message: string): RawCallbackResponse => ({
  status,
  body: { code, message },
});

/** At most this many distinct "ignored" reasons are logged per process (then silence). */
const MAX_IGNORED_LOGGED = 100;

/**
 * The framework-free callback endpoint: size cap, signature and replay check on the raw
 * bytes, parsing, then hands the events over and answers at once (processing runs
 * later). Never throws: malformed input is a 4xx with the error envelope.
 */
export function createCallbackHandler(
  options: CallbackHandlerOptions,
): (request: RawCallbackRequest) => Promise<RawCallbackResponse> {
  const verify = options.verifier ?? defaultVerifier(options.secret, options.replayWindowSeconds);
  const parse = options.parser ?? defaultParser;
  const maxBytes = options.maxBodyBytes ?? DEFAULT_CALLBACK_BODY_BYTES;
  const ignoredLogged = new Set<string>();
  return async (request) => {
    try {
      if (!Buffer.isBuffer(request.body))
        return error(400, 'invalid_callback', 'body must be raw bytes');
      if (request.body.length > maxBytes) {
        return error(413, 'payload_too_large', `callback body is over ${maxBytes} bytes`);
      }
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        headers[name.toLowerCase()] = Array.isArray(value) ? value[0] : value;
      }
      // The signature covers the bytes as sent; a compressed body is refused, never inflated
      // before the check (a decompression bomb must not cost anything unsigned).
      const encoding = headers['content-encoding']?.trim().toLowerCase();
      if (encoding !== undefined && encoding !== '' && encoding !== 'identity')
        return error(
          415,
          'unsupported_encoding',
          `compressed callbacks (Content-Encoding: ${encoding.slice(0, 32)}) are not accepted; send the body uncompressed`,
        );
      const verdict = verify({ rawBody: request.body, headers, nowMs: options.now() });
      if (verdict.status !== 'valid') {
        options.logger.warn('callback rejected', { reason: verdict.reason });
        const message =
          verdict.reason === 'stale_timestamp'
            ? 'callback timestamp is outside the replay window'
            : 'callback signature is missing or does not match';
        return error(401, 'invalid_signature', message);
      }
      const parsed = parse(request.body);
      if (parsed.status === 'invalid') {
        options.logger.warn('callback body is malformed', { reason: parsed.message });
        return error(400, 'invalid_callback', parsed.message);
      }
      const { ignored } = parsed;
      if (
        ignored !== undefined &&
        !ignoredLogged.has(ignored) &&
        ignoredLogged.size < MAX_IGNORED_LOGGED
      ) {
        ignoredLogged.add(ignored);
        options.logger.debug('callback acknowledged and ignored', { reason: ignored });
      }
      await options.accept(parsed.events);
      return { status: 200, body: { received: parsed.events.length } };
    } catch (err) {
      // Nothing was recorded: 503 + Retry-After makes the API deliver it again later. A
      // store outage is logged once by the guarded store, not per callback.
      const level = err instanceof StoreUnavailableError ? 'debug' : 'error';
      options.logger[level]('callback could not be recorded', { error: String(err) });
      return {
        status: 503,
        body: {
          code: 'unavailable',
          message: 'the callback could not be recorded; retry later',
          retryAfterSeconds: CALLBACK_RETRY_AFTER_SECONDS,
        },
        headers: { 'Retry-After': String(CALLBACK_RETRY_AFTER_SECONDS) },
      };
    }
  };
}
