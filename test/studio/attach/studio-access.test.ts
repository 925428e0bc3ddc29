import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEV_BOT } from '../../../src/cli/dev-command.js';
import { openAttachedStore } from '../../../src/studio/attach/attach-store.js';
import {
  startAttachedStudio,
  type AttachedStudio,
} from '../../../src/studio/attach/attached-studio.js';
import {
  SESSION_COOKIE,
  isLoopback,
  resolveStudioAccess,
  sameSecret,
} from '../../../src/studio/attach/studio-access.js';
import type { Logger } from '../../../src/log/logger.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';

const TOKEN = 'a-long-random-studio-secret-0123';

describe('resolveStudioAccess', () => {
  it('should bind to 127.0.0.1 without a token by default', () => {
    expect(resolveStudioAccess({}, {})).toEqual({
      status: 'ok',
      access: { host: '127.0.0.1', token: undefined },
    });
  });

  it('should refuse a host other machines reach without a token, saying how to fix it', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'studio.example.com']) {
      const r = resolveStudioAccess({ host }, {});
      expect(r).toEqual({
        status: 'invalid',
        message: `--host ${host} lets other machines reach the studio: it needs a token; pass --token <secret> or set STUDIO_TOKEN (at least 16 characters), or bind to 127.0.0.1`,
      });
    }
  });

  it('should take the token from --token, else STUDIO_TOKEN, and refuse a short one', () => {
    expect(resolveStudioAccess({ host: '0.0.0.0' }, { STUDIO_TOKEN: TOKEN })).toEqual({
      status: 'ok',
      access: { host: '0.0.0.0', token: TOKEN },
    });
    expect(resolveStudioAccess({ host: '0.0.0.0', token: TOKEN }, { STUDIO_TOKEN: 'x' })).toEqual({
      status: 'ok',
      access: { host: '0.0.0.0', token: TOKEN },
    });
    // 16 characters: accepted; 15: refused.
    expect(resolveStudioAccess({ token: 'x'.repeat(16) }, {}).status).toBe('ok');
    expect(resolveStudioAccess({ token: 'x'.repeat(15) }, {})).toEqual({
      status: 'invalid',
      message:
        'the studio token (--token) must be at least 16 characters (use a random secret, e.g. openssl rand -hex 24)',
    });
    expect(resolveStudioAccess({}, { STUDIO_TOKEN: 'short' })).toMatchObject({
      message: expect.stringMatching(/^the studio token \(STUDIO_TOKEN\) must be/) as unknown,
    });
  });

  it('should know loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', 'example.com'])
      expect(isLoopback(h), h).toBe(false);
    expect(sameSecret(TOKEN, TOKEN)).toBe(true);
    expect(sameSecret(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(sameSecret('', TOKEN)).toBe(false);
  });
});

describe('the attached studio with a token', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-attach-token-'));
  const path = join(dir, 'state.db');
  let studio: AttachedStudio;
  const logged: string[] = [];
  beforeAll(async () => {
    const store = new SqliteStore({ path, backgroundCheckpoints: false });
    await store.putConversation('c1', { not: 'a conversation' }, 0);
    await store.close();
    const log = (level: string) => (message: string, fields?: unknown) =>
      void logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
    const logger: Logger = {
      error: log('error'),
      warn: log('warn'),
      info: log('info'),
      debug: log('debug'),
      child: () => logger,
    };
    studio = await startAttachedStudio({
      bot: DEFAULT_DEV_BOT,
      store: await openAttachedStore({ kind: 'sqlite', path }),
      access: { host: '127.0.0.1', token: TOKEN },
      logger,
    });
  }, 60_000);
  afterAll(async () => {
    await studio?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (route: string, headers: Record<string, string> = {}) =>
    fetch(`${studio.url}${route.replace(/^\//, '')}`, { headers, redirect: 'manual' });

  it('should refuse the page, its modules, the API and the event stream without the token', async () => {
    for (const route of ['/', '/app/app.js', '/vendor/preact.mjs', '/api/state', '/api/events']) {
      const res = await get(route);
      expect(res.status, route).toBe(401);
      expect(((await res.json()) as { error: string }).error).toMatch(/needs its token/);
    }
    for (const auth of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, 'Bearer '])
      expect((await get('/api/state', { Authorization: auth })).status, auth).toBe(401);
    expect((await get(`/?token=${TOKEN}x`)).status).toBe(401);
    expect((await get('/api/state', { Cookie: `${SESSION_COOKIE}=${TOKEN}` })).status).toBe(401);
  });

  it('should let the bearer token through, and unreadable documents not stop the page', async () => {
    const res = await get('/api/state', { Authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { attached: { unreadable: string[] }; customers: unknown[] };
    expect(body.customers).toEqual([]);
    expect(body.attached.unreadable).toHaveLength(1);
    expect(body.attached.unreadable[0]).toMatch(/^conversation c1: /);
  });

  it('should turn ?token= into a session cookie (without the token) and drop it from the address', async () => {
    const res = await get(`/?token=${TOKEN}&x=1`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/?x=1');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(
      new RegExp(`^${SESSION_COOKIE}=[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Strict$`),
    );
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0] ?? '';
    expect((await get('/', { Cookie: session })).status).toBe(200);
    expect((await get('/app/app.js', { Cookie: `other=1; ${session}` })).status).toBe(200);
    // The live event stream carries the cookie too (EventSource cannot send headers).
    const first = await new Promise<string>((resolve, reject) => {
      const req = request(`${studio.url}api/events`, { headers: { Cookie: session } }, (r) => {
        r.once('data', (chunk: Buffer) => {
          resolve(`${r.statusCode} ${chunk.toString()}`);
          req.destroy();
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(first).toMatch(/^200 retry: 1000\nevent: hello/);
  });

  it('should never log the token', () => {
    expect(logged.join('\n')).not.toContain(TOKEN);
  });
});
