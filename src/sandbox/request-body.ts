import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Request } from 'express';
import { LIMITS } from '../core/limits.js';
import { problem, type Problem } from './problem.js';

/** Outcome of {@link readJsonBody}: the parsed JSON (undefined when empty) or the error answer. */
export type BodyResult =
  | { readonly status: 'ok'; readonly value: unknown }
  | { readonly status: 'error'; readonly problem: Problem };

/** Raw bytes of a body read early (a delayed fault), replayed by {@link readJsonBody}. */
const prebuffered = new WeakMap<Request, Buffer | 'too-large'>();

/** Cap of an early read: far above the limit, so an oversized body is still recognised as such. */
const PREBUFFER_CAP = 8 * LIMITS.requestBodyBytes;

/**
 * Reads the raw body now and keeps it for {@link readJsonBody}: a delayed fault waits
 * with the request already received, as a slow server does.
 */
export async function prebufferBody(req: Request): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      size += buffer.length;
      if (size <= PREBUFFER_CAP) chunks.push(buffer);
    }
  } catch {
    // The client aborted before sending the whole body: what arrived is all there is.
  }
  prebuffered.set(req, size > PREBUFFER_CAP ? 'too-large' : Buffer.concat(chunks));
}

const invalid = (message: string, details?: Record<string, unknown>): BodyResult => ({
  status: 'error',
  problem: problem('invalid_message', message, details),
});

const tooLarge = (what: string): BodyResult =>
  invalid(
    `Request body ${what} exceeds ${LIMITS.requestBodyBytes} bytes (spec 4.5 rule 2, part 8); send less content.`,
    { limit: LIMITS.requestBodyBytes },
  );

/**
 * Reads a JSON request body with the limit of spec 4.5 rule 2 applied to the bytes as
 * received (whitespace counts) and, for a compressed body, to the decoded bytes too.
 * Every failure is a 400 `invalid_message` envelope: a body over the limit (refused from
 * its Content-Length before reading), an unsupported `Content-Encoding` or charset,
 * bytes that do not decode, text that is not UTF-8, JSON that does not parse.
 */
export async function readJsonBody(
  req: Request,
  limit: number = LIMITS.requestBodyBytes,
): Promise<BodyResult> {
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const charset = charsetOf(req.get('content-type'));
  const early = prebuffered.get(req);
  let result: BodyResult | undefined;
  if (!['identity', 'gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) {
    result = invalid(
      `Unsupported Content-Encoding "${encoding}"; send identity, gzip, deflate or br.`,
      { contentEncoding: encoding },
    );
  } else if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    result = invalid(`Unsupported charset "${charset}"; JSON bodies are UTF-8.`, { charset });
  } else if (early === 'too-large' || declaredLength(req) > limit) {
    result = tooLarge('as received');
  }
  if (result !== undefined) {
    if (early === undefined) await drain(req);
    return result;
  }
  const source = early === undefined ? req : Readable.from([early]);
  const read = await readDecoded(source, encoding, limit);
  if (early === undefined && read.status !== 'ok') await drain(req);
  if (read.status === 'too-large') return tooLarge(read.what);
  if (read.status === 'undecodable') {
    return invalid(`Request body is not valid ${encoding} data: ${read.reason}.`, {
      contentEncoding: encoding,
    });
  }
  if (read.bytes.length === 0) return { status: 'ok', value: undefined };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    // A fatal TextDecoder throws exactly when the bytes are not UTF-8.
    return invalid('Request body is not valid UTF-8.');
  }
  try {
    return { status: 'ok', value: JSON.parse(text) as unknown };
  } catch (error) {
    return invalid(`Request body is not valid JSON: ${(error as Error).message}.`);
  }
}

type Decoded =
  | { readonly status: 'ok'; readonly bytes: Buffer }
  | { readonly status: 'too-large'; readonly what: string }
  | { readonly status: 'undecodable'; readonly reason: string };

async function readDecoded(source: Readable, encoding: string, limit: number): Promise<Decoded> {
  const decoder = decoderFor(encoding);
  // Bytes as received; without a decoder they are the bytes read below.
  let received = 0;
  if (decoder !== undefined) {
    source.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
  }
  if (decoder !== undefined) {
    // pipe() does not carry the source's failure to the decoder: an aborted upload would hang.
    source.once('error', (error) => decoder.destroy(error));
    source.once('close', () => {
      if (!source.readableEnded) decoder.destroy(new Error('the request was aborted'));
    });
  }
  const stream = decoder === undefined ? source : source.pipe(decoder);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // destroyOnReturn false: leaving early must not destroy the request (its socket answers).
    for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (decoder === undefined) received = size;
      if (received > limit) return { status: 'too-large', what: 'as received' };
      if (size > limit) return { status: 'too-large', what: 'once decoded' };
      chunks.push(buffer);
    }
  } catch (error) {
    if (decoder === undefined) return { status: 'undecodable', reason: 'the request was aborted' };
    return { status: 'undecodable', reason: (error as Error).message };
  } finally {
    if (decoder !== undefined) {
      source.unpipe(decoder);
      decoder.destroy();
    }
  }
  if (received > limit) return { status: 'too-large', what: 'as received' };
  return { status: 'ok', bytes: Buffer.concat(chunks) };
}

function decoderFor(encoding: string) {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

function declaredLength(req: Request): number {
  const header = req.get('content-length');
  if (header === undefined || !/^\d+$/.test(header)) return 0;
  return Number(header);
}

function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase();
}

/** Reads and discards the rest of the request, so the answer reaches the client intact. */
function drain(req: Request): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.on('end', resolve);
    req.on('close', resolve);
    req.on('error', resolve);
    req.resume();
  });
}
