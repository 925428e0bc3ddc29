import {
  CallbackEvent,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyCallback,
} from '../api/callbacks.js';
import type { Logger } from '../log/logger.js';
import type {
  CallbackParser,
  CallbackVerifier,
  IngestEvent,
  RawCallbackRequest,
  RawCallbackResponse,
} from '../engine/types.js';
import { fromCallbackEvent } from './normalize.js';

/** Default cap of a callback body (1 MiB). */
export const DEFAULT_CALLBACK_BODY_BYTES = 1024 * 1024;

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
      await options.accept(parsed.events);
      return { status: 200, body: { received: parsed.events.length } };
    } catch (err) {
      options.logger.error('callback handling failed', { error: String(err) });
      return error(500, 'internal_error', 'the callback could not be recorded; retry later');
    }
  };
}
