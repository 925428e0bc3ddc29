import type { IncomingMessage } from 'node:http';

/** Why a body could not be read, as an HTTP status (413, 415 or 400) and a reason. */
export class RawBodyError extends Error {
  override readonly name = 'RawBodyError';
  constructor(
    readonly status: 413 | 415 | 400,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads a request's raw bytes for the callback endpoint: any content type, never
 * decompressed (a `Content-Encoding` other than `identity` is a 415 before anything is
 * read), capped at `limit` bytes from the declared `Content-Length` and while reading (413),
 * a short or aborted body is a 400. On an error the rest of the request is read off and
 * dropped before the promise rejects, so the answer goes out on a clean connection.
 *
 * The same answers as express's `raw({ inflate: false, limit })` without its middleware
 * layers (type matching, charset and encoding streams), which every status callback paid.
 * @example
 * const body = await readRawBody(req, 1024 * 1024);
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity')
    return dumpThen(req, new RawBodyError(415, `unsupported content encoding "${encoding}"`));
  const declared = req.headers['content-length'];
  const length = declared === undefined ? undefined : Number(declared);
  if (length !== undefined && length > limit)
    return dumpThen(req, new RawBodyError(413, 'request entity too large'));
  // Read already (a body parser mounted before this endpoint): nothing left to sign.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = (error: RawBodyError | undefined): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onError);
      req.off('close', onAborted);
      if (error === undefined) {
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
        return;
      }
      dumpThen(req, error).catch(reject);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) finish(new RawBodyError(413, 'request entity too large'));
      else chunks.push(chunk);
    };
    const onEnd = (): void => {
      if (length !== undefined && Number.isFinite(length) && received !== length)
        finish(new RawBodyError(400, 'request size did not match content length'));
      else finish(undefined);
    };
    const onAborted = (): void => finish(new RawBodyError(400, 'request aborted'));
    const onError = (): void => finish(new RawBodyError(400, 'request could not be read'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onError);
    req.on('close', onAborted);
  });
}

/** Reads off and drops the rest of the request, then rejects with `error`. */
function dumpThen(req: IncomingMessage, error: RawBodyError): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    if (req.complete || req.destroyed) {
      reject(error);
      return;
    }
    const settle = (): void => reject(error);
    req.once('end', settle);
    req.once('close', settle);
    req.resume();
  });
}
