import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, ManualClock, type Sandbox } from '../../src/index.js';
import { Probe } from './conformance-probe.js';
import { SPEC_ERRORS, sendCases } from './conformance-spec.js';

/**
 * The conformance probe: the sandbox as a user starts it in a test (default
 * configuration, a `ManualClock` moved only by `POST /sandbox/clock/advance`), provisioned only through the `/sandbox` control routes docs/sandbox-control.md documents,
 * checked case by case against the spec's tables (parts 4, 5, 7 and 8). Nothing is
 * skipped; the last test asserts that every error row of part 7 was met.
 */

// Documented defaults (docs/sandbox-control.md, "Default config").
const DEFAULT_KEY = 'sk_sandbox_default_0123456789';
const ADA = '+15551230001';
const GRACE = '+15551230002';
const ALAN = '+15551230003';

const KEY = {
  read: 'pk_read_only_0001',
  send: 'pk_send_only_0001',
  media: 'pk_media_only_001',
  revoked: 'pk_revoked_00001',
  rotatedFrom: 'pk_rotated_00001',
  rotatedTo: 'pk_rotated_to_001',
  removed: 'pk_removed_00001',
  other: 'pk_other_num_0001',
  dash: 'pk_dashboard_0001',
  offline: 'pk_offline_00001',
  red: 'pk_quality_red_01',
  yellow: 'pk_quality_yel_01',
  pages: 'pk_pages_0000001',
  ws1: 'pk_workspace_0001',
  ws2: 'pk_workspace_0002',
  ws3: 'pk_workspace_0003',
} as const;

const CONTACT = {
  unavailable: '+15552000001',
  optedOut: '+15552000002',
  instanceRestricted: '+15552000003',
  marketingRestricted: '+15552000004',
  notAllowed: '+15552000005',
  silent: '+15552000006',
  owned: '+15552000007',
} as const;

