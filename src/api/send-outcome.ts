import { ApiResponseError, type ApiError } from './errors.js';
import type { HttpOutcome } from './http.js';
import { SendResponse } from './resources.js';
import type { SendResult, SendUnknown, UnknownReason } from './send-result.js';

/** @internal What a send outcome needs to know about the request. */
export interface SendContext {
  readonly route: string;
  readonly requestTime: string;
  readonly startedAt: number;
  readonly to: string;
  readonly type: string;
  /** The content fingerprint, computed only for an unknown outcome (it is a SHA-256). */
  readonly fingerprint: () => string;
  /** Builds the typed error of a failed outcome (Transport.errorOf). */
  readonly errorOf: (outcome: HttpOutcome) => ApiError;
}

const RETRYABLE_503: ReadonlySet<string> = new Set(['temporarily_unavailable', 'backlog_full']);

/**
 * @internal Turns the one exchange of a send into its {@link SendResult}:
 * - 202 with a valid body: accepted;
 * - 4xx, 503 `temporarily_unavailable`/`backlog_full`: rejected (nothing admitted);
 * - refused before any byte was written: rejected, code `connection_refused`, retryable;
 * - timeout, network failure after writing, other 5xx, any other status, or a 202 whose
 *   body does not parse: unknown (never replayed, spec 4.5.6).
 */
export function sendOutcome(outcome: HttpOutcome, ctx: SendContext): SendResult {
  if (outcome.status === 'timeout') return unknown(ctx, 'timeout', ctx.errorOf(outcome));
  if (outcome.status === 'network') {
    const error = ctx.errorOf(outcome);
    if (outcome.beforeWrite) return { status: 'rejected', error, retryable: true };
    return unknown(ctx, 'network', error);
  }
  const requestId = outcome.requestId;
  if (outcome.httpStatus === 202) {
    const parsed = SendResponse.safeParse(outcome.body);
    if (parsed.success) {
      return requestId === undefined
        ? { status: 'accepted', messageId: parsed.data.messageId }
        : { status: 'accepted', messageId: parsed.data.messageId, requestId };
    }
    const error = new ApiResponseError({
      status: 202,
      code: 'bad_response',
      message: `202 body is not a send response: ${parsed.error.message}`,
      requestId,
      requestTime: ctx.requestTime,
      route: ctx.route,
      cause: parsed.error,
    });
    return unknown(ctx, 'bad_response', error, requestId);
  }
  const error = ctx.errorOf(outcome);
  const status = outcome.httpStatus;
  if (status >= 400 && status < 500) {
    return rejected(error, status === 429);
  }
  if (status === 503 && RETRYABLE_503.has(error.code)) return rejected(error, true);
  return unknown(ctx, status >= 500 ? 'server_error' : 'bad_response', error, requestId);
}

function rejected(error: ApiError, retryable: boolean): SendResult {
  return error.retryAfterMs === undefined
    ? { status: 'rejected', error, retryable }
    : { status: 'rejected', error, retryable, retryAfterMs: error.retryAfterMs };
}

function unknown(
  ctx: SendContext,
  reason: UnknownReason,
  cause: unknown,
  requestId?: string,
): SendUnknown {
  const base = {
    status: 'unknown' as const,
    reason,
    startedAt: ctx.startedAt,
    to: ctx.to,
    type: ctx.type,
    fingerprint: ctx.fingerprint(),
    cause,
  };
  return requestId === undefined ? base : { ...base, requestId };
}
