import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { MESSAGING_PRODUCT } from '../api/resources.js';
import { validateSendRequest } from '../messages/index.js';
import { admit } from './admission.js';
import type { SandboxContext } from './context.js';
import { planDelivery } from './delivery.js';
import { guard } from './guard.js';
import type { MessageRecord } from './model.js';
import { problem, sendProblem } from './problem.js';
import { readJsonBody } from './request-body.js';
import { newId } from './state.js';

/** POST /v1/messages (spec 4.5): authenticate, validate, admit, queue. */
export function sendRoute(ctx: SandboxContext): Router {
  const router = Router();

  router.post('/messages', async (req, res) => {
    // Authentication runs before the body is read: a refused caller costs no parsing.
    const caller = guard(ctx, req, res, 'messages:send', 'send');
    if (caller === undefined) return;
    const requestId = randomUUID();
    res.set('X-Service-Request-Id', requestId);
    const body = await readJsonBody(req);
    if (body.status === 'error') return sendProblem(res, body.problem);
    const validation = validateSendRequest(body.value);
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
  });

  return router;
}
