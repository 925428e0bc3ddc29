import { request } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/api/resources.js';
import { ADA, KEYS, START, startSandbox, textTo, type Harness } from './helpers.js';

const LIMIT = 262_144;

/** A valid send body padded with trailing whitespace to exactly `bytes` bytes. */
function padded(bytes: number): string {
  const json = JSON.stringify(textTo(ADA));
  return json + ' '.repeat(bytes - Buffer.byteLength(json));
}

describe('sandbox request bodies and paths', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox({ rateLimits: false });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.sandbox.control.reset();
    h.clock.set(START + 3_600_000);
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hi' });
  });

  const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEYS.full}`,
        'content-type': 'application/json',
        ...headers,
      },
      body,
    });
  const envelope = async (res: Response) => ErrorEnvelope.parse(await res.json());

  it('should accept a body of exactly 262,144 bytes padded with whitespace', async () => {
    const res = await post(padded(LIMIT));
    expect(res.status).toBe(202);
  });

  it('should refuse a whitespace-padded body of 262,145 bytes and of 1 MiB with invalid_message', async () => {
    for (const size of [LIMIT + 1, 1_048_577]) {
      const res = await post(padded(size));
      expect(res.status, String(size)).toBe(400);
      const body = await envelope(res);
      expect(body.code).toBe('invalid_message');
      expect(body.message).toContain('262144 bytes');
      expect(body).toMatchObject({ limit: LIMIT });
    }
    expect(h.sandbox.control.sent()).toHaveLength(0);
  });

  it('should refuse a body whose Content-Length announces more than the limit', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${h.url}/v1/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${KEYS.full}`,
          'content-type': 'application/json',
          'content-length': String(LIMIT + 10),
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(padded(LIMIT + 10));
    });
    expect(status).toBe(400);
  });

  it('should read gzip and br bodies and apply the limit to the decoded bytes', async () => {
    expect((await post(gzipSync(padded(1_000)), { 'content-encoding': 'gzip' })).status).toBe(202);
    expect(
      (await post(brotliCompressSync(padded(1_000)), { 'content-encoding': 'br' })).status,
    ).toBe(202);
    const big = await post(gzipSync(padded(LIMIT + 1)), { 'content-encoding': 'gzip' });
    expect(big.status).toBe(400);
    expect((await envelope(big)).message).toContain('once decoded');
  });

  it('should answer encoding, charset, UTF-8 and JSON errors with the 400 invalid_message envelope', async () => {
    const cases: [string | Buffer, Record<string, string>, string][] = [
      [padded(100), { 'content-encoding': 'compress' }, 'Content-Encoding'],
      [padded(100), { 'content-encoding': 'gzip, br' }, 'Content-Encoding'],
      [padded(100), { 'content-encoding': 'gzip' }, 'not valid gzip'],
      [padded(100), { 'content-type': 'application/json; charset=latin1' }, 'charset'],
      [Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), {}, 'UTF-8'],
      ['{"messaging_product":', {}, 'not valid JSON'],
    ];
    for (const [body, headers, text] of cases) {
      const res = await post(body, headers);
      expect(res.status, text).toBe(400);
      const parsed = await envelope(res);
      expect(parsed.code).toBe('invalid_message');
      expect(parsed.message).toContain(text);
    }
  });

  it('should answer malformed percent-escapes in ids with the route not-found code', async () => {
    const cases = [
      ['/v1/messages/%E0%A4%A', 'message_not_found'],
      ['/v1/messages/abc%ZZ', 'message_not_found'],
      ['/v1/conversations/%E0/messages', 'conversation_not_found'],
      ['/v1/media/%', 'media_not_found'],
    ] as const;
    for (const [path, code] of cases) {
      const res = await h.call(path);
      expect(res.status, path).toBe(404);
      expect((await envelope(res)).code).toBe(code);
    }
    const other = await h.call('/v1/nothing%E0');
    expect(other.status).toBe(404);
    expect((await envelope(other)).code).toBe('not_found');
  });

  it('should still authenticate before answering a malformed id', async () => {
    const res = await h.call('/v1/messages/%E0%A4%A', { key: null });
    expect(res.status).toBe(401);
    expect((await envelope(res)).code).toBe('unauthorized');
    const scope = await h.call('/v1/media/%E0', { key: KEYS.readOnly });
    expect((await envelope(scope)).code).toBe('insufficient_scope');
  });

  it('should answer malformed escapes and bodies on control routes with 400 invalid_request', async () => {
    const escaped = await h.call('/sandbox/messages/%E0/status', { key: null, body: {} });
    expect(escaped.status).toBe(400);
    expect((await envelope(escaped)).code).toBe('invalid_request');
    const badJson = await h.call('/sandbox/inbound', { key: null, raw: '{"type":' });
    expect(badJson.status).toBe(400);
  });
});
