import type { Response } from 'express';
import type { ErrorCode } from '../api/resources.js';

/** HTTP status of every error code of spec part 7. */
export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_message: 400,
  invalid_pagination: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  api_key_not_allowed: 403,
  message_not_found: 404,
  conversation_not_found: 404,
  media_not_found: 404,
  template_not_found: 404,
  instance_not_api_managed: 409,
  instance_unavailable: 409,
  contact_unavailable: 409,
  message_not_allowed: 409,
  conversation_owned_by_human: 409,
  service_window_closed: 409,
  template_not_approved: 409,
  quality_blocked: 409,
  contact_opted_out: 409,
  contact_instance_restricted: 409,
  contact_marketing_restricted: 409,
  rate_limited: 429,
  media_concurrency_exceeded: 429,
  temporarily_unavailable: 503,
  backlog_full: 503,
};

/** An error answer: the envelope of spec part 7 plus its HTTP status and headers. */
export interface Problem {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
}

/** Builds a {@link Problem} for a known code, with its status from {@link STATUS_OF}. */
export function problem(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): Problem {
  return {
    status: STATUS_OF[code],
    code,
    message,
    ...(details === undefined ? {} : { details }),
    ...(headers === undefined ? {} : { headers }),
  };
}

/** Writes a problem as the JSON error envelope `{ code, message, ...details }`. */
export function sendProblem(res: Response, p: Problem): void {
  if (p.headers !== undefined) res.set(p.headers);
  res.status(p.status).json({ ...p.details, code: p.code, message: p.message });
}
