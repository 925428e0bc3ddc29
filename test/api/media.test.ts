import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mediaSlotKeys } from '../../src/api/budgets.js';
import { MediaNotReadyError, MediaSlotError } from '../../src/api/client-errors.js';
import { NotFoundError, isErrorCode } from '../../src/api/errors.js';
import type { MemoryLimiter } from '../../src/api/memory-limiter.js';
import type { MediaDownload } from '../../src/api/media-download.js';
import { Message } from '../../src/api/resources.js';
import { BUDGETS } from '../../src/core/limits.js';
import { API_KEY, makeClient } from './client-fixture.js';
import { json, message, startTestServer, type TestServer } from './test-server.js';

const BYTES = Buffer.from('\x89PNG fake image bytes');

/** How many media slots of the key are free right now (takes and gives them back). */
async function freeSlots(limiter: MemoryLimiter, key: string): Promise<number> {
  const held = [];
  for (let i = 0; i < BUDGETS.mediaStreams; i++) {
    const slot = await limiter.acquireSlot(key, BUDGETS.mediaStreams, 60_000);
    if (slot === undefined) break;
    held.push(slot);
  }
  await Promise.all(held.map((s) => s.release()));
  return held.length;
}

async function readAll(download: MediaDownload): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of download.stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

describe('MessagingClient media', () => {
  let server: TestServer;
  const open: ServerResponse[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  afterEach(() => {
    for (const res of open.splice(0)) res.end();
  });

  it('should stream the bytes with type, file name and length, then free the slot', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, {
        'content-type': 'image/png',
        'content-disposition': 'attachment; filename="x.png"; filename*=UTF-8\'\'a%20b%C3%BC.png',
        'content-length': String(BYTES.length),
        'cache-control': 'private, no-store',
      });
      res.end(BYTES);
    });
    const { client, limiter } = makeClient(server.baseUrl);
    const download = await client.downloadMedia('med/1');
    expect(download.contentType).toBe('image/png');
    expect(download.filename).toBe('a bü.png');
    expect(download.contentLength).toBe(BYTES.length);
    expect(await freeSlots(limiter, mediaSlotKeys(client.identity)[0]!)).toBe(7);
    expect(await readAll(download)).toEqual(BYTES);
    const key = mediaSlotKeys(client.identity)[0]!;
    await expect.poll(() => freeSlots(limiter, key)).toBe(8);
    const req = server.requests[0]!;
    expect(req.url).toBe('/v1/media/med%2F1');
    expect(req.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    expect(req.headers['accept']).not.toBe('application/json');
  });

  it('should refuse the 9th concurrent download until one is released', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write('partial');
      open.push(res);
    });
    const { client } = makeClient(server.baseUrl);
    const downloads = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.downloadMedia(`m${i}`)),
    );
    const refused: unknown = await client.downloadMedia('m9').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MediaSlotError);
    expect(isErrorCode(refused, 'media_concurrency_exceeded')).toBe(true);
    expect(server.requests).toHaveLength(8);
    await downloads[0]!.release();
    expect(downloads[0]!.stream.destroyed).toBe(true);
    const ninth = await client.downloadMedia('m9');
    expect(server.requests).toHaveLength(9);
    await Promise.all([...downloads, ninth].map((d) => d.release()));
  });

  it('should free the slot when the stream fails midway', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '1000' });
      res.write('only a little');
      setImmediate(() => res.destroy());
    });
    const { client, limiter } = makeClient(server.baseUrl);
    const download = await client.downloadMedia('v1');
    await expect(readAll(download)).rejects.toThrow();
    const key = mediaSlotKeys(client.identity)[1]!;
    await expect.poll(() => freeSlots(limiter, key)).toBe(8);
  });

  it('should free the slot when the download fails', async () => {
    server.handle((_req, res) => json(res, 404, { code: 'media_not_found', message: 'x' }));
    const { client, limiter } = makeClient(server.baseUrl);
    for (let i = 0; i < BUDGETS.mediaStreams + 1; i++) {
      await expect(client.downloadMedia('gone')).rejects.toBeInstanceOf(NotFoundError);
    }
    expect(await freeSlots(limiter, mediaSlotKeys(client.identity)[0]!)).toBe(8);
  });

  it('should retry a 429 media_concurrency_exceeded after its hint', async () => {
    let calls = 0;
    server.handle((_req, res) => {
      if (++calls === 1) {
        json(
          res,
          429,
          { code: 'media_concurrency_exceeded', message: 'x' },
          { 'retry-after': '1' },
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'audio/ogg' });
      res.end('ogg');
    });
    const { client, delays } = makeClient(server.baseUrl);
    const download = await client.downloadMedia('a1');
    expect((await readAll(download)).toString()).toBe('ogg');
    expect(delays).toEqual([1_000]);
  });

  describe('downloadMessageMedia', () => {
    const msg = (extra: Record<string, unknown>) =>
      Message.parse(message('m1', { type: 'image', ...extra }));

    it.each([
      ['no_media', {}],
      ['not_ready', { media: { availability: 'pending' } }],
      ['not_ready', { media: { availability: 'unavailable' } }],
      ['no_download_path', { media: { availability: 'ready', id: 'med1' } }],
      [
        'bad_download_path',
        { media: { availability: 'ready' }, downloadPath: 'https://evil.example/x' },
      ],
      ['bad_download_path', { media: { availability: 'ready' }, downloadPath: '/v1/media/a/b' }],
    ])('should refuse (%s) without guessing a URL', async (reason, extra) => {
      const { client } = makeClient(server.baseUrl);
      let err: unknown;
      try {
        await client.downloadMessageMedia(msg(extra));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MediaNotReadyError);
      expect(err).toMatchObject({ reason, code: 'media_not_ready' });
      expect(server.requests).toHaveLength(0);
    });

    it('should download through the given downloadPath verbatim', async () => {
      server.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.end('jpg');
      });
      const { client } = makeClient(server.baseUrl);
      const m = msg({
        media: { availability: 'ready', id: 'med 1', downloadPath: '/v1/media/med%201' },
      });
      const download = await client.downloadMessageMedia(m);
      expect((await readAll(download)).toString()).toBe('jpg');
      expect(server.requests[0]!.url).toBe('/v1/media/med%201');
    });
  });
});
