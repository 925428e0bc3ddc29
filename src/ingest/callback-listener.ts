import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RawCallbackRequest, RawCallbackResponse } from '../engine/types.js';
import { DEFAULT_CALLBACK_BODY_BYTES } from './callback-core.js';
import { readRawBody } from './read-raw-body.js';

/**
 * Answers one `POST` of the callback endpoint on Node's own request and response: no
 * framework. Rejects only when the answer could not be written (its headers were sent).
 */
export type CallbackPostListener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The error envelope of a request whose body could not be read (or handled), by status. */
export function unreadableAnswer(
  error: unknown,
  limit: number,
): { readonly status: number; readonly code: string; readonly message: string } {
  const status =
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    typeof error.status === 'number'
      ? error.status
      : 400;
  if (status === 413)
    return { status, code: 'payload_too_large', message: `callback body is over ${limit} bytes` };
  if (status === 415)
    return {
      status,
      code: 'unsupported_encoding',
      message: 'compressed callbacks are not accepted; send the body uncompressed',
    };
  return {
    status: status >= 400 && status < 500 ? status : 400,
    code: 'invalid_callback',
    message: 'the callback body could not be read',
  };
}

/** Writes a JSON answer in one go (no ETag, no content negotiation: a small envelope). */
export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Readonly<Record<string, string>>,
): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}

/**
 * The `POST` answer of the callback endpoint on a plain Node request: reads the raw body
 * (size-capped, never decompressed; see {@link readRawBody}), hands it to the
 * framework-free core, writes its answer. A body that cannot be read answers 413, 415 or
 * 400 with the error envelope. Used by the express router and, without express, by the
 * server of `switchboard run`.
 * @example
 * const post = callbackPostListener((request) => bot.handleCallback(request));
 * createServer((req, res) => void post(req, res));
 */
export function callbackPostListener(
  handle: (request: RawCallbackRequest) => Promise<RawCallbackResponse>,
  options: { maxBodyBytes?: number } = {},
): CallbackPostListener {
  const limit = options.maxBodyBytes ?? DEFAULT_CALLBACK_BODY_BYTES;
  return async (req, res) => {
    let result: RawCallbackResponse;
    try {
      const body = await readRawBody(req, limit);
      result = await handle({ body, headers: req.headers });
    } catch (error) {
      if (res.headersSent) throw error;
      const answer = unreadableAnswer(error, limit);
      writeJson(res, answer.status, { code: answer.code, message: answer.message });
      return;
    }
    writeJson(res, result.status, result.body, result.headers);
  };
}
