import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendBudgetRules } from '../../src/api/budgets.js';
import { AdmissionError, ConnectionError, UnavailableError } from '../../src/api/errors.js';
import { fingerprintContent } from '../../src/api/fingerprint.js';
import type { BudgetRule, Limiter } from '../../src/api/limiter.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import { ManualClock } from '../../src/core/clock.js';
import { MessageValidationError } from '../../src/messages/index.js';
import { makeClient, textRequest } from './client-fixture.js';
import { json, startTestServer, type TestServer } from './test-server.js';

const accepted = (id = 'wamid.1') => ({
  messaging_product: 'whatsapp',
  messageId: id,
  status: 'queued',
});

describe('MessagingClient.send', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const posts = () => server.requests.filter((r) => r.method === 'POST');

  it('should POST the validated body with JSON headers and return accepted', async () => {
    server.handle((_req, res) => json(res, 202, accepted(), { 'x-service-request-id': 'rq-1' }));
    const { client } = makeClient(server.baseUrl);
    const result = await client.send(textRequest('hi'));
    expect(result).toEqual({ status: 'accepted', messageId: 'wamid.1', requestId: 'rq-1' });
    const req = posts()[0]!;
    expect(req.url).toBe('/v1/messages');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['authorization']).toMatch(/^Bearer /);
    expect(req.headers['idempotency-key']).toBeUndefined();
    expect(JSON.parse(req.body)).toEqual(textRequest('hi'));
  });

  it('should throw MessageValidationError and send nothing for an invalid request', async () => {
    const { client, limiter } = makeClient(server.baseUrl);
    await expect(client.send({ ...textRequest(''), to: '12345' })).rejects.toBeInstanceOf(
      MessageValidationError,
    );
    expect(server.requests).toHaveLength(0);
    expect(limiter.count(sendBudgetRules(client.identity)[0]!, Date.now() + 10 ** 12)).toBe(0);
  });

  it('should report a timed-out send as unknown after exactly one POST', async () => {
    server.handle(() => undefined); // accepts the request, never answers
    const { client, clock, delays } = makeClient(server.baseUrl, { timeoutMs: 1_000 });
    const startedAt = clock.now();
    const request = textRequest('are you there?');
    const result = await client.send(request);
    expect(result).toMatchObject({
      status: 'unknown',
      reason: 'timeout',
      startedAt,
      to: request.to,
      type: 'text',
      fingerprint: fingerprintContent(request),
    });
    expect(posts()).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('should report a connection cut after the POST was written as unknown, never replayed', async () => {
    server.handle((_req, res) => res.socket?.destroy()); // read the request, then hang up
    const { client, delays } = makeClient(server.baseUrl, { timeoutMs: 5_000 });
    const result = await client.send(textRequest('cut'));
    expect(result).toMatchObject({ status: 'unknown', reason: 'network' });
    expect(posts()).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('should read the answer of a slow server that sends its body in pieces', async () => {
    server.handle((_req, res) => {
      res.writeHead(202, { 'content-type': 'application/json', 'x-service-request-id': 'rq-9' });
      const body = JSON.stringify(accepted('wamid.slow'));
      res.write(body.slice(0, 10));
      setTimeout(() => res.end(body.slice(10)), 20);
    });
    const { client } = makeClient(server.baseUrl);
    expect(await client.send(textRequest('slow'))).toEqual({
      status: 'accepted',
      messageId: 'wamid.slow',
      requestId: 'rq-9',
    });
  });

  it.each([500, 502, 504])(
    'should report a %i on send as unknown server_error after one POST',
    async (status) => {
      server.handle((_req, res) =>
        json(res, status, { code: 'oops', message: 'x' }, { 'x-service-request-id': 'rq-5' }),
      );
      const { client } = makeClient(server.baseUrl);
      const result = await client.send(textRequest());
      expect(result).toMatchObject({
        status: 'unknown',
        reason: 'server_error',
        requestId: 'rq-5',
      });
      expect(posts()).toHaveLength(1);
    },
  );

  it('should report a 202 whose body does not parse as unknown bad_response', async () => {
    server.handle((_req, res) => json(res, 202, { ok: true }));
    const { client } = makeClient(server.baseUrl);
    const result = await client.send(textRequest());
    expect(result).toMatchObject({ status: 'unknown', reason: 'bad_response' });
    expect(posts()).toHaveLength(1);
  });

  it('should reject a 429 as retryable with the hint and block the send budget', async () => {
    server.handle((_req, res) =>
      json(res, 429, { code: 'rate_limited', message: 'slow' }, { 'retry-after': '7' }),
    );
    const { client, limiter, clock } = makeClient(server.baseUrl);
    const result = await client.send(textRequest());
    expect(result.status).toBe('rejected');
    if (result.status !== 'rejected') return;
    expect(result.retryable).toBe(true);
    expect(result.retryAfterMs).toBe(7_000);
    expect(result.error.code).toBe('rate_limited');
    expect(posts()).toHaveLength(1);
    const keyRules = sendBudgetRules(client.identity).slice(0, 4);
    expect(await limiter.take(keyRules, clock.now())).toEqual({ ok: false, retryAfterMs: 7_000 });
  });

  it('should wait out a block before the next send instead of calling over budget', async () => {
    let calls = 0;
    server.handle((_req, res) =>
      ++calls === 1
        ? json(res, 429, { code: 'rate_limited', message: 'slow' }, { 'ratelimit-reset': '3' })
        : json(res, 202, accepted()),
    );
    const { client, delays } = makeClient(server.baseUrl);
    expect((await client.send(textRequest())).status).toBe('rejected');
    expect((await client.send(textRequest())).status).toBe('accepted');
    expect(delays).toEqual([3_000]);
    expect(posts()).toHaveLength(2);
  });

  it.each(['backlog_full', 'temporarily_unavailable'])(
    'should reject a 503 %s as retryable, honouring retryAfterSeconds',
    async (code) => {
      server.handle((_req, res) => json(res, 503, { code, message: 'x', retryAfterSeconds: 4 }));
      const { client } = makeClient(server.baseUrl);
      const result = await client.send(textRequest());
      expect(result).toMatchObject({ status: 'rejected', retryable: true, retryAfterMs: 4_000 });
      if (result.status === 'rejected') expect(result.error).toBeInstanceOf(UnavailableError);
      expect(posts()).toHaveLength(1);
    },
  );

  it('should reject a 409 as not retryable with the admission code', async () => {
    server.handle((_req, res) => json(res, 409, { code: 'service_window_closed', message: 'x' }));
    const { client } = makeClient(server.baseUrl);
    const result = await client.send(textRequest());
    expect(result).toMatchObject({ status: 'rejected', retryable: false });
    if (result.status === 'rejected') {
      expect(result.error).toBeInstanceOf(AdmissionError);
      expect(result.error.code).toBe('service_window_closed');
    }
  });

  it('should reject a refused connection as retryable connection_refused', async () => {
    const dead = await startTestServer();
    const url = dead.baseUrl;
    await dead.close();
    const { client } = makeClient(url);
    const result = await client.send(textRequest());
    expect(result).toMatchObject({ status: 'rejected', retryable: true });
    if (result.status === 'rejected') {
      expect(result.error).toBeInstanceOf(ConnectionError);
      expect(result.error.code).toBe('connection_refused');
    }
  });

  it('should spread 25 rapid sends so that no 1-second window holds more than 20', async () => {
    const { client, clock, delays } = makeClient(server.baseUrl);
    const arrivals: number[] = [];
    server.handle((_req, res) => {
      arrivals.push(clock.now());
      json(res, 202, accepted());
    });
    for (let i = 0; i < 25; i++)
      expect((await client.send(textRequest(`n${i}`))).status).toBe('accepted');
    expect(arrivals).toHaveLength(25);
    expect(maxInWindow(arrivals, 1_000)).toBe(20);
    expect(delays.length).toBeGreaterThan(0);
    expect(arrivals[24]! - arrivals[0]!).toBeGreaterThanOrEqual(1_000);
  });

  it('should keep concurrent sends within budget (take times)', async () => {
    server.handle((_req, res) => json(res, 202, accepted()));
    const clock = new ManualClock(Date.parse('2026-03-01T12:00:00.000Z'));
    const limiter = new MemoryLimiter({ clock });
    const takes: number[] = [];
    const recording: Limiter = {
      take: async (rules: readonly BudgetRule[], now: number) => {
        const r = await limiter.take(rules, now);
        if (r.ok) takes.push(now);
        return r;
      },
      complete: (rules, ticket, now) => limiter.complete(rules, ticket, now),
      block: (keys, until) => limiter.block(keys, until),
      acquireSlot: (key, max, ttl) => limiter.acquireSlot(key, max, ttl),
    };
    const { client } = makeClient(server.baseUrl, {
      clock,
      limiter: recording,
      sleep: (ms) => {
        clock.advance(ms);
        return Promise.resolve();
      },
    });
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => client.send(textRequest(`p${i}`))),
    );
    expect(results.every((r) => r.status === 'accepted')).toBe(true);
    expect(takes).toHaveLength(25);
    expect(maxInWindow(takes, 1_000)).toBeLessThanOrEqual(20);
  });
});

/** The largest number of times inside any half-open window [t, t + windowMs). */
function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (const start of sorted)
    best = Math.max(best, sorted.filter((t) => t >= start && t < start + windowMs).length);
  return best;
}
