import { Router, type Request, type Response } from 'express';
import type { SandboxContext } from './context.js';
import { guard, identityOf } from './guard.js';
import { pageAfter, parseListQuery } from './pagination.js';
import { problem, sendProblem } from './problem.js';
import { toConversation, toMessage } from './projection.js';

const CHUNK = 16 * 1024;

/** GET routes of spec 4.1–4.4, scoped to the key's number. */
export function readRoutes(ctx: SandboxContext): Router {
  const router = Router();

  router.get('/conversations', (req, res) => {
    const caller = guard(ctx, req, res, 'messages:read', 'read');
    if (caller === undefined) return;
    const list = `conversations:${caller.numberId}`;
    const query = parseListQuery(queryOf(req), 'after', list, ctx.cursors);
    if (query.status === 'error') return sendProblem(res, query.problem);
    const all = ctx.state.listConversations(caller.numberId);
    const page = pageAfter(
      all,
      (c) => ({ at: c.lastMessageAt, seq: c.seq }),
      query.position,
      query.limit,
      list,
      ctx.cursors,
    );
    res.json({
      items: page.items.map((c) => toConversation(c, ctx.state)),
      nextCursor: page.nextCursor,
    });
  });

  router.get('/conversations/:conversationId/messages', (req, res) => {
    const caller = guard(ctx, req, res, 'messages:read', 'read');
    if (caller === undefined) return;
    const conversation = ctx.state.conversations.get(req.params.conversationId);
    if (conversation === undefined || conversation.numberId !== caller.numberId) {
      return sendProblem(
        res,
        problem('conversation_not_found', 'No such conversation for this number.'),
      );
    }
    const list = `history:${conversation.id}`;
    const query = parseListQuery(queryOf(req), 'before', list, ctx.cursors);
    if (query.status === 'error') return sendProblem(res, query.problem);
    const all = ctx.state.history(conversation.id);
    const page = pageAfter(
      all,
      (m) => ({ at: m.occurredAt, seq: m.seq }),
      query.position,
      query.limit,
      list,
      ctx.cursors,
    );
    res.json({
      items: page.items.map((m) => toMessage(m, ctx.state)),
      nextCursor: page.nextCursor,
    });
  });

  router.get('/messages/:messageId', (req, res) => {
    const caller = guard(ctx, req, res, 'messages:read', 'read');
    if (caller === undefined) return;
    const message = ctx.state.messages.get(req.params.messageId);
    if (message === undefined || message.numberId !== caller.numberId) {
      return sendProblem(res, problem('message_not_found', 'No such message for this number.'));
    }
    res.json({ message: toMessage(message, ctx.state) });
  });

  router.get('/media/:mediaId', (req, res) => {
    const caller = guard(ctx, req, res, 'media:read', 'read');
    if (caller === undefined) return;
    const media = ctx.state.media.get(req.params.mediaId);
    if (media === undefined || media.numberId !== caller.numberId) {
      return sendProblem(res, problem('media_not_found', 'No such media for this number.'));
    }
    if (media.availability !== 'ready') {
      return sendProblem(
        res,
        problem('media_not_found', `The media is ${media.availability}, not ready for download.`, {
          availability: media.availability,
        }),
      );
    }
    const id = identityOf(ctx, caller);
    const slot = ctx.mediaStreams.acquire([`key:${id.keyId}`, `number:${id.numberId}`]);
    if (slot === undefined) {
      return sendProblem(
        res,
        problem(
          'media_concurrency_exceeded',
          'Too many active media streams for this key or number (8); finish or cancel one first.',
        ),
      );
    }
    const held = ctx.mediaStreams.catchDownload(media.id);
    // The slot is freed when the response ends or its client goes away, held or not.
    res.on('close', () => {
      slot.release();
      held?.cancel();
    });
    res.status(200).set({
      'Content-Type': media.mimeType,
      'Content-Disposition': `attachment; filename="${media.filename.replace(/["\\\r\n]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
      'Content-Length': String(media.bytes.length),
    });
    void stream(res, media.bytes, held?.released);
  });

  return router;
}

/**
 * Streams the bytes in chunks. A held download sends its headers, then waits before
 * the first body byte: the client sees an open stream, and its connection carries
 * nothing else meanwhile.
 */
async function stream(
  res: Response,
  bytes: Buffer,
  held: Promise<void> | undefined,
): Promise<void> {
  if (held !== undefined) {
    res.flushHeaders();
    await held;
  }
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    if (res.destroyed) return;
    res.write(bytes.subarray(offset, offset + CHUNK));
  }
  if (!res.destroyed) res.end();
}

/** The query as plain data (express 5 parses it with the "simple" parser). */
function queryOf(req: Request): Record<string, unknown> {
  const query: Record<string, unknown> = req.query;
  return { ...query };
}
