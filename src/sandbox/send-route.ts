import { randomUUID } from 'node:crypto';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { MESSAGING_PRODUCT } from '../api/resources.js';
import { LIMITS } from '../core/limits.js';
import { validateSendRequest } from '../messages/index.js';
import type { Caller } from './auth.js';
import { admit } from './admission.js';
import type { SandboxContext } from './context.js';
import { planDelivery } from './delivery.js';
import { guard } from './guard.js';
import type { MessageRecord } from './model.js';
import { problem, sendProblem } from './problem.js';
import { newId } from './state.js';

/** Bodies above this are refused by the parser; smaller ones reach the validator, which names the 262,144-byte limit. */
const PARSER_LIMIT_BYTES = 1_048_576;

/** POST /v1/messages (spec 4.5): authenticate, validate, admit, queue. */
export function sendRoute(ctx: SandboxContext): Router {
  const router = Router();
  const json = express.json({ limit: PARSER_LIMIT_BYTES, type: () => true });
  // Authentication runs before the body is parsed; its result is kept per request here.
  const callers = new WeakMap<Request, Caller>();

  router.post(
    '/messages',
    (req, res, next) => {
      const caller = guard(ctx, req, res, 'messages:send', 'send');
      if (caller === undefined) return;
      callers.set(req, caller);
      next();
    },
    json,
    (req, res) => {
      const caller = callers.get(req);
      if (caller === undefined)
        throw new Error('send route reached without an authenticated caller');
      const requestId = randomUUID();
      res.set('X-Service-Request-Id', requestId);
      const validation = validateSendRequest(req.body);
      if (validation.status === 'invalid') {
        const text = validation.issues
          .map((i) => (i.path === '' ? i.message : `${i.path}: ${i.message}`))
          .join('; ');
        return sendProblem(res, problem('invalid_message', text, { issues: validation.issues }));
      }
      const request = validation.value;
      const now = ctx.clock.now();
      const admission = admit(ctx.config, ctx.state, caller.number, request, now);
      if (admission.status === 'rejected') return sendProblem(res, admission.problem);

      const conversation = ctx.state.conversation(caller.numberId, request.to, now);
      const { messaging_product: _p, to: _to, recipient_type: _r, type, ...content } = request;
      const message: MessageRecord = {
        id: newId('msg'),
        seq: ctx.state.nextSeq(),
        numberId: caller.numberId,
        conversationId: conversation.id,
        contactId: admission.contact.id,
        direction: 'outbound',
        status: 'queued',
        failureCode: undefined,
        type,
        occurredAt: now,
        content,
        mediaId: undefined,
        plan: planDelivery(ctx.config, admission.contact, now),
      };
      ctx.state.addMessage(message);
      ctx.state.sentLog.push({
        messageId: message.id,
        conversationId: conversation.id,
        numberId: caller.numberId,
        keyIndex: caller.keyIndex,
        requestId,
        acceptedAt: new Date(now).toISOString(),
        to: request.to,
        type,
        request: { ...request },
      });
      res
        .status(202)
        .json({ messaging_product: MESSAGING_PRODUCT, messageId: message.id, status: 'queued' });
    },
  );

  // Body parser failures: always the JSON envelope, never an HTML page.
  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (error as { type?: unknown } | undefined)?.type;
    if (type === 'entity.too.large') {
      return sendProblem(
        res,
        problem(
          'invalid_message',
          `Request body exceeds ${LIMITS.requestBodyBytes} bytes (spec 4.5 rule 2).`,
          {
            limit: LIMITS.requestBodyBytes,
          },
        ),
      );
    }
    if (
      type === 'entity.parse.failed' ||
      type === 'encoding.unsupported' ||
      type === 'charset.unsupported'
    ) {
      return sendProblem(res, problem('invalid_message', 'Request body is not valid JSON.'));
    }
    next(error);
  });
  return router;
}
