import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { RawCallbackRequest, RawCallbackResponse } from '../engine/types.js';
import { DEFAULT_CALLBACK_BODY_BYTES } from './callback-core.js';
import {
  callbackPostListener,
  unreadableAnswer,
  type CallbackPostListener,
} from './callback-listener.js';

/** The framework-free `POST` answer of each router made here (see {@link postListenerOf}). */
const postListeners = new WeakMap<Router, CallbackPostListener>();

/**
 * The express adapter of the callback endpoint: reads the raw body (size-capped while it
 * is read, any content type, never decompressed, so the signature is checked over the
 * exact bytes as sent) on `POST /` and hands it to the framework-free core. Other methods
 * answer 405; body-reading failures answer with the error envelope, never an HTML page.
 * @example
 * app.use('/callbacks', bot.callbackRouter());
 */
export function expressCallbackRouter(
  handle: (request: RawCallbackRequest) => Promise<RawCallbackResponse>,
  options: { maxBodyBytes?: number } = {},
): Router {
  const router = express.Router();
  const limit = options.maxBodyBytes ?? DEFAULT_CALLBACK_BODY_BYTES;
  // Read by the listener, not by express.raw: the same answers (413, 415, 400) without its
  // layers; the acknowledgement is written directly (no ETag hashing of a small envelope).
  const post = callbackPostListener(handle, { maxBodyBytes: limit });
  postListeners.set(router, post);
  // One middleware for the endpoint instead of a route per method: no route matching on
  // the hot path. Other paths under the mount point fall through.
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/') {
      next();
      return;
    }
    if (req.method !== 'POST') {
      res
        .status(405)
        .set('Allow', 'POST')
        .json({ code: 'method_not_allowed', message: `${req.method} is not allowed; use POST` });
      return;
    }
    post(req, res).catch(next);
  });
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const answer = unreadableAnswer(err, limit);
    res.status(answer.status).json({ code: answer.code, message: answer.message });
  });
  return router;
}

/**
 * The `POST` answer of a router made by {@link expressCallbackRouter}, to serve the
 * endpoint without express on a hot path (`switchboard run`); undefined for other routers.
 */
export function postListenerOf(router: Router): CallbackPostListener | undefined {
  return postListeners.get(router);
}
