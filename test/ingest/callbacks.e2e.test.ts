import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signCallback } from '../../src/api/callbacks.js';
import { echoFlow } from '../engine/echo-machine.js';
import { ADA, startHarness, type Harness } from '../engine/harness.js';

const SECRET = 'cb_secret_security';

describe('callback router', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} });
    url = await h.withCallbacks(SECRET, {
      flows: [echoFlow],
      handlers: {},
      callbacks: { secret: SECRET, maxBodyBytes: 4096 },
    });
    h.sandbox.control.setCallback(undefined); // these tests post by hand
  });
  afterAll(async () => {
    await h.close();
  });

  /** A valid message.received body for Ada, built from a real sandbox message. */
  function receivedBody(text: string): string {
    const message = h.sandbox.control.injectInbound({ type: 'text', text, from: ADA });
    const conversation = h.sandbox.control
      .conversations()
      .find((c) => c.id === message.conversationId);
    const { lastMessage: _omit, ...conv } = conversation ?? { lastMessage: null };
    return JSON.stringify({
      id: `evt_${message.id}`,
      type: 'message.received',
      occurredAt: message.occurredAt,
      data: { message, conversation: conv },
    });
  }

  async function post(
    body: string | Buffer,
    headers: Record<string, string>,
  ): Promise<{ status: number; json: unknown }> {
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    return { status: res.status, json: await res.json() };
  }

  function signed(body: string, at = h.clock.now()): Record<string, string> {
    const ts = Math.floor(at / 1000);
    return { [TIMESTAMP_HEADER]: String(ts), [SIGNATURE_HEADER]: signCallback(SECRET, ts, body) };
  }

  it('should accept a signed callback and handle it', async () => {
    const body = receivedBody('signed');
    const res = await post(body, signed(body));
    await h.bot.idle();
    expect(res).toEqual({ status: 200, json: { received: 1 } });
    expect(h.sentTo(ADA)).toContain('text:echo: signed');
  });

  it('should answer with a JSON envelope its length and type name', async () => {
    const body = receivedBody('headers');
    const res = await fetch(url, { method: 'POST', body, headers: signed(body) });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toEqual({ received: 1 });
    await h.bot.idle();
  });

  it('should reject a forged signature with 401 invalid_signature', async () => {
    const body = receivedBody('forged');
    const ts = Math.floor(h.clock.now() / 1000);
    const res = await post(body, {
      [TIMESTAMP_HEADER]: String(ts),
      [SIGNATURE_HEADER]: signCallback('wrong', ts, body),
    });
    await h.bot.idle();
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'invalid_signature' });
    expect(h.sentTo(ADA)).not.toContain('text:echo: forged');
  });

  it('should reject a replayed (stale) callback with 401', async () => {
    const body = receivedBody('replayed');
    const res = await post(body, signed(body, h.clock.now() - 10 * 60_000));
    await h.bot.idle();
    expect(res.status).toBe(401);
    expect(h.sentTo(ADA)).not.toContain('text:echo: replayed');
  });

  it('should reject a body changed after signing', async () => {
    const body = receivedBody('tampered');
    const res = await post(body.replace('tampered', 'tampere2'), signed(body));
    expect(res.status).toBe(401);
  });

  it('should answer malformed bodies with 400 and the error envelope, and stay up', async () => {
    for (const body of [
      '{not json',
      '[]',
      JSON.stringify({ type: 'message.received', id: 'x' }),
      '',
    ]) {
      const res = await post(body, signed(body));
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'invalid_callback' });
    }
    const big = 'x'.repeat(10_000);
    const tooBig = await post(big, signed(big));
    expect(tooBig.status).toBe(413);
    const unsigned = await post('{}', {});
    expect(unsigned.status).toBe(401);
    const body = receivedBody('still alive');
    expect((await post(body, signed(body))).status).toBe(200);
    await h.bot.idle();
    expect(h.sentTo(ADA)).toContain('text:echo: still alive');
  });

  it('should read the raw body itself: 415 for a compressed body, 413 for a chunked body over the cap', async () => {
    const body = receivedBody('compressed');
    const gz = await post(body, { ...signed(body), 'content-encoding': 'gzip' });
    expect(gz.status).toBe(415);
    expect(gz.json).toMatchObject({ code: 'unsupported_encoding' });
    // No Content-Length: the cap is enforced while reading, not from the header.
    const big = 'y'.repeat(5_000);
    const chunked = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed(big) },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 5; i++)
            controller.enqueue(Buffer.from(big.slice(i * 1000, (i + 1) * 1000)));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({ code: 'payload_too_large' });
    // A chunked body under the cap is read whole and verified.
    const ok = receivedBody('chunked and fine');
    const fine = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed(ok) },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(Buffer.from(ok.slice(0, 10)));
          controller.enqueue(Buffer.from(ok.slice(10)));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect(fine.status).toBe(200);
    await h.bot.idle();
    expect(h.sentTo(ADA)).toContain('text:echo: chunked and fine');
  });
});
