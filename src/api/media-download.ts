import { Readable } from 'node:stream';
import type { ResponseHeaders } from './http.js';
import type { Slot } from './limiter.js';

/**
 * An attachment being streamed (spec 4.4). It holds one media stream slot (spec part 8)
 * until the stream ends, closes or fails, or `release()` is called.
 */
export interface MediaDownload {
  /** The raw bytes. Consume it, or call `release()` to drop it. */
  readonly stream: Readable;
  readonly contentType: string;
  /** From `Content-Disposition`, when given. */
  readonly filename?: string;
  readonly contentLength?: number;
  /** Stops the stream if still open and frees the slot. Safe to call more than once. */
  release(): Promise<void>;
}

/** @internal Wraps a 200 media response; the slots are freed exactly once. */
export function mediaDownload(
  body: ReadableStream<Uint8Array>,
  headers: ResponseHeaders,
  slots: readonly Slot[],
): MediaDownload {
  const stream = Readable.fromWeb(body);
  let released: Promise<void> | undefined;
  const freeSlots = (): Promise<void> => {
    released ??= Promise.all(slots.map((s) => s.release())).then(() => undefined);
    return released;
  };
  const onDone = (): void => void freeSlots();
  stream.once('end', onDone);
  stream.once('close', onDone);
  stream.once('error', onDone);

  const download: {
    stream: Readable;
    contentType: string;
    filename?: string;
    contentLength?: number;
    release(): Promise<void>;
  } = {
    stream,
    contentType: headers.get('content-type') ?? 'application/octet-stream',
    release: () => {
      if (!stream.destroyed) stream.destroy();
      return freeSlots();
    },
  };
  const filename = filenameOf(headers.get('content-disposition'));
  if (filename !== undefined) download.filename = filename;
  const length = Number(headers.get('content-length') ?? Number.NaN);
  if (Number.isSafeInteger(length) && length >= 0) download.contentLength = length;
  return download;
}

/** The file name of a `Content-Disposition` header (`filename*` preferred over `filename`). */
export function filenameOf(disposition: string | null): string | undefined {
  if (disposition === null) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (extended?.[2] !== undefined) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // A malformed extended value: fall back to the plain parameter below.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(disposition);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  const token = /filename\s*=\s*([^;\s]+)/i.exec(disposition);
  return token?.[1];
}
