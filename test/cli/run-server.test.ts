import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signCallback } from '../../src/api/callbacks.js';
import {
  closeServer,
  createRunApp,
  listenOn,
  type Listening,
  type ServerTimeouts,
} from '../../src/cli/run-server.js';
import { createBot } from '../../src/engine/create-bot.js';
import type { Bot } from '../../src/engine/types.js';
import type { Logger } from '../../src/log/logger.js';
import { StoreUnavailableError } from '../../src/store/guarded-store.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { echoFlow } from '../engine/echo-machine.js';
import { waitUntil } from '../wait-until.js';

const SECRET = 'whsec_run_server_test';

/** A store whose inbox writes fail as an outage does. */
class DownStore extends MemoryStore {
  down = false;
  override enqueue(...args: Parameters<MemoryStore['enqueue']>): Promise<boolean> {
    if (this.down)
      return Promise.reject(new StoreUnavailableError('enqueue', new Error('ECONNREFUSED')));
    return super.enqueue(...args);
  }
}

function recordingLogger(lines: { level: string; message: string; meta: unknown }[]): Logger {
  const at =
    (level: string) =>
    (message: string, meta?: unknown): void =>
      void lines.push({ level, message, meta });
  const logger: Logger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    child: () => logger,
  };
  return logger;
}

const FAST: ServerTimeouts = {
  headersMs: 1_000,
  requestMs: 2_000,
  keepAliveMs: 1_000,
  checkEveryMs: 200,
};

