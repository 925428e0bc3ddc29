import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchRoute, parseRoutePattern } from '../../src/sandbox/route-pattern.js';
import { ADA, START, eventually, startSandbox, textTo, type Harness } from './helpers.js';

describe('sandbox control hardening', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.sandbox.control.reset();
    h.clock.set(START);
  });
  const control = (path: string, method: string, body?: unknown) =>
    h.call(`/sandbox${path}`, { key: null, method, ...(body === undefined ? {} : { body }) });

  it('should refuse clock moves that are negative, not durations, too long or past year 9999, and keep working', async () => {
    for (const by of ['100000000d', '3651d', -5, 'soon', '1e400', 8.64e15]) {
      const res = await control('/clock/advance', 'POST', { by });
      expect(res.status, String(by)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_request');
    }
    expect(h.clock.now()).toBe(START);
    expect((await control('/clock/advance', 'POST', { by: '3650d' })).status).toBe(200);
    const clock = (await (await control('/clock', 'GET')).json()) as { now: string };
    expect(clock.now).toBe(new Date(START + 3_650 * 86_400_000).toISOString());
    expect((await h.call('/v1/conversations')).status).toBe(200);
  });

  it('should match fault routes segment by segment, with :params and a final *', () => {
    const match = (route: string, method: string, path: string) => {
      const parsed = parseRoutePattern(route);
      if (parsed.status !== 'valid') throw new Error(parsed.message);
      return matchRoute(parsed.pattern, method, path);
    };
    expect(match('GET /v1/media/:id', 'GET', '/v1/media/med_1')).toBe(true);
    expect(match('GET /v1/media/:id', 'GET', '/v1/media/med_1/x')).toBe(false);
    expect(match('GET /v1/media/:id', 'POST', '/v1/media/med_1')).toBe(false);
    expect(match('* /v1/conversations/*', 'GET', '/v1/conversations/c1/messages')).toBe(true);
    expect(match('* /v1/conversations/*', 'GET', '/v1/conversations')).toBe(true);
    expect(match('POST /v1/messages', 'POST', '/v1/messages/')).toBe(true);
    expect(match('*', 'GET', '/v1/anything')).toBe(true);
    for (const bad of [
      'GET /v1/a*b',
      'GET /v1/*/x',
      'PUT /v1/x',
      'GET /v2/x',
      'GET /v1/:',
      'x'.repeat(400),
    ]) {
      expect(parseRoutePattern(bad).status, bad).toBe('invalid');
    }
  });

  it('should arm a fault with a long star-heavy route without a regular expression blow-up', async () => {
    // With a regular expression built from this route, matching the long path backtracks for ages.
    const route = `GET /v1/${'a*'.repeat(40)}b`;
    expect((await control('/faults', 'POST', { route, status: 500 })).status).toBe(400);
    const ok = await control('/faults', 'POST', {
      route: 'GET /v1/conversations/:id/*',
      status: 503,
    });
    expect(ok.status).toBe(201);
    expect((await h.call(`/v1/conversations/${'a'.repeat(5_000)}/messages`)).status).toBe(503);
    expect((await h.call('/v1/conversations')).status).toBe(200);
  });

  it('should accept only http(s) callback URLs', async () => {
    for (const url of [
      'javascript:alert(1)',
      'ftp://example.com/x',
      'file:///etc/passwd',
      'data:,x',
    ]) {
      const res = await control('/callback', 'PUT', { url, secret: 's' });
      expect(res.status, url).toBe(400);
    }
    expect(
      (await control('/callback', 'PUT', { url: 'https://example.com/cb', secret: 's' })).status,
    ).toBe(200);
    expect((await control('/callback', 'DELETE')).status).toBe(200);
  });

  it('should delete the callback completely: config gone, queued and retried callbacks dropped', async () => {
    let hits = 0;
    const bodies: string[] = [];
    const receiver: Server = createServer((req, res) => {
      hits++;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.statusCode = 500;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;
    try {
      await control('/callback', 'PUT', { url, secret: 'whsec', retryBaseMs: 20, maxAttempts: 20 });
      h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hi' });
      await eventually(() => hits >= 2);
      expect((await control('/callback', 'DELETE')).status).toBe(200);
      const config = (await (await control('/config', 'GET')).json()) as { callback?: unknown };
      expect(config.callback).toBeUndefined();
      expect(h.sandbox.config.callback).toBeUndefined();
      await h.sandbox.control.callbacksIdle();
      const attempts = h.sandbox.control.callbackAttempts().length;
      h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'again' });
      expect((await h.call('/v1/messages', { body: textTo(ADA) })).status).toBe(202);
      // A pending retry would fire within 20-40 ms; poll well past that and see none.
      const delivered = () =>
        h.sandbox.control.callbackAttempts().length > attempts ||
        bodies.some((b) => b.includes('again') || b.includes('message.status'));
      expect(await eventuallyFalse(delivered, 300)).toBe(true);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });

  it('should validate phone numbers given to the control API as E.164', async () => {
    expect((await control('/contacts/javascript:1', 'POST', { state: 'opted_out' })).status).toBe(
      400,
    );
    expect(
      (await control(`/contacts/${encodeURIComponent('+1555')}`, 'POST', { state: 'opted_out' }))
        .status,
    ).toBe(400);
    expect((await control('/conversations/%2B12/take-over', 'POST', {})).status).toBe(400);
    expect(
      (await control('/inbound', 'POST', { type: 'text', from: '0044123', text: 'x' })).status,
    ).toBe(400);
    expect(
      (await control(`/contacts/${encodeURIComponent(ADA)}`, 'POST', { state: 'opted_out' }))
        .status,
    ).toBe(200);
  });
});

/** True when `happened` stays false for the whole period (polled, not slept once). */
async function eventuallyFalse(happened: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (happened()) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return !happened();
}
