import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { RawCallbackRequest, RawCallbackResponse } from '../engine/types.js';
import { DEFAULT_CALLBACK_BODY_BYTES } from './callback-core.js';
import { readRawBody } from './read-raw-body.js';

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
  const answer = async (req: Request, res: Response): Promise<void> => {
    // Read here, not by express.raw: the same answers (413, 415, 400) without its layers.
    const body = await readRawBody(req, limit);
    const result = await handle({ body, headers: req.headers });
    // Written directly: the acknowledgement is the hot path, and express's `res.json`
    // (ETag hashing, content-type negotiation) adds nothing to a small JSON envelope.
    const json = JSON.stringify(result.body);
    res.writeHead(result.status, {
      ...result.headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(json),
    });
    res.end(json);
  };
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
    answer(req, res).catch(next);
  });
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const status =
      typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number'
        ? err.status
        : 400;
    const answer =
      status === 413
        ? { status, code: 'payload_too_large', message: `callback body is over ${limit} bytes` }
        : status === 415
          ? {
              status,
              code: 'unsupported_encoding',
              message: 'compressed callbacks are not accepted; send the body uncompressed',
            }
          : {
              status: status >= 400 && status < 500 ? status : 400,
              code: 'invalid_callback',
              message: 'the callback body could not be read',
            };
    res.status(answer.status).json({ code: answer.code, message: answer.message });
  });
  return router;
}
