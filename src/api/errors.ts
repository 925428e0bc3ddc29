import { ErrorEnvelope, type ErrorCode } from './resources.js';

/**
 * Typed errors of the Messaging API (spec part 7), one class per code family.
 * Callers branch on `code` (or the class), never on message text.
 */

/** A code of spec part 7, or a code this client does not know yet (kept as sent). */
export type ApiErrorCode = ErrorCode | (string & {});

/** What every API error carries for support and retry decisions. */
export interface ApiErrorInit {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly message: string;
  /** `X-Service-Request-Id` of the response, for support. Not a message id. */
  readonly requestId?: string | undefined;
  /** ISO 8601 time the request was started. */
  readonly requestTime: string;
  /** Method and path template, e.g. `POST /v1/messages`. */
  readonly route: string;
  /** The server's wait hint (Retry-After, RateLimit-Reset or retryAfterSeconds), in ms. */
  readonly retryAfterMs?: number | undefined;
  /** Extra safe detail fields of the envelope (everything but code and message). */
  readonly details?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

/**
 * Base class of every error answered by the API (or synthesised for a call).
 * @example
 * if (err instanceof AdmissionError && err.code === 'service_window_closed') useTemplate();
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly requestId: string | undefined;
  readonly requestTime: string;
  readonly route: string;
  readonly retryAfterMs: number | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(init: ApiErrorInit) {
    super(`${init.route} answered ${init.status} ${init.code}: ${init.message}`, {
      cause: init.cause,
    });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.requestTime = init.requestTime;
    this.route = init.route;
    this.retryAfterMs = init.retryAfterMs;
    this.details = init.details ?? {};
  }
}

/** 401 `unauthorized`, `invalid_api_key`: the key is missing, bad, rotated or revoked. */
export class AuthError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'AuthError';
  }
}

/** 403 `insufficient_scope`, `api_key_not_allowed`. */
export class ScopeError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'ScopeError';
  }
}

/** 404 `message_not_found`, `conversation_not_found`, `media_not_found`, `template_not_found`. */
export class NotFoundError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'NotFoundError';
  }
}

/** 409: an admission rule refused the request (window, ownership, quality, contact...). */
export class AdmissionError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'AdmissionError';
  }
}

/** 400 `invalid_message`, `invalid_pagination`, `invalid_cursor`. */
export class ValidationError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'ValidationError';
  }
}

/** 429 request rate (`rate_limited`) and `media_concurrency_exceeded`. */
export class RateLimitError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'RateLimitError';
  }
}

/** 503 `temporarily_unavailable`, `backlog_full`: nothing was admitted; delay and retry. */
export class UnavailableError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'UnavailableError';
  }
}

/** Any other 5xx (on a read; on a send a 5xx is an `unknown` outcome, not an error). */
export class ServerError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'ServerError';
  }
}

/** A response whose status or body does not match the contract (code `bad_response`). */
export class ApiResponseError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'ApiResponseError';
  }
}

/**
 * The connection failed before any byte of the request could be written (ECONNREFUSED,
 * DNS failure). Synthetic code `connection_refused`, status 0. Safe to retry.
 */
export class ConnectionError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'ConnectionError';
  }
}

/** A timeout or a network failure after the request may have been written (status 0). */
export class NetworkError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'NetworkError';
  }
}

const UNAVAILABLE_CODES: ReadonlySet<string> = new Set(['temporarily_unavailable', 'backlog_full']);

/** The fallback code when an error response carries no parseable envelope. */
function fallbackCode(status: number): string {
  if (status === 429) return 'rate_limited';
  return `http_${status}`;
}

/** Input of {@link errorFromResponse}: an HTTP error response, already read. */
export interface ErrorResponseInput {
  readonly status: number;
  /** The parsed JSON body, or undefined when the body was not JSON. */
  readonly body: unknown;
  readonly route: string;
  readonly requestTime: string;
  readonly requestId?: string | undefined;
  readonly retryAfterMs?: number | undefined;
}

/**
 * Maps an error response to its typed error: the class follows the status family,
 * the code comes from the envelope (or `http_<status>` / `rate_limited` without one).
 */
export function errorFromResponse(input: ErrorResponseInput): ApiError {
  const parsed = ErrorEnvelope.safeParse(input.body);
  const { code, message, details } = parsed.success
    ? splitEnvelope(parsed.data)
    : {
        code: fallbackCode(input.status),
        message: 'response without an error envelope',
        details: {},
      };
  const init: ApiErrorInit = {
    status: input.status,
    code,
    message,
    requestId: input.requestId,
    requestTime: input.requestTime,
    route: input.route,
    retryAfterMs: input.retryAfterMs,
    details,
  };
  switch (input.status) {
    case 400:
      return new ValidationError(init);
    case 401:
      return new AuthError(init);
    case 403:
      return new ScopeError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new AdmissionError(init);
    case 429:
      return new RateLimitError(init);
  }
  if (input.status === 503 && UNAVAILABLE_CODES.has(code)) return new UnavailableError(init);
  if (input.status >= 500) return new ServerError(init);
  return new ApiError(init);
}

function splitEnvelope(envelope: ErrorEnvelope): {
  code: string;
  message: string;
  details: Record<string, unknown>;
} {
  const { code, message, ...details } = envelope;
  return { code, message, details };
}

/**
 * True when `err` is an error (from this client) carrying exactly this `code`.
 * @example
 * if (isErrorCode(err, 'conversation_owned_by_human')) pauseConversation();
 */
export function isErrorCode(err: unknown, code: ApiErrorCode): boolean {
  return err instanceof Error && 'code' in err && err.code === code;
}
