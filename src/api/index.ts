/** The typed Messaging API client (spec parts 4, 7, 8) and its building blocks. */

export { MessagingClient } from './client.js';
export type { MessagingClientOptions, Page } from './client.js';
export type {
  SendResult,
  SendAccepted,
  SendRejected,
  SendUnknown,
  UnknownReason,
} from './send-result.js';
export type { MediaDownload } from './media-download.js';
export { PageCursor, PageCursorJson } from './pagination.js';

export {
  ApiError,
  AuthError,
  ScopeError,
  NotFoundError,
  AdmissionError,
  ValidationError,
  RateLimitError,
  UnavailableError,
  ServerError,
  ApiResponseError,
  ConnectionError,
  NetworkError,
  errorFromResponse,
  isErrorCode,
} from './errors.js';
export type { ApiErrorCode, ApiErrorInit, ErrorResponseInput } from './errors.js';
export {
  ListLimitError,
  CursorMismatchError,
  MediaNotReadyError,
  MediaSlotError,
} from './client-errors.js';
export type { MediaNotReadyReason } from './client-errors.js';

export { fingerprintContent, canonicalJson } from './fingerprint.js';
export {
  keyIdOf,
  resolveIdentity,
  sendBudgetRules,
  readBudgetRules,
  blockKeysFor,
  mediaSlotKeys,
} from './budgets.js';
export type { BudgetIdentity } from './budgets.js';
export { MemoryLimiter } from './memory-limiter.js';
export type { MemoryLimiterOptions } from './memory-limiter.js';
export type { Limiter, BudgetRule, TakeResult, TakeOptions, Ticket, Slot } from './limiter.js';
export { DEFAULT_IN_FLIGHT_MS } from './limiter.js';
export {
  DEFAULT_RETRY,
  backoffDelayMs,
  parseRetryAfter,
  parseRateLimitReset,
  retryHintMs,
} from './retry.js';
export type { RetryPolicy } from './retry.js';

export * from './resources.js';
export * from './callbacks.js';
