import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { prebufferBody } from './request-body.js';
import { matchRoute, parseRoutePattern, type RoutePattern } from './route-pattern.js';

/**
 * A fault injected on an API route for its next `count` calls. Applied before
 * authentication, in this order: wait `delayMs` (real time; longer than the client's
 * timeout simulates a timeout), then `drop: 'before'` (connection destroyed, request not
 * processed), or an error answer (`status` + `code`, with `Retry-After` and
 * `retryAfterSeconds` when given), or `drop: 'after'` (the request IS processed, then
 * the connection is destroyed instead of answering: an accepted send whose answer is
 * lost), or else normal processing.
 */
export const FaultSpec = z.strictObject({
  /**
   * `METHOD /path` with `:param` segments and an optional final `/*`, e.g.
   * `POST /v1/messages`, `GET /v1/media/:id`, `* /v1/conversations/*`; `*` for every API route.
   */
  route: z.string().superRefine((route, check) => {
    const parsed = parseRoutePattern(route);
    if (parsed.status === 'invalid') check.addIssue({ code: 'custom', message: parsed.message });
  }),
  count: z.number().int().min(1).default(1),
  status: z.number().int().min(400).max(599).optional(),
  code: z.string().min(1).optional(),
  message: z.string().optional(),
  retryAfterSeconds: z.number().int().nonnegative().optional(),
  delayMs: z.number().int().nonnegative().max(600_000).optional(),
  drop: z.enum(['before', 'after']).optional(),
});
export type FaultSpec = z.infer<typeof FaultSpec>;
export type FaultInput = z.input<typeof FaultSpec>;

interface ActiveFault {
  readonly spec: FaultSpec;
  readonly pattern: RoutePattern;
  remaining: number;
}

const DEFAULT_CODE: Record<number, string> = {
  429: 'rate_limited',
  503: 'temporarily_unavailable',
};

/** The faults currently armed and the express middleware that applies them. */
export class FaultInjector {
  #faults: ActiveFault[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();

  add(spec: FaultSpec): void {
    const parsed = parseRoutePattern(spec.route);
    if (parsed.status === 'invalid') throw new RangeError(parsed.message);
    this.#faults.push({ spec, pattern: parsed.pattern, remaining: spec.count });
  }

  /** Faults still armed, with their remaining counts. */
  list(): { spec: FaultSpec; remaining: number }[] {
    return this.#faults.map((f) => ({ spec: f.spec, remaining: f.remaining }));
  }

  clear(): void {
    this.#faults = [];
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  /** Express middleware for the /v1 routes. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const path = `${req.baseUrl}${req.path}`;
      const fault = this.#faults.find((f) => matchRoute(f.pattern, req.method, path));
      if (fault === undefined) return next();
      fault.remaining--;
      if (fault.remaining <= 0) this.#faults = this.#faults.filter((f) => f !== fault);
      const apply = (): void => this.#apply(fault.spec, req, res, next);
      const delayMs = fault.spec.delayMs;
      if (delayMs === undefined || delayMs === 0) return apply();
      // Read the body before waiting, so processing continues after the delay even if the
      // client gave up meanwhile, as on a slow server that already received the request.
      void prebufferBody(req).then(() => {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          apply();
        }, delayMs);
        this.#timers.add(timer);
      });
    };
  }

  #apply(spec: FaultSpec, req: Request, res: Response, next: NextFunction): void {
    if (spec.drop === 'before') {
      req.socket.destroy();
      return;
    }
    if (spec.status !== undefined) {
      const code = spec.code ?? DEFAULT_CODE[spec.status] ?? 'internal_error';
      if (spec.retryAfterSeconds !== undefined)
        res.set('Retry-After', String(spec.retryAfterSeconds));
      res.status(spec.status).json({
        code,
        message: spec.message ?? `Injected fault: ${code}.`,
        ...(spec.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: spec.retryAfterSeconds }),
      });
      return;
    }
    if (spec.drop === 'after') {
      // Let the route process the request, then drop the connection instead of answering.
      res.end = ((): Response => {
        req.socket.destroy();
        return res;
      }) as Response['end'];
    }
    next();
  }
}
