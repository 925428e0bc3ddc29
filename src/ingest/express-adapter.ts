import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { RawCallbackRequest, RawCallbackResponse } from '../engine/types.js';
import { DEFAULT_CALLBACK_BODY_BYTES } from './callback-core.js';

/**
 * The express adapter of the callback endpoint: reads the raw body (size-capped, any
 * content type, so the signature is checked over the exact bytes) on `POST /` and
 * hands it to the framework-free core. Body-reading failures answer with the error
 * envelope, never an HTML page.
 * @example
 * app.use('/callbacks', bot.callbackRouter());
 */
export function expressCallbackRouter(
  handle: (request: RawCallbackRequest) => Promise<RawCallbackResponse>,
  options: { maxBodyBytes?: number } = {},
): Router {
  const router = express.Router();
  const limit = options.maxBodyBytes ?? DEFAULT_CALLBACK_BODY_BYTES;
  router.post(
    '/',
    express.raw({ type: () => true, limit }),
    async (req: Request, res: Response) => {
      const body: unknown = req.body;
      const result = await handle({
        body: Buffer.isBuffer(body) ? body : Buffer.alloc(0),
        headers: req.headers,
      });
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
    const tooLarge = status === 413;
    res.status(tooLarge ? 413 : status >= 400 && status < 500 ? status : 400).json({
      code: tooLarge ? 'payload_too_large' : 'invalid_callback',
      message: tooLarge
        ? `callback body is over ${limit} bytes`
        : 'the callback body could not be read',
    });
  });
  return router;
}
