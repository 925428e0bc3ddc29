import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CursorMismatchError, ListLimitError } from '../../src/api/client-errors.js';
import {
  ApiResponseError,
  ConnectionError,
  NotFoundError,
  ServerError,
  UnavailableError,
} from '../../src/api/errors.js';
import { PageCursor } from '../../src/api/pagination.js';
import { readBudgetRules } from '../../src/api/budgets.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import { ManualClock } from '../../src/core/clock.js';
import { API_KEY, makeClient } from './client-fixture.js';
import {
  conversation,
  json,
  message,
  queryOf,
  startTestServer,
  type TestServer,
} from './test-server.js';

/** Cursors that break naive encoding: reserved characters, spaces, percent signs, unicode. */
const NASTY = ['a+b/c==', '%2B%25', 'with space & more', 'ünïcødé ✓ 🚀', '?x=1#frag', ' +/=% '];

describe('MessagingClient reads', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('should send the bearer key and Accept: application/json, and URL-encode ids', async () => {
    server.handle((_req, res) => json(res, 200, { message: message('a/b c') }));
    const { client } = makeClient(server.baseUrl);
    const got = await client.getMessage('a/b c');
    expect(got.id).toBe('a/b c');
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/v1/messages/a%2Fb%20c');
    expect(req.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    expect(req.headers['accept']).toBe('application/json');
    expect(req.headers['content-type']).toBeUndefined();
  });

  it('should pass nasty conversation cursors back byte-exact and send nothing but limit/after', async () => {
    server.handle((req, res) => {
      const after = queryOf(req).get('after');
      const i = after === null ? 0 : NASTY.indexOf(after) + 1;
      json(res, 200, { items: [conversation(`c${i}`)], nextCursor: NASTY[i] ?? null });
    });
    const { client } = makeClient(server.baseUrl);
    const ids: string[] = [];
    for await (const c of client.conversations({ pageSize: 1 })) ids.push(c.id);
    expect(ids).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    expect(server.requests.map((r) => queryOf(r).get('after'))).toEqual([null, ...NASTY]);
    for (const req of server.requests) {
      expect(req.url.startsWith('/v1/conversations?')).toBe(true);
      expect([...queryOf(req).keys()].every((k) => k === 'limit' || k === 'after')).toBe(true);
      expect(queryOf(req).get('limit')).toBe('1');
      expect(req.url).not.toMatch(/[?&](search|page|offset)=/);
    }
  });

  it('should walk history with before cursors on the encoded conversation path', async () => {
    server.handle((req, res) => {
      const before = queryOf(req).get('before');
      const i = before === null ? 0 : NASTY.indexOf(before) + 1;
      json(res, 200, { items: [message(`m${i}`)], nextCursor: i < 2 ? NASTY[i] : null });
    });
    const { client } = makeClient(server.baseUrl);
    const ids: string[] = [];
    for await (const m of client.history('conv/1')) ids.push(m.id);
    expect(ids).toEqual(['m0', 'm1', 'm2']);
    expect(server.requests.map((r) => r.url.split('?')[0])).toEqual(
      Array(3).fill('/v1/conversations/conv%2F1/messages'),
    );
    expect(server.requests.map((r) => queryOf(r).get('before'))).toEqual([
      null,
      NASTY[0],
      NASTY[1],
    ]);
    expect(server.requests.every((r) => [...queryOf(r).keys()].every((k) => k === 'before'))).toBe(
      true,
    );
  });

  it('should refuse a cursor on a list it did not come from, without calling', async () => {
    server.handle((req, res) =>
      req.url.startsWith('/v1/conversations?') || req.url === '/v1/conversations'
        ? json(res, 200, { items: [], nextCursor: 'conv-cursor' })
        : json(res, 200, { items: [], nextCursor: 'hist-cursor' }),
    );
    const { client } = makeClient(server.baseUrl);
    const convCursor = (await client.listConversations()).nextCursor!;
    const histCursor = (await client.listMessages('c1')).nextCursor!;
    expect(convCursor.list).toBe('conversations');
    await expect(client.listMessages('c1', { before: convCursor })).rejects.toBeInstanceOf(
      CursorMismatchError,
    );
    await expect(client.listMessages('c2', { before: histCursor })).rejects.toBeInstanceOf(
      CursorMismatchError,
    );
    await expect(client.listConversations({ after: histCursor })).rejects.toBeInstanceOf(
      CursorMismatchError,
    );
    expect(server.requests).toHaveLength(2);
    // The right list accepts it.
    await client.listMessages('c1', { before: histCursor });
    expect(queryOf(server.requests[2]!).get('before')).toBe('hist-cursor');
  });

  it('should restore a stored cursor for its own list only and refuse hand-built ones', () => {
    const restored = PageCursor.restore(
      JSON.parse(JSON.stringify({ list: 'conversations', value: 'a+b' })),
    );
    expect(restored?.valueFor('conversations')).toBe('a+b');
    expect(() => restored?.valueFor('conversations/c1/messages')).toThrow(CursorMismatchError);
    expect(PageCursor.restore({ list: 'conversations' })).toBeUndefined();
    expect(() => new PageCursor(Symbol('x') as never, 'conversations', 'x')).toThrow(TypeError);
  });

  it.each([0, 101, 1.5, -1])('should refuse limit %s before calling', async (limit) => {
    const { client } = makeClient(server.baseUrl);
    await expect(client.listConversations({ limit })).rejects.toBeInstanceOf(ListLimitError);
    await expect(client.listMessages('c1', { limit })).rejects.toBeInstanceOf(ListLimitError);
    expect(() => client.conversations({ pageSize: limit })[Symbol.asyncIterator]()).not.toThrow();
    await expect(client.conversations({ pageSize: limit }).next()).rejects.toBeInstanceOf(
      ListLimitError,
    );
    expect(server.requests).toHaveLength(0);
  });

  it.each([1, 100])('should accept limit %s', async (limit) => {
    server.handle((_req, res) => json(res, 200, { items: [], nextCursor: null }));
    const { client } = makeClient(server.baseUrl);
    await client.listConversations({ limit });
    expect(queryOf(server.requests[0]!).get('limit')).toBe(String(limit));
  });

  it('should honour retryAfterSeconds of a 503 and block the read budget meanwhile', async () => {
    let calls = 0;
    server.handle((_req, res) =>
      ++calls === 1
        ? json(res, 503, { code: 'temporarily_unavailable', message: 'x', retryAfterSeconds: 3 })
        : json(res, 200, { message: message('m1') }),
    );
    const clock = new ManualClock(Date.parse('2026-03-01T12:00:00.000Z'));
    const limiter = new MemoryLimiter({ clock });
    const delays: number[] = [];
    const probes: boolean[] = [];
    const { client } = makeClient(server.baseUrl, {
      clock,
      limiter,
      sleep: async (ms) => {
        // While the client waits, every other caller of this key is blocked too.
        const r = await limiter.take(readBudgetRules(client.identity), clock.now());
        probes.push(r.ok);
        delays.push(ms);
        clock.advance(ms);
      },
    });
    await client.getMessage('m1');
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([3_000]);
    expect(probes).toEqual([false]);
  });

  it('should honour Retry-After on a 429 (seconds and HTTP date) and RateLimit-Reset as a wait', async () => {
    const { client, clock, delays } = makeClient(server.baseUrl);
    const hints = [
      { 'retry-after': '2' },
      { 'retry-after': new Date(clock.now() + 10_000).toUTCString() },
      { 'ratelimit-reset': '5' },
    ];
    for (const headers of hints) {
      let calls = 0;
      server.handle((_req, res) =>
        ++calls === 1
          ? json(res, 429, { code: 'rate_limited', message: 'slow down' }, headers)
          : json(res, 200, { message: message('m1') }),
      );
      await client.getMessage('m1');
    }
    // The HTTP date is 10 s after the start; 2 s passed during the first wait.
    expect(delays).toEqual([2_000, 8_000, 5_000]);
  });

  it('should retry 5xx with bounded, jittered exponential backoff up to maxAttempts', async () => {
    server.handle((_req, res) => json(res, 500, { code: 'internal', message: 'x' }));
    const { client, delays } = makeClient(server.baseUrl, {
      retry: { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 300 },
      random: () => 0.5,
    });
    await expect(client.getMessage('m1')).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(5);
    expect(delays).toEqual([50, 100, 150, 150]);
  });

  it('should use the injected random for jitter', async () => {
    server.handle((_req, res) => json(res, 502, {}));
    const seq = [0.1, 0.9, 0.3];
    const { client, delays } = makeClient(server.baseUrl, {
      retry: { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 10_000 },
      random: () => seq.shift() ?? 0,
    });
    await expect(client.getMessage('m1')).rejects.toBeInstanceOf(ServerError);
    expect(delays).toEqual([100, 1_800, 1_200]);
  });

  it('should not retry a 404', async () => {
    server.handle((_req, res) => json(res, 404, { code: 'message_not_found', message: 'x' }));
    const { client, delays } = makeClient(server.baseUrl);
    await expect(client.getMessage('m1')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('should give up on a 503 after maxAttempts with the typed error', async () => {
    server.handle((_req, res) => json(res, 503, { code: 'backlog_full', message: 'x' }));
    const { client } = makeClient(server.baseUrl, { retry: { maxAttempts: 2 } });
    await expect(client.listConversations()).rejects.toBeInstanceOf(UnavailableError);
    expect(server.requests).toHaveLength(2);
  });

  it('should retry a read that timed out', async () => {
    let calls = 0;
    server.handle((_req, res) => {
      if (++calls === 1) return; // never answers: the client times out
      json(res, 200, { message: message('m1') });
    });
    const { client } = makeClient(server.baseUrl, { timeoutMs: 150 });
    expect((await client.getMessage('m1')).id).toBe('m1');
    expect(server.requests).toHaveLength(2);
  });

  it('should retry refused connections and then throw ConnectionError', async () => {
    const dead = await startTestServer();
    const url = dead.baseUrl;
    await dead.close();
    const { client, delays } = makeClient(url, { retry: { maxAttempts: 3 } });
    const err: unknown = await client.getMessage('m1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ code: 'connection_refused', status: 0 });
    expect(delays).toHaveLength(2);
  });
});

describe('MessagingClient walks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('should stop with ApiResponseError when the server repeats a cursor', async () => {
    server.handle((_req, res) =>
      json(res, 200, { items: [conversation('c')], nextCursor: 'same' }),
    );
    const { client } = makeClient(server.baseUrl);
    const seen: string[] = [];
    const walk = async () => {
      for await (const c of client.conversations()) seen.push(c.id);
    };
    await expect(walk()).rejects.toBeInstanceOf(ApiResponseError);
    expect(server.requests).toHaveLength(2);
    expect(seen).toEqual(['c', 'c']);
  });
});
