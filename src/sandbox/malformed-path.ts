import type { NextFunction, Request, Response } from 'express';
import type { ErrorCode } from '../api/resources.js';
import type { Scope } from './config.js';
import type { SandboxContext } from './context.js';
import { guard } from './guard.js';
import { problem, sendProblem } from './problem.js';

/** True when every `%` escape of the text decodes (no `%E0%A4%A`, no `%ZZ`, no lone surrogate bytes). */
export function escapesDecode(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    // decodeURIComponent throws a URIError exactly on a malformed escape.
    return false;
  }
}

interface IdRoute {
  readonly scope: Scope;
  readonly code: ErrorCode;
  readonly what: string;
}

/** The id route a path with a malformed id would have reached, by its shape. */
function idRouteOf(method: string, parts: readonly string[]): IdRoute | undefined {
  if (method !== 'GET') return undefined;
  const [, first, , last, extra] = parts;
  if (parts.length === 3 && first === 'messages')
    return { scope: 'messages:read', code: 'message_not_found', what: 'message' };
  if (parts.length === 3 && first === 'media')
    return { scope: 'media:read', code: 'media_not_found', what: 'media' };
  if (parts.length === 4 && first === 'conversations' && last === 'messages' && extra === undefined)
    return { scope: 'messages:read', code: 'conversation_not_found', what: 'conversation' };
  return undefined;
}

/**
 * Answers an API path whose percent-escapes do not decode (express would fail with a
 * URIError) the way the API answers an unknown id: after authentication, scope and
 * budget as on the real route, 404 `message_not_found` / `conversation_not_found` /
 * `media_not_found`; any other path is the generic 404 `not_found`.
 */
export function malformedPathGuard(ctx: SandboxContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const parts = req.path.split('/');
    if (parts.every(escapesDecode)) return next();
    const route = idRouteOf(req.method, parts);
    if (route === undefined) {
      res.status(404).json({
        code: 'not_found',
        message: 'No such route; the path has a malformed percent-escape.',
      });
      return;
    }
    const caller = guard(ctx, req, res, route.scope, 'read');
    if (caller === undefined) return;
    sendProblem(
      res,
      problem(
        route.code,
        `No such ${route.what} for this number: the id has a malformed percent-escape.`,
      ),
    );
  };
}