describe('sandbox conformance probe (spec tables, provisioned through the control API)', () => {
  let sandbox: Sandbox;
  let p: Probe;
  const ids = {
    message: '',
    otherMessage: '',
    conversation: '',
    otherConversation: '',
    media: '',
    otherMedia: '',
    pendingMedia: '',
    failedMedia: '',
  };

  const inbound = (spec: Record<string, unknown>) =>
    p.control<{ message: { id: string; conversationId: string; media?: { id?: string } } }>(
      '/inbound',
      'POST',
      spec,
    );

  beforeAll(async () => {
    sandbox = createSandbox({ clock: new ManualClock() });
    const server = await sandbox.listen();
    p = new Probe(server.url, DEFAULT_KEY);
    await p.control('/reset', 'POST', { scope: 'all' });

    const numbers: [string, string, Record<string, unknown>][] = [
      ['p_other', '+15550001001', {}],
      ['p_dash', '+15550001002', { handling: 'dashboard' }],
      ['p_off', '+15550001003', { connected: false }],
      ['p_red', '+15550001004', { quality: 'red' }],
      ['p_yellow', '+15550001005', { quality: 'yellow' }],
      ['p_pages', '+15550001006', {}],
      ['p_ws1', '+15550001007', {}],
      ['p_ws2', '+15550001008', {}],
      ['p_ws3', '+15550001009', {}],
    ];
    for (const [id, phoneNumber, extra] of numbers)
      await p.control('/numbers', 'POST', { id, phoneNumber, ...extra });
    const keys: [string, string, string[]?][] = [
      [KEY.read, 'num_default', ['messages:read']],
      [KEY.send, 'num_default', ['messages:send']],
      [KEY.media, 'num_default', ['media:read']],
      [KEY.revoked, 'num_default'],
      [KEY.rotatedFrom, 'num_default'],
      [KEY.removed, 'num_default'],
      [KEY.other, 'p_other'],
      [KEY.dash, 'p_dash'],
      [KEY.offline, 'p_off'],
      [KEY.red, 'p_red'],
      [KEY.yellow, 'p_yellow'],
      [KEY.pages, 'p_pages'],
      [KEY.ws1, 'p_ws1'],
      [KEY.ws2, 'p_ws2'],
      [KEY.ws3, 'p_ws3'],
    ];
    for (const [key, number, scopes] of keys)
      await p.control('/keys', 'POST', { key, number, ...(scopes ? { scopes } : {}) });
    await p.control(`/keys/${KEY.revoked}`, 'PATCH', { state: 'revoked' });
    await p.control(`/keys/${KEY.rotatedFrom}/rotate`, 'POST', { key: KEY.rotatedTo });
    await p.control(`/keys/${KEY.removed}`, 'DELETE');

    const templates: Record<string, unknown>[] = [
      { name: 'probe_pending', language: 'en', status: 'pending' },
      { name: 'probe_rejected', language: 'en', status: 'rejected' },
      { name: 'probe_paused', language: 'en', status: 'paused' },
      { name: 'probe_yellow', language: 'en', quality: 'yellow' },
      { name: 'probe_red', language: 'en', quality: 'red' },
      { name: 'probe_marketing', language: 'en', category: 'marketing' },
      { name: 'probe_other_number', language: 'en', number: 'p_other' },
      {
        name: 'probe_params',
        language: 'en',
        components: [{ type: 'body', parameters: ['text', 'currency'] }],
      },
    ];
    for (const t of templates) await p.control('/templates', 'POST', t);

    const states: [string, string][] = [
      [CONTACT.unavailable, 'unavailable'],
      [CONTACT.optedOut, 'opted_out'],
      [CONTACT.instanceRestricted, 'instance_restricted'],
      [CONTACT.marketingRestricted, 'marketing_restricted'],
      [CONTACT.notAllowed, 'not_allowed'],
      [CONTACT.silent, 'active'],
      [CONTACT.owned, 'active'],
    ];
    for (const [phone, state] of states)
      await p.control(`/contacts/${encodeURIComponent(phone)}`, 'PUT', {
        name: `Contact ${state}`,
        state,
      });

    const first = await inbound({ type: 'text', from: ADA, text: 'hello' });
    ids.message = first.message.id;
    ids.conversation = first.message.conversationId;
    const other = await inbound({ type: 'text', from: ADA, text: 'hi other', number: 'p_other' });
    ids.otherMessage = other.message.id;
    ids.otherConversation = other.message.conversationId;
    const media = await inbound({
      type: 'image',
      from: ADA,
      media: { readyAfterMs: 0, content: 'm'.repeat(40_000) },
    });
    ids.media = media.message.media?.id ?? '';
    const otherMedia = await inbound({
      type: 'image',
      from: ADA,
      number: 'p_other',
      media: { readyAfterMs: 0 },
    });
    ids.otherMedia = otherMedia.message.media?.id ?? '';
    for (const phone of Object.values(CONTACT))
      await inbound({ type: 'text', from: phone, text: 'hi' });
    await inbound({ type: 'text', from: ADA, text: 'hi red', number: 'p_red' });
    await p.control(`/conversations/${encodeURIComponent(CONTACT.owned)}/take-over`, 'POST', {});
  });

  afterAll(async () => {
    await sandbox.close();
  });

  const send = (body: unknown, key?: string) =>
    p.call('/v1/messages', { body, ...(key ? { key } : {}) });
  const text = (to: string) => ({
    messaging_product: 'whatsapp',
    to,
    type: 'text',
    text: { body: 'hello' },
  });
  const template = (to: string, name: string, language = 'en', components?: unknown[]) => ({
    messaging_product: 'whatsapp',
    to,
    type: 'template',
    template: { name, language: { code: language }, ...(components ? { components } : {}) },
  });

  it('should authenticate every endpoint: token, key state, scope and the bound number (spec 5)', async () => {
    const endpoints = [
      { path: '/v1/conversations', scope: 'messages:read', narrow: KEY.send },
      {
        path: () => `/v1/conversations/${ids.conversation}/messages`,
        scope: 'messages:read',
        narrow: KEY.media,
      },
      { path: () => `/v1/messages/${ids.message}`, scope: 'messages:read', narrow: KEY.send },
      { path: () => `/v1/media/${ids.media}`, scope: 'media:read', narrow: KEY.read },
      { path: '/v1/messages', scope: 'messages:send', narrow: KEY.read, body: text(ADA) },
    ];
    for (const e of endpoints) {
      const path = typeof e.path === 'string' ? e.path : e.path();
      const call = (key: string | null, headers?: Record<string, string>) =>
        p.call(path, { key, ...(e.body ? { body: e.body } : {}), ...(headers ? { headers } : {}) });
      await p.freshBudgets();
      await p.expect(`${path} no Authorization`, await call(null), 401, 'unauthorized');
      await p.expect(
        `${path} Basic scheme`,
        await call(null, { authorization: 'Basic abc' }),
        401,
        'unauthorized',
      );
      await p.expect(
        `${path} empty bearer`,
        await call(null, { authorization: 'Bearer ' }),
        401,
        'unauthorized',
      );
      await p.expect(
        `${path} unknown key`,
        await call('pk_never_issued_1'),
        401,
        'invalid_api_key',
      );
      await p.expect(`${path} revoked key`, await call(KEY.revoked), 401, 'invalid_api_key');
      await p.expect(`${path} rotated key`, await call(KEY.rotatedFrom), 401, 'invalid_api_key');
      await p.expect(`${path} removed key`, await call(KEY.removed), 401, 'invalid_api_key');
      await p.expect(
        `${path} key without ${e.scope}`,
        await call(e.narrow),
        403,
        'insufficient_scope',
      );
      await p.expect(
        `${path} dashboard number`,
        await call(KEY.dash),
        409,
        'instance_not_api_managed',
      );
      await p.expect(
        `${path} disconnected number`,
        await call(KEY.offline),
        409,
        'instance_unavailable',
      );
      const okKey =
        e.scope === 'media:read' ? KEY.media : e.scope === 'messages:send' ? KEY.send : KEY.read;
      const ok = await call(okKey);
      await p.expect(`${path} key with ${e.scope}`, ok, e.body ? 202 : 200);
      await p.expect(`${path} rotation successor`, await call(KEY.rotatedTo), e.body ? 202 : 200);
    }
  });

  it('should refuse API keys on control and dashboard routes with 403 api_key_not_allowed', async () => {
    for (const path of [
      '/sandbox/config',
      '/sandbox/conversations',
      '/dashboard/inbox',
      '/dashboard/conversations/x/release',
    ]) {
      await p.expect(`${path} with a key`, await p.call(path), 403, 'api_key_not_allowed');
    }
    await p.expect(
      'POST /sandbox/keys with a key',
      await p.call('/sandbox/keys', { body: { number: 'num_default' } }),
      403,
      'api_key_not_allowed',
    );
  });

  it('should scope every read to the key number: unknown, other-number and malformed ids are 404', async () => {
    await p.freshBudgets();
    const cases: [string, string][] = [
      ['/v1/messages/msg_unknown', 'message_not_found'],
      [`/v1/messages/${ids.otherMessage}`, 'message_not_found'],
      ['/v1/messages/%E0%A4%A', 'message_not_found'],
      ['/v1/conversations/conv_unknown/messages', 'conversation_not_found'],
      [`/v1/conversations/${ids.otherConversation}/messages`, 'conversation_not_found'],
      ['/v1/conversations/%ZZ/messages', 'conversation_not_found'],
      ['/v1/media/med_unknown', 'media_not_found'],
      [`/v1/media/${ids.otherMedia}`, 'media_not_found'],
      ['/v1/media/%', 'media_not_found'],
    ];
    for (const [path, code] of cases) await p.expect(path, await p.call(path), 404, code);
    const read = await p.expect(
      'GET /v1/messages/:id',
      await p.call(`/v1/messages/${ids.message}`),
      200,
    );
    expect((read['message'] as { id: string }).id).toBe(ids.message);
    const otherKey = await p.call(`/v1/messages/${ids.otherMessage}`, { key: KEY.other });
    await p.expect('other number reads its own message', otherKey, 200);
  });

  it('should stream media with the spec headers, and 404 a media that is not ready', async () => {
    await p.freshBudgets();
    const res = await p.call(`/v1/media/${ids.media}`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    expect((await res.clone().text()).length).toBe(40_000);
    await p.expect('GET /v1/media/:id ready', res, 200);
    const pending = await inbound({
      type: 'image',
      from: GRACE,
      media: { readyAfterMs: 3_600_000 },
    });
    const failed = await inbound({
      type: 'document',
      from: GRACE,
      media: { readyAfterMs: 0, outcome: 'failed' },
    });
    const msg = await p.expect(
      'pending media projection',
      await p.call(`/v1/messages/${pending.message.id}`),
      200,
    );
    const projected = (msg['message'] as { media: { availability: string; id?: string } }).media;
    expect(projected.availability).toBe('pending');
    expect(projected.id).toBeUndefined();
    const failedMsg = await p.expect(
      'failed media projection',
      await p.call(`/v1/messages/${failed.message.id}`),
      200,
    );
    expect((failedMsg['message'] as { media: { availability: string } }).media.availability).toBe(
      'failed',
    );
    const list = (
      await p.control<{ items: { id: string; mediaId?: string }[] }>('/media/holds', 'GET')
    ).items;
    expect(list).toEqual([]);
  });

  it('should hold 8 media streams per key and number and refuse the 9th (spec 5, 8)', async () => {
    await p.freshBudgets();
    const { hold } = await p.control<{ hold: { id: string } }>('/media/holds', 'POST', {
      count: 8,
    });
    const open: Response[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await p.call(`/v1/media/${ids.media}`, { key: i < 4 ? DEFAULT_KEY : KEY.media });
      expect(res.status, `download ${i + 1}`).toBe(200);
      p.cases++;
      open.push(res);
    }
    await p.expect(
      '9th download, same key',
      await p.call(`/v1/media/${ids.media}`),
      429,
      'media_concurrency_exceeded',
    );
    await p.expect(
      '9th download, other key of the same number',
      await p.call(`/v1/media/${ids.media}`, { key: KEY.media }),
      429,
      'media_concurrency_exceeded',
    );
    await p.expect('reads go on while 8 streams are open', await p.call('/v1/conversations'), 200);
    await p.control(`/media/holds/${hold.id}`, 'DELETE');
    const bodies = await Promise.all(open.map((r) => r.text()));
    expect(bodies.every((b) => b.length === 40_000)).toBe(true);
    const again = await p.call(`/v1/media/${ids.media}`);
    await p.expect('download after the streams ended', again, 200);
  });

  it('should validate list parameters and cursors (spec 4.1, 4.2, 7)', async () => {
    await p.freshBudgets();
    const lists = [
      { path: '/v1/conversations', cursor: 'after', other: 'before' },
      { path: `/v1/conversations/${ids.conversation}/messages`, cursor: 'before', other: 'after' },
    ];
    for (const l of lists) {
      for (const limit of ['1', '100', '50'])
        await p.expect(`${l.path} limit=${limit}`, await p.call(`${l.path}?limit=${limit}`), 200);
      for (const limit of ['0', '101', '-1', '1.5', 'abc', '', '1e2', '%ZZ', '%E0'])
        await p.expect(
          `${l.path} limit=${limit}`,
          await p.call(`${l.path}?limit=${limit}`),
          400,
          'invalid_pagination',
        );
      for (const param of ['search=a', 'page=2', 'offset=10', `${l.other}=x`, 'limit=1&limit=2'])
        await p.expect(
          `${l.path} ?${param}`,
          await p.call(`${l.path}?${param}`),
          400,
          'invalid_pagination',
        );
      // Cursors: an id, junk, a forged shape, an encoded and a malformed percent-escape.
      for (const cursor of [
        ids.message,
        'abc',
        'eyJ9.AAAA',
        encodeURIComponent('%E0'),
        '%E0%A4%A',
        '%ZZ',
      ])
        await p.expect(
          `${l.path} ${l.cursor}=${cursor}`,
          await p.call(`${l.path}?${l.cursor}=${cursor}`),
          400,
          'invalid_cursor',
        );
    }
  });

  it('should page both lists newest first, each item exactly once, null cursor at the end', async () => {
    for (let i = 0; i < 7; i++) {
      await inbound({
        type: 'text',
        from: `+1555300000${i}`,
        text: `c${i}`,
        number: 'p_pages',
        ageMs: `${(7 - i) * 10}m`,
      });
    }
    for (let i = 0; i < 52; i++) {
      await inbound({
        type: 'text',
        from: '+15553000009',
        text: `m${i}`,
        number: 'p_pages',
        ageMs: `${200 - i}m`,
      });
    }
    const walk = async (path: string, cursor: string, limit: number | undefined) => {
      const seen: { id: string; at: string }[] = [];
      let next: string | null = null;
      let pages = 0;
      do {
        await p.freshBudgets();
        const q = [
          limit === undefined ? '' : `limit=${limit}`,
          next === null ? '' : `${cursor}=${encodeURIComponent(next)}`,
        ]
          .filter(Boolean)
          .join('&');
        const page = await p.expect(
          `${path}?${q}`,
          await p.call(`${path}${q ? `?${q}` : ''}`, { key: KEY.pages }),
          200,
        );
        const items = page['items'] as {
          id: string;
          lastMessageAt?: string;
          occurredAt?: string;
        }[];
        expect(items.length).toBeLessThanOrEqual(limit ?? 50);
        seen.push(
          ...items.map((it) => ({ id: it.id, at: it.lastMessageAt ?? it.occurredAt ?? '' })),
        );
        next = page['nextCursor'] as string | null;
        pages++;
      } while (next !== null && pages < 100);
      expect(new Set(seen.map((s) => s.id)).size).toBe(seen.length);
      const times = seen.map((s) => s.at);
      expect([...times].sort().reverse()).toEqual(times);
      return { count: seen.length, pages };
    };
    for (const limit of [1, 2, 3, 7, 8]) {
      const r = await walk('/v1/conversations', 'after', limit);
      expect(r.count).toBe(8);
      expect(r.pages).toBe(Math.ceil(8 / limit));
    }
    const listed = await p.control<{
      items: { id: string; phoneNumber: string; numberId: string }[];
    }>('/conversations', 'GET');
    const history = listed.items.find(
      (c) => c.numberId === 'p_pages' && c.phoneNumber === '+15553000009',
    )!;
    const path = `/v1/conversations/${history.id}/messages`;
    const byDefault = await walk(path, 'before', undefined);
    expect(byDefault).toEqual({ count: 52, pages: 2 });
    for (const limit of [5, 52, 100]) {
      const r = await walk(path, 'before', limit);
      expect(r.count).toBe(52);
    }
    // A cursor is bound to its list.
    await p.freshBudgets();
    const convPage = await p.expect(
      'conversations page',
      await p.call('/v1/conversations?limit=1', { key: KEY.pages }),
      200,
    );
    const convCursor = String(convPage['nextCursor']);
    await p.expect(
      'conversation cursor on a history',
      await p.call(`${path}?before=${encodeURIComponent(convCursor)}`, { key: KEY.pages }),
      400,
      'invalid_cursor',
    );
    const histPage = await p.expect(
      'history page',
      await p.call(`${path}?limit=1`, { key: KEY.pages }),
      200,
    );
    const histCursor = String(histPage['nextCursor']);
    const tampered = histCursor.slice(0, -1) + (histCursor.endsWith('A') ? 'B' : 'A');
    await p.expect(
      'tampered cursor',
      await p.call(`${path}?before=${encodeURIComponent(tampered)}`, { key: KEY.pages }),
      400,
      'invalid_cursor',
    );
    const otherHistory = listed.items.find(
      (c) => c.numberId === 'p_pages' && c.phoneNumber !== '+15553000009',
    )!;
    await p.expect(
      'history cursor on another history',
      await p.call(
        `/v1/conversations/${otherHistory.id}/messages?before=${encodeURIComponent(histCursor)}`,
        { key: KEY.pages },
      ),
      400,
      'invalid_cursor',
    );
    await p.expect(
      'cursor of another number',
      await p.call(`/v1/conversations?after=${encodeURIComponent(convCursor)}`),
      400,
      'invalid_cursor',
    );
  });

  it('should check every send limit at n (202) and n+1 (400 invalid_message) (spec 4.5, 8)', async () => {
    await inbound({ type: 'text', from: ALAN, text: 'window' });
    for (const c of sendCases(ALAN)) {
      await p.freshBudgets();
      const res = await send(c.body);
      await p.expect(c.name, res, c.valid ? 202 : 400, c.valid ? undefined : 'invalid_message');
    }
  });

  it('should limit the JSON body to 262,144 bytes as received, and answer encoding errors in the envelope', async () => {
    const json = JSON.stringify(text(ALAN));
    const pad = (n: number) => json + ' '.repeat(n - Buffer.byteLength(json));
    await p.freshBudgets();
    await p.expect(
      'body 262,144 bytes (whitespace padded)',
      await p.call('/v1/messages', { raw: pad(262_144) }),
      202,
    );
    await p.expect(
      'body 262,145 bytes (whitespace padded)',
      await p.call('/v1/messages', { raw: pad(262_145) }),
      400,
      'invalid_message',
    );
    await p.expect(
      'body 1 MiB (whitespace padded)',
      await p.call('/v1/messages', { raw: pad(1_048_576) }),
      400,
      'invalid_message',
    );
    await p.expect(
      'gzip body',
      await p.call('/v1/messages', {
        raw: gzipSync(json),
        headers: { 'content-encoding': 'gzip' },
      }),
      202,
    );
    await p.expect(
      'gzip body over the limit once decoded',
      await p.call('/v1/messages', {
        raw: gzipSync(pad(262_145)),
        headers: { 'content-encoding': 'gzip' },
      }),
      400,
      'invalid_message',
    );
    await p.expect(
      'unsupported Content-Encoding',
      await p.call('/v1/messages', { raw: json, headers: { 'content-encoding': 'compress' } }),
      400,
      'invalid_message',
    );
    await p.expect(
      'gzip header, plain bytes',
      await p.call('/v1/messages', { raw: json, headers: { 'content-encoding': 'gzip' } }),
      400,
      'invalid_message',
    );
    await p.expect(
      'charset not UTF-8',
      await p.call('/v1/messages', {
        raw: json,
        headers: { 'content-type': 'application/json; charset=utf-16' },
      }),
      400,
      'invalid_message',
    );
    await p.expect(
      'malformed JSON',
      await p.call('/v1/messages', { raw: '{"to":' }),
      400,
      'invalid_message',
    );
    await p.expect(
      'empty body',
      await p.call('/v1/messages', { method: 'POST', raw: '' }),
      400,
      'invalid_message',
    );
    const accepted = await p.call('/v1/messages', { body: text(ALAN) });
    expect(accepted.headers.get('x-service-request-id')).toMatch(/\S+/);
    const body = await p.expect('send response (2.5)', accepted, 202);
    expect(body).toMatchObject({ messaging_product: 'whatsapp', status: 'queued' });
    expect(typeof body['messageId']).toBe('string');
  });

  it('should apply every admission row of 4.5.5 with its part 7 code', async () => {
    await p.freshBudgets();
    const rows: [string, unknown, number, (string | undefined)?, string?][] = [
      ['text without an inbound message', text('+15559990001'), 409, 'service_window_closed'],
      ['approved template outside the window', template('+15559990001', 'hello_world'), 202],
      ['unknown template name', template(ADA, 'no_such_template'), 404, 'template_not_found'],
      [
        'template in another language',
        template(ADA, 'hello_world', 'fr'),
        404,
        'template_not_found',
      ],
      [
        'template of another number',
        template(ADA, 'probe_other_number'),
        404,
        'template_not_found',
      ],
      ['template of that number', template(ADA, 'probe_other_number'), 202, undefined, KEY.other],
      ['pending template', template(ADA, 'probe_pending'), 409, 'template_not_approved'],
      ['rejected template', template(ADA, 'probe_rejected'), 409, 'template_not_approved'],
      ['paused template', template(ADA, 'probe_paused'), 409, 'template_not_approved'],
      [
        'template parameters of the wrong kinds',
        template(ADA, 'probe_params', 'en', [
          { type: 'body', parameters: [{ type: 'text', text: 'a' }] },
        ]),
        400,
        'invalid_message',
      ],
      [
        'template parameters matching',
        template(ADA, 'probe_params', 'en', [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'a' },
              {
                type: 'currency',
                currency: { fallback_value: '$1', code: 'USD', amount_1000: 1000 },
              },
            ],
          },
        ]),
        202,
      ],
      [
        'currency without amount_1000',
        template(ADA, 'probe_params', 'en', [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'a' },
              { type: 'currency', currency: { fallback_value: '$1', code: 'USD' } },
            ],
          },
        ]),
        400,
        'invalid_message',
      ],
      ['human-owned conversation', text(CONTACT.owned), 409, 'conversation_owned_by_human'],
      [
        'human-owned conversation, template',
        template(CONTACT.owned, 'hello_world'),
        409,
        'conversation_owned_by_human',
      ],
      ['number quality red', text(ADA), 409, 'quality_blocked', KEY.red],
      ['template quality red', template(ADA, 'probe_red'), 409, 'quality_blocked'],
      [
        'template quality yellow outside the window',
        template('+15559990002', 'probe_yellow'),
        409,
        'quality_blocked',
      ],
      ['contact unavailable', text(CONTACT.unavailable), 409, 'contact_unavailable'],
      ['contact opted out', text(CONTACT.optedOut), 409, 'contact_opted_out'],
      [
        'contact instance restricted',
        text(CONTACT.instanceRestricted),
        409,
        'contact_instance_restricted',
      ],
      [
        'contact marketing restricted, marketing template',
        template(CONTACT.marketingRestricted, 'probe_marketing'),
        409,
        'contact_marketing_restricted',
      ],
      [
        'contact marketing restricted, utility template',
        template(CONTACT.marketingRestricted, 'hello_world'),
        202,
      ],
      ['contact marketing restricted, text', text(CONTACT.marketingRestricted), 202],
      ['another admission policy', text(CONTACT.notAllowed), 409, 'message_not_allowed'],
      ['active contact in the window', text(CONTACT.silent), 202],
    ];
    for (const [name, body, status, code, key] of rows) {
      await p.freshBudgets();
      await p.expect(name, await send(body, key), status, code);
    }
    // Yellow number: a business-initiated template is blocked, an in-window reply is not.
    await inbound({ type: 'text', from: ADA, text: 'hi yellow', number: 'p_yellow' });
    await p.expect('yellow number, in-window text', await send(text(ADA), KEY.yellow), 202);
    await p.expect(
      'yellow number, template outside the window',
      await send(template(GRACE, 'hello_world'), KEY.yellow),
      409,
      'quality_blocked',
    );
    // Release to API lets sends proceed again.
    await p.control(`/conversations/${encodeURIComponent(CONTACT.owned)}/release`, 'POST', {});
    await p.expect('released conversation', await send(text(CONTACT.owned)), 202);
    // An inbound message in the past (25 h ago) does not open the window.
    await inbound({ type: 'text', from: '+15559990003', text: 'old', ageMs: '25h' });
    await p.expect(
      'inbound 25 h ago',
      await send(text('+15559990003')),
      409,
      'service_window_closed',
    );
    await inbound({ type: 'text', from: '+15559990003', text: 'recent', ageMs: '23h59m' });
    await p.expect('inbound 23 h 59 min ago', await send(text('+15559990003')), 202);
  });

  it('should answer injected 503 faults with the envelope, Retry-After and retryAfterSeconds', async () => {
    await p.control('/faults', 'POST', {
      route: 'GET /v1/conversations',
      status: 503,
      retryAfterSeconds: 3,
    });
    const res = await p.call('/v1/conversations');
    expect(res.headers.get('retry-after')).toBe('3');
    const body = await p.expect('temporarily_unavailable', res, 503, 'temporarily_unavailable');
    expect(body['retryAfterSeconds']).toBe(3);
    await p.control('/faults', 'POST', {
      route: 'POST /v1/messages',
      status: 503,
      code: 'backlog_full',
    });
    await p.expect('backlog_full', await send(text(ALAN)), 503, 'backlog_full');
    await p.expect('after the faults', await p.call('/v1/conversations'), 200);
  });

  it('should enforce the send budgets: 20/s and 600/min per key and number, 1,200/min per workspace', async () => {
    for (const number of ['p_ws1', 'p_ws2', 'p_ws3'])
      await inbound({ type: 'text', from: ADA, text: 'hi', number });
    await p.freshBudgets();
    for (let i = 0; i < 20; i++)
      await p.expect(`burst send ${i + 1}`, await send(text(ADA), KEY.ws1), 202);
    const burst = await send(text(ADA), KEY.ws1);
    expect(burst.headers.get('retry-after')).toMatch(/^\d+$/);
    await p.expect('burst send 21', burst, 429, 'rate_limited');

    await p.freshBudgets();
    for (let second = 0; second < 30; second++) {
      for (const key of [KEY.ws1, KEY.ws2]) {
        const results = await Promise.all(Array.from({ length: 20 }, () => send(text(ADA), key)));
        for (const r of results) await p.expect(`sustained send, second ${second}`, r, 202);
      }
      await p.control('/clock/advance', 'POST', { by: '1s' });
    }
    const sustained = await send(text(ADA), KEY.ws1);
    expect(Number(sustained.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await p.expect('601st send in a minute on one key and number', sustained, 429, 'rate_limited');
    await p.expect(
      '1,201st send in a minute across the workspace',
      await send(text(ADA), KEY.ws3),
      429,
      'rate_limited',
    );
    await p.control('/clock/advance', 'POST', { by: '61s' });
    await p.expect('send after the minute', await send(text(ADA), KEY.ws3), 202);
  });

  it('should enforce the read budgets: 60/s and 3,000/min per key', async () => {
    await p.freshBudgets();
    for (let i = 0; i < 60; i++)
      await p.expect(
        `burst read ${i + 1}`,
        await p.call('/v1/conversations?limit=1', { key: KEY.ws1 }),
        200,
      );
    await p.expect(
      'burst read 61',
      await p.call('/v1/conversations?limit=1', { key: KEY.ws1 }),
      429,
      'rate_limited',
    );
    await p.freshBudgets();
    for (let second = 0; second < 50; second++) {
      const results = await Promise.all(
        Array.from({ length: 60 }, () => p.call('/v1/conversations?limit=1', { key: KEY.ws1 })),
      );
      for (const r of results) await p.expect(`sustained read, second ${second}`, r, 200);
      await p.control('/clock/advance', 'POST', { by: '1s' });
    }
    await p.expect(
      '3,001st read in a minute',
      await p.call('/v1/conversations?limit=1', { key: KEY.ws1 }),
      429,
      'rate_limited',
    );
    await p.expect(
      'other key unaffected',
      await p.call('/v1/conversations?limit=1', { key: KEY.ws2 }),
      200,
    );
  });

  it('should have met every error row of spec part 7 with its status', () => {
    const missing = Object.keys(SPEC_ERRORS).filter((code) => !p.codes.has(code));
    expect(missing).toEqual([]);
    console.info(
      `conformance probe: ${p.cases} checked responses (${p.names.size} distinct cases) passed, ${p.codes.size}/${Object.keys(SPEC_ERRORS).length} error codes covered`,
    );
  });
});
