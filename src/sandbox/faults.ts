import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';

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
  /** `METHOD /path` with `:param` segments, e.g. `POST /v1/messages`, `GET /v1/media/:id`; `*` for every API route. */
  route: z
    .string()
    .regex(/^(\*|(GET|POST) \/v1\/\S*)$/, { error: 'route must be "*" or "<GET|POST> /v1/..."' }),
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
  readonly pattern: RegExp | undefined;
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
    const pattern =
      spec.route === '*'
        ? undefined
        : new RegExp(
            `^${spec.route.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]\w*/g, '[^/]+')}/?$`,
          );
    this.#faults.push({ spec, pattern, remaining: spec.count });
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
      const target = `${req.method} ${req.baseUrl}${req.path}`;
      const fault = this.#faults.find((f) => f.pattern === undefined || f.pattern.test(target));
      if (fault === undefined) return next();
      fault.remaining--;
      if (fault.remaining <= 0) this.#faults = this.#faults.filter((f) => f !== fault);
      const apply = (): void => this.#apply(fault.spec, req, res, next);
      const delayMs = fault.spec.delayMs;
      if (delayMs === undefined || delayMs === 0) return apply();
      // Read the body before waiting, so processing continues after the delay even if the
      // client gave up meanwhile, as on a slow server that already received the request.
      void readJsonBody(req).then((body) => {
        req.body = body;
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

const MAX_BUFFERED_BYTES = 1_048_576;

/** Reads a request body and parses it as JSON; undefined when empty, too large or malformed. */
async function readJsonBody(req: Request): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      size += buffer.length;
      if (size > MAX_BUFFERED_BYTES) return undefined;
      chunks.push(buffer);
    }
  } catch {
    // The client aborted before sending the whole body: there is nothing to process.
    return undefined;
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    // Malformed JSON: left undefined so the route's validation answers invalid_message.
    return undefined;
  }
}
