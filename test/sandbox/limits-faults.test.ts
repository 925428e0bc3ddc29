import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope, MessageEnvelope, SendResponse } from '../../src/api/resources.js';
import { ADA, START, startSandbox, textTo, type Harness } from './helpers.js';

describe('sandbox rate limits, media concurrency and faults', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => {
    h.sandbox.control.reset();
    h.sandbox.control.holdMediaStreams(false);
    h.clock.set(START + 3_600_000);
  });

  it('should allow 20 sends per second and answer the 21st with 429 rate_limited and headers', async () => {
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hi' });
    for (let i = 0; i < 20; i++) {
      const res = await h.call('/v1/messages', { body: textTo(ADA) });
      expect(res.status).toBe(202);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(19 - i));
    }
    const limited = await h.call('/v1/messages', { body: textTo(ADA) });
    expect(limited.status).toBe(429);
    expect(ErrorEnvelope.parse(await limited.json()).code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('ratelimit-reset')).toBe('1');
    expect(limited.headers.get('ratelimit-limit')).toBe('20');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-policy')).toContain('q=20;w=1');
    h.clock.advance(1_000);
    expect((await h.call('/v1/messages', { body: textTo(ADA) })).status).toBe(202);
  });

  it('should allow 60 reads per second per key', async () => {
    for (let i = 0; i < 60; i++) expect((await h.call('/v1/conversations')).status).toBe(200);
    const limited = await h.call('/v1/conversations');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('should allow 8 active media streams and answer the 9th with media_concurrency_exceeded', async () => {
    const message = h.sandbox.control.injectInbound({
      type: 'image',
      from: ADA,
      media: { readyAfterMs: 0, content: 'x'.repeat(40_000) },
    });
    const path = message.media!.downloadPath!;
    h.sandbox.control.holdMediaStreams(true);
    const open = [];
    for (let i = 0; i < 8; i++) {
      const res = await h.call(path);
      expect(res.status).toBe(200);
      open.push(res);
    }
    const ninth = await h.call(path);
    expect(ninth.status).toBe(429);
    expect(ErrorEnvelope.parse(await ninth.json()).code).toBe('media_concurrency_exceeded');
    h.sandbox.control.holdMediaStreams(false);
    const bodies = await Promise.all(open.map((r) => r.text()));
    expect(bodies.every((b) => b.length === 40_000)).toBe(true);
    const after = await h.call(path);
    expect(after.status).toBe(200);
    await after.text();
  });

  it('should inject an error fault with Retry-After and retryAfterSeconds for N calls', async () => {
    h.sandbox.control.addFault({
      route: 'GET /v1/conversations',
      count: 2,
      status: 503,
      code: 'temporarily_unavailable',
      retryAfterSeconds: 7,
    });
    for (let i = 0; i < 2; i++) {
      const res = await h.call('/v1/conversations');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(ErrorEnvelope.parse(await res.json())).toMatchObject({
        code: 'temporarily_unavailable',
        retryAfterSeconds: 7,
      });
    }
    expect((await h.call('/v1/conversations')).status).toBe(200);
  });

  it('should inject backlog_full on sends with a route pattern', async () => {
    h.sandbox.control.addFault({ route: 'POST /v1/messages', status: 503, code: 'backlog_full' });
    const res = await h.call('/v1/messages', { body: textTo(ADA) });
    expect(ErrorEnvelope.parse(await res.json()).code).toBe('backlog_full');
  });

  it('should delay a response past a client timeout and still process the send', async () => {
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hi' });
    h.sandbox.control.addFault({ route: 'POST /v1/messages', delayMs: 300 });
    await expect(
      fetch(`${h.url}/v1/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.sandbox.config.keys[0]!.key}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(textTo(ADA)),
        signal: AbortSignal.timeout(50),
      }),
    ).rejects.toThrow();
    await expect.poll(() => h.sandbox.control.sent().length, { timeout: 5_000 }).toBe(1);
  });

  it('should drop the connection after processing (accepted send, lost answer)', async () => {
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hi' });
    h.sandbox.control.addFault({ route: 'POST /v1/messages', drop: 'after' });
    await expect(h.call('/v1/messages', { body: textTo(ADA) })).rejects.toThrow();
    const sent = h.sandbox.control.sent();
    expect(sent).toHaveLength(1);
    const read = await h.call(`/v1/messages/${sent[0]!.messageId}`);
    expect(MessageEnvelope.parse(await read.json()).message.status).toBe('queued');
    const next = await h.call('/v1/messages', { body: textTo(ADA) });
    expect(SendResponse.parse(await next.json()).status).toBe('queued');
  });

  it('should drop the connection before processing', async () => {
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hi' });
    h.sandbox.control.addFault({ route: '*', drop: 'before' });
    await expect(h.call('/v1/messages', { body: textTo(ADA) })).rejects.toThrow();
    expect(h.sandbox.control.sent()).toHaveLength(0);
  });
});
