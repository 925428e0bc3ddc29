import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { OutboundStatus } from '../api/resources.js';
import { CallbackConfigSchema, ContactState, NumberConfigSchema, Quality } from './config.js';
import type { SandboxContext } from './context.js';
import { FaultSpec } from './faults.js';
import { InboundSpec } from './inbound.js';
import { RESET_SCOPES, SandboxControlError, type SandboxControl } from './control.js';
import { provisioningRouter } from './provisioning-router.js';
import { problem, sendProblem } from './problem.js';

const AdvanceBody = z.strictObject({
  by: z.union([z.string().min(1).max(64), z.number().nonnegative()]),
});
const StatusBody = z.strictObject({
  status: OutboundStatus,
  failureCode: z.string().min(1).optional(),
});
const ContactBody = z.strictObject({ state: ContactState });
const QualityBody = z.strictObject({
  quality: Quality,
  number: z.string().optional(),
  template: z.string().optional(),
});
const NumberBody = NumberConfigSchema.pick({ handling: true, connected: true, quality: true })
  .partial()
  .strict();
const HoldBody = z.strictObject({ held: z.boolean() });
const ResetBody = z.strictObject({
  scope: z.enum(RESET_SCOPES).default('all'),
});

/**
 * The control API under `/sandbox` (see docs/sandbox-control.md). Never reachable with an API key:
 * any request carrying an Authorization header answers 403 api_key_not_allowed.
 */
export function controlRouter(ctx: SandboxContext, control: SandboxControl): Router {
  const router = Router();
  router.use((req, res, next) => {
    if (req.get('authorization') !== undefined) {
      return sendProblem(
        res,
        problem(
          'api_key_not_allowed',
          'Control routes are not API-key routes; call them without Authorization.',
        ),
      );
    }
    ctx.runDue();
    next();
  });
  router.use(express.json({ limit: '1mb' }));

  const body = <T extends z.ZodType>(schema: T, req: Request): z.output<T> => {
    const parsed = schema.safeParse(req.body ?? {});
    if (!parsed.success) {
      throw new SandboxControlError(
        'invalid_request',
        parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; '),
      );
    }
    return parsed.data;
  };

  router.post('/inbound', (req, res) => {
    res.status(201).json({ message: control.injectInbound(body(InboundSpec, req)) });
  });
  router.get('/conversations', (_req, res) => {
    res.json({ items: control.conversations() });
  });
  router.post('/conversations/:id/take-over', (req, res) => {
    res.json({ conversation: control.takeOver(req.params.id) });
  });
  router.post('/conversations/:id/release', (req, res) => {
    res.json({ conversation: control.release(req.params.id) });
  });
  router.get('/clock', (_req, res) => {
    res.json({ now: new Date(ctx.clock.now()).toISOString() });
  });
  router.post('/clock/advance', (req, res) => {
    const { by } = body(AdvanceBody, req);
    res.json({ now: new Date(control.advance(by)).toISOString() });
  });
  router.post('/messages/:id/status', (req, res) => {
    const { status, failureCode } = body(StatusBody, req);
    res.json({ message: control.setStatus(req.params.id, status, failureCode) });
  });
  router.get('/faults', (_req, res) => {
    res.json({ items: ctx.faults.list() });
  });
  router.post('/faults', (req, res) => {
    control.addFault(body(FaultSpec, req));
    res.status(201).json({ items: ctx.faults.list() });
  });
  router.delete('/faults', (_req, res) => {
    control.clearFaults();
    res.json({ items: [] });
  });
  router.get('/sent', (_req, res) => {
    res.json({ items: control.sent() });
  });
  router.post('/contacts/:phone', (req, res) => {
    const { state } = body(ContactBody, req);
    control.setContactState(req.params.phone, state);
    res.json({ phoneNumber: req.params.phone, state });
  });
  router.post('/quality', (req, res) => {
    const b = body(QualityBody, req);
    control.setQuality(b.quality, {
      ...(b.number === undefined ? {} : { number: b.number }),
      ...(b.template === undefined ? {} : { template: b.template }),
    });
    res.json({ ok: true });
  });
  router.post('/numbers/:id', (req, res) => {
    const change = body(NumberBody, req);
    control.setNumber(
      req.params.id,
      Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)),
    );
    res.json({ number: ctx.config.numbers.find((n) => n.id === req.params.id) });
  });
  router.put('/callback', (req, res) => {
    control.setCallback(body(CallbackConfigSchema, req));
    res.json({
      callback: {
        url: ctx.config.callback?.url,
        duplicateRate: ctx.config.callback?.duplicateRate,
      },
    });
  });
  router.delete('/callback', (_req, res) => {
    control.setCallback(undefined);
    res.json({ callback: null });
  });
  router.get('/callbacks', (_req, res) => {
    res.json({ items: control.callbackAttempts() });
  });
  router.post('/media/hold', (req, res) => {
    const { held } = body(HoldBody, req);
    control.holdMediaStreams(held);
    res.json({ held });
  });
  router.post('/run-due', (_req, res) => {
    res.json({ applied: control.runDue() });
  });
  router.post('/reset', (req, res) => {
    const { scope } = body(ResetBody, req);
    control.reset(scope);
    res.json({ ok: true, scope });
  });
  router.get('/config', (_req, res) => {
    res.json(ctx.config);
  });
  router.use(provisioningRouter(control));

  router.use((_req: Request, res: Response) => {
    res
      .status(404)
      .json({ code: 'not_found', message: 'No such control route; see docs/sandbox-control.md.' });
  });
  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (error instanceof SandboxControlError) {
      const status = { not_found: 404, invalid_request: 400, conflict: 409 }[error.code];
      res.status(status).json({ code: error.code, message: error.message });
      return;
    }
    const status = (error as { status?: unknown } | undefined)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Body parser and path decoding failures (bad JSON, encoding, charset, escapes).
      res.status(400).json({
        code: 'invalid_request',
        message: `The request cannot be read: ${error instanceof Error ? error.message : 'bad request'}.`,
      });
      return;
    }
    next(error);
  });
  return router;
}
