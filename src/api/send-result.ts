import type { ApiError } from './errors.js';

/**
 * The outcome of `MessagingClient.send`. Sends never throw for outcomes, and the client
 * never replays a send on its own (spec 4.5.6).
 */
export type SendResult = SendAccepted | SendRejected | SendUnknown;

/** 202: the message was admitted and queued. Delivery continues asynchronously. */
export interface SendAccepted {
  readonly status: 'accepted';
  readonly messageId: string;
  /** `X-Service-Request-Id`, for support (not a message id). */
  readonly requestId?: string;
}

/**
 * The API refused the message (any 4xx, or 503 `temporarily_unavailable`/`backlog_full`),
 * or the connection failed before a byte was written (code `connection_refused`).
 * Nothing was admitted.
 */
export interface SendRejected {
  readonly status: 'rejected';
  readonly error: ApiError;
  /**
   * True for 429, 503 `temporarily_unavailable`/`backlog_full` and `connection_refused`:
   * the caller may send again, after `retryAfterMs` when given.
   */
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
}

/** Why a send's outcome is unknown. */
export type UnknownReason = 'timeout' | 'network' | 'server_error' | 'bad_response';

/**
 * The message may or may not have been admitted: a timeout, a network failure after the
 * request could have been written, another 5xx, or a 202 whose body did not parse.
 * Do NOT send again blindly: reconcile through the conversation history using `to`,
 * `type`, `fingerprint` and `startedAt` (spec 4.5.6).
 */
export interface SendUnknown {
  readonly status: 'unknown';
  readonly reason: UnknownReason;
  /** Epoch ms when the request was started. */
  readonly startedAt: number;
  readonly requestId?: string;
  /** Recipient, as sent. */
  readonly to: string;
  /** Message type, as sent. */
  readonly type: string;
  /** {@link fingerprintContent} of the request. */
  readonly fingerprint: string;
  /** The underlying error (an ApiError for 5xx and bad responses). */
  readonly cause: unknown;
}