describe('the callback server of switchboard run', () => {
  let served: Listening | undefined;
  let bot: Bot | undefined;
  afterEach(async () => {
    if (served !== undefined) await closeServer(served.server);
    await bot?.stop();
    served = undefined;
    bot = undefined;
  });

  async function start(
    store = new DownStore(),
    logs: Parameters<typeof recordingLogger>[0] = [],
    probe: { isDraining: () => boolean } = { isDraining: () => false },
  ) {
    bot = createBot({
      flows: [echoFlow],
      handlers: {},
      // Never called by these tests: nothing is processed (unknown events, refused bodies).
      api: { baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_unused_000000' },
      store,
      logger: recordingLogger(logs),
      callbacks: { secret: SECRET, maxBodyBytes: 4096 },
      tickMs: 0,
    });
    const router = bot.callbackRouter();
    // Counts the requests express hands to the router (the hot path bypasses express).
    const viaExpress = { count: 0 };
    // express 5's router runs `router.handle` for each request it is given (not typed).
    const inner = router as unknown as { handle: (...args: unknown[]) => unknown };
    const handle = inner.handle.bind(router);
    inner.handle = (...args) => {
      viaExpress.count++;
      return handle(...args);
    };
    const app = createRunApp({
      probe: { ...probe, readiness: () => Promise.resolve({ status: 'ready' }) },
      callbacks: { path: '/callbacks', router },
    });
    served = await listenOn(app, '127.0.0.1', 0, FAST);
    return { url: served.url, store, logs, viaExpress };
  }

  const signed = (body: Buffer | string): Record<string, string> => {
    const ts = Math.floor(Date.now() / 1000);
    return { [TIMESTAMP_HEADER]: String(ts), [SIGNATURE_HEADER]: signCallback(SECRET, ts, body) };
  };

  it('should acknowledge an unknown event type with 200 and log it once at debug', async () => {
    const { url, logs } = await start();
    const body = JSON.stringify({ id: 'evt_1', type: 'contact.updated', data: {} });
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/callbacks`, { method: 'POST', body, headers: signed(body) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: 0 });
    }
    const ignored = logs.filter((l) => l.message === 'callback acknowledged and ignored');
    expect(ignored).toEqual([
      {
        level: 'debug',
        message: 'callback acknowledged and ignored',
        meta: { reason: 'unknown event type "contact.updated"' },
      },
    ]);
    // A known type with a bad shape is still a 400.
    const bad = JSON.stringify({ id: 'evt_2', type: 'message.failed', data: {} });
    const res = await fetch(`${url}/callbacks`, {
      method: 'POST',
      body: bad,
      headers: signed(bad),
    });
    expect(res.status).toBe(400);
  });

  it('should answer a POST to the endpoint itself without express, others through it', async () => {
    let draining = false;
    const { url, viaExpress } = await start(new DownStore(), [], {
      isDraining: () => draining,
    });
    // Statuses that change nothing: acknowledged, kept in memory, nothing to process.
    const event = (id: string): string =>
      JSON.stringify({
        id,
        type: 'message.status',
        occurredAt: new Date().toISOString(),
        data: { messageId: `m_${id}`, conversationId: 'c1', status: 'delivered' },
      });
    const post = (path: string, body: string, headers = signed(body)) =>
      fetch(`${url}${path}`, { method: 'POST', body, headers });
    const direct = await post('/callbacks', event('evt_d1'));
    expect([direct.status, await direct.json()]).toEqual([200, { received: 1 }]);
    expect(direct.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const query = await post('/callbacks?from=api', event('evt_d2'));
    expect(query.status).toBe(200);
    // Refusals on the direct path: the same envelopes as through express.
    const forged = await post('/callbacks', event('evt_d3'), { ...signed('other') });
    expect([forged.status, await forged.json()]).toMatchObject([
      401,
      { code: 'invalid_signature' },
    ]);
    const big = 'x'.repeat(5000);
    const tooBig = await post('/callbacks', big);
    expect([tooBig.status, await tooBig.json()]).toEqual([
      413,
      { code: 'payload_too_large', message: 'callback body is over 4096 bytes' },
    ]);
    const malformed = await post('/callbacks', '{"id":');
    expect([malformed.status, await malformed.json()]).toEqual([
      400,
      { code: 'invalid_callback', message: 'body is not JSON' },
    ]);
    expect(viaExpress.count).toBe(0);
    // A trailing slash is still the endpoint, answered through express.
    const slash = await post('/callbacks/', event('evt_d4'));
    expect([slash.status, viaExpress.count]).toEqual([200, 1]);
    draining = true;
    const drained = await post('/callbacks', event('evt_d5'));
    expect([drained.status, drained.headers.get('retry-after')]).toEqual([503, '1']);
    expect(await drained.json()).toMatchObject({ code: 'draining' });
  });

  it('should answer unknown paths with JSON 404 and wrong methods with JSON 405', async () => {
    const { url } = await start();
    const missing = await fetch(`${url}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/application\/json/);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
    const get = await fetch(`${url}/callbacks`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ code: 'method_not_allowed' });
    const post = await fetch(`${url}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    // A path below the callback endpoint is not the endpoint: it falls through to the 404.
    const below = await fetch(`${url}/callbacks/extra`, { method: 'POST', body: '{}' });
    expect(below.status).toBe(404);
    expect(await below.json()).toMatchObject({ code: 'not_found' });
    // The endpoint with a trailing slash is the endpoint.
    const slash = await fetch(`${url}/callbacks/`);
    expect(slash.status).toBe(405);
  });

  it('should refuse a compressed body with 415 before any check or decompression', async () => {
    const { url, logs } = await start();
    const gz = gzipSync(JSON.stringify({ id: 'evt_3', type: 'message.failed', data: {} }));
    // Signed over the compressed bytes as sent: still refused, never inflated.
    const res = await fetch(`${url}/callbacks`, {
      method: 'POST',
      body: gz,
      headers: { 'content-encoding': 'gzip', ...signed(gz) },
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 'unsupported_encoding' });
    expect(logs.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    // The framework-free core refuses it too (another HTTP framework may not).
    const core = await bot!.handleCallback({
      body: gz,
      headers: { 'content-encoding': 'gzip', ...signed(gz) },
    });
    expect(core.status).toBe(415);
  });

  it('should refuse a body over the limit from its Content-Length with 413', async () => {
    const { url } = await start();
    const body = 'x'.repeat(5000);
    const res = await fetch(`${url}/callbacks`, { method: 'POST', body, headers: signed(body) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('should answer 503 with Retry-After when the store cannot record the callback', async () => {
    const { url, store, logs } = await start();
    store.down = true;
    const body = JSON.stringify({
      id: 'evt_4',
      type: 'message.failed',
      occurredAt: new Date().toISOString(),
      data: { messageId: 'm1', conversationId: 'c1', status: 'failed' },
    });
    const res = await fetch(`${url}/callbacks`, { method: 'POST', body, headers: signed(body) });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({ code: 'unavailable' });
    // The outage is the guarded store's line to log, not one error per callback.
    expect(logs.filter((l) => l.level === 'error')).toEqual([]);
    store.down = false;
    const again = await fetch(`${url}/callbacks`, { method: 'POST', body, headers: signed(body) });
    expect(again.status).toBe(200);
  });

  it('should cut off a client that sends its headers too slowly', async () => {
    const { url } = await start();
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.write('POST /callbacks HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // One header byte every 100 ms: the request never completes by itself.
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write('X');
    }, 100);
    try {
      // headersMs is 1 s here: well before this deadline.
      expect(await waitUntil(() => closed, 15_000)).toBe(true);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });
});
