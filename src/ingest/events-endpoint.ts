import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { ExternalEventResult } from '../engine/external-events.js';
import type { Bot } from '../engine/types.js';
import { BotConfigError } from '../engine/types.js';
import type { Logger } from '../log/logger.js';

/** Largest accepted body of `POST /events`, bytes. */
export const EVENTS_BODY_BYTES = 64 * 1024;

const E164 = z
  .string()
  .regex(/^\+[1-9]\d{7,14}$/, { error: 'must be an E.164 number like +15551234567' });
const Scalars = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
const Name = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, {
  error: 'must start with a letter and contain only letters, digits, "_" or "-" (at most 64)',
});

/** The body of `POST /events`: a named event for a contact, or the start of a flow. */
export const EventRequestSchema = z
  .strictObject({
    id: z.string().min(1).max(200).describe('The caller’s event id: the same id is applied once.'),
    contact: z.union([
      E164,
      z.strictObject({
        phone: E164,
        conversationId: z.string().min(1).optional(),
        name: z.string().optional(),
      }),
    ]),
    event: Name.optional().describe('The event name a flow handles with `on.<name>`.'),
    data: Scalars.optional().describe('Event data: JSON scalars, stored by `on.<name>.vars`.'),
    start: z
      .strictObject({ flow: z.string().min(1), vars: Scalars.optional() })
      .optional()
      .describe('Start this flow for the contact instead.'),
  })
  .superRefine((body, ctx) => {
    if ((body.event === undefined) === (body.start === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['event'],
        message: 'give exactly one of event, start',
      });
    if (body.data !== undefined && body.event === undefined)
      ctx.addIssue({ code: 'custom', path: ['data'], message: 'data goes with event' });
  });
export type EventRequest = z.infer<typeof EventRequestSchema>;

/** The answer of the events endpoint. */
export interface EventsResponse {
  readonly status: number;
  readonly body:
    | ExternalEventResult
    | {
        readonly code: string;
        readonly message: string;
        readonly issues?: readonly { path: string; message: string }[];
      };
}

/**
 * The framework-free core of `POST /events`: bearer token (compared in constant time,
 * never logged), JSON body validated with zod (errors name the field path), then
 * `bot.notify` / `bot.start` with the caller's event id, so a retried post is applied once.
 * 202 `{ status: 'accepted', eventId, conversationId }`, 200 for a duplicate.
 */
export function createEventsHandler(options: {
  readonly bot: Pick<Bot, 'notify' | 'start'>;
  readonly token: string;
  readonly logger: Logger;
}): (request: { body: Buffer; authorization: string | undefined }) => Promise<EventsResponse> {
  const expected = digest(options.token);
  return async ({ body, authorization }) => {
    const given = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected))
      return {
        status: 401,
        body: { code: 'unauthorized', message: 'send Authorization: Bearer <EVENTS_TOKEN>' },
      };
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      // Not JSON: answered as a client error below.
      return { status: 400, body: { code: 'invalid_json', message: 'the body is not JSON' } };
    }
    const parsed = EventRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({
        path: i.path.map(String).join('.') || '(body)',
        message: i.message,
      }));
      return {
        status: 400,
        body: {
          code: 'invalid_event',
          message: issues.map((i) => `${i.path}: ${i.message}`).join('; '),
          issues,
        },
      };
    }
    const req = parsed.data;
    const contact =
      typeof req.contact === 'string'
        ? req.contact
        : {
            phone: req.contact.phone,
            ...(req.contact.conversationId === undefined
              ? {}
              : { conversationId: req.contact.conversationId }),
            ...(req.contact.name === undefined ? {} : { name: req.contact.name }),
          };
    try {
      const result =
        req.start !== undefined
          ? await options.bot.start(contact, req.start.flow, req.start.vars ?? {}, { id: req.id })
          : await options.bot.notify(contact, req.event ?? '', req.data ?? {}, { id: req.id });
      return { status: result.status === 'accepted' ? 202 : 200, body: result };
    } catch (error) {
      if (error instanceof BotConfigError)
        return {
          status: 400,
          body: {
            code: 'invalid_event',
            message: error.message,
            issues: [{ path: 'start.flow', message: error.message }],
          },
        };
      options.logger.error('an event could not be enqueued', {
        eventId: req.id,
        error: error instanceof Error ? error.message : String(error),
      });
      return {
        status: 503,
        body: {
          code: 'unavailable',
          message: 'the event could not be stored; retry with the same id',
        },
      };
    }
  };
}

/**
 * The express router of `POST /events` (mounted at `/events` by `switchboard run` when
 * `EVENTS_TOKEN` is set).
 * @example
 * app.use('/events', eventsRouter({ bot, token: process.env.EVENTS_TOKEN, logger }));
 */
export function eventsRouter(options: Parameters<typeof createEventsHandler>[0]): Router {
  const handle = createEventsHandler(options);
  const router = express.Router();
  router.post(
    '/',
    express.raw({ type: () => true, limit: EVENTS_BODY_BYTES }),
    async (req: Request, res: Response) => {
      const body: unknown = req.body;
      const result = await handle({
        body: Buffer.isBuffer(body) ? body : Buffer.alloc(0),
        authorization: req.headers.authorization,
      });
      if (result.status === 401) res.set('WWW-Authenticate', 'Bearer');
      res.status(result.status).json(result.body);
    },
  );
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const status =
      typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number'
        ? err.status
        : 400;
    res.status(status === 413 ? 413 : 400).json({
      code: status === 413 ? 'payload_too_large' : 'invalid_json',
      message:
        status === 413 ? `body is over ${EVENTS_BODY_BYTES} bytes` : 'the body could not be read',
    });
  });
  return router;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
