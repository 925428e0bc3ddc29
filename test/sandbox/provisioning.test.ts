import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelope, MessagePage } from '../../src/api/resources.js';
import { SandboxControlError } from '../../src/sandbox/index.js';
import {
  ADA,
  BOB,
  KEYS,
  START,
  startSandbox,
  templateTo,
  textTo,
  type Harness,
} from './helpers.js';

const CAROL = '+15551230077';

describe('sandbox run-time provisioning', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.sandbox.control.reset();
    h.clock.set(START + 3_600_000);
  });

  const control = (path: string, method: string, body?: unknown) =>
    h.call(`/sandbox${path}`, { key: null, method, ...(body === undefined ? {} : { body }) });
  const codeOf = async (res: Response) => ErrorEnvelope.parse(await res.json()).code;

  it('should add a key with chosen scopes, then revoke, rotate and remove keys', async () => {
    const created = await control('/keys', 'POST', { number: 'num_a', scopes: ['messages:read'] });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: { key: string; state: string } };
    expect(key.state).toBe('active');
    expect((await h.call('/v1/conversations', { key: key.key })).status).toBe(200);
    expect(await codeOf(await h.call('/v1/messages', { key: key.key, body: textTo(ADA) }))).toBe(
      'insufficient_scope',
    );

    const rotated = await control(`/keys/${key.key}/rotate`, 'POST', {});
    expect(rotated.status).toBe(201);
    const successor = ((await rotated.json()) as { key: { key: string; scopes: string[] } }).key;
    expect(successor.scopes).toEqual(['messages:read']);
    expect(await codeOf(await h.call('/v1/conversations', { key: key.key }))).toBe(
      'invalid_api_key',
    );
    expect((await h.call('/v1/conversations', { key: successor.key })).status).toBe(200);

    await control(`/keys/${successor.key}`, 'PATCH', { state: 'revoked' });
    expect(await codeOf(await h.call('/v1/conversations', { key: successor.key }))).toBe(
      'invalid_api_key',
    );
    expect((await control(`/keys/${successor.key}`, 'DELETE')).status).toBe(200);
    expect(h.sandbox.control.keys().some((k) => k.key === successor.key)).toBe(false);
    expect((await control(`/keys/${successor.key}`, 'DELETE')).status).toBe(404);
    expect((await control('/keys', 'POST', { number: 'num_nope' })).status).toBe(404);
    expect((await control('/keys', 'POST', { key: KEYS.full, number: 'num_a' })).status).toBe(409);
    expect((await control('/keys', 'POST', { number: 'num_a', scopes: ['admin'] })).status).toBe(
      400,
    );
  });

  it('should keep a key bound to its number (no number change)', async () => {
    const res = await control(`/keys/${KEYS.full}`, 'PATCH', { number: 'num_b' });
    expect(res.status).toBe(400);
  });

  it('should add numbers in every handling, connection and quality, and change or remove them', async () => {
    const add = async (id: string, extra: Record<string, unknown>) => {
      expect(
        (
          await control('/numbers', 'POST', {
            id,
            phoneNumber: `+1555000${id.length}77${id.length}`,
            ...extra,
          })
        ).status,
      ).toBe(201);
      return (await (await control('/keys', 'POST', { number: id })).json()) as {
        key: { key: string };
      };
    };
    const dash = await add('n_dash', { handling: 'dashboard' });
    expect(await codeOf(await h.call('/v1/conversations', { key: dash.key.key }))).toBe(
      'instance_not_api_managed',
    );
    const off = await add('n_offline', { connected: false });
    expect(await codeOf(await h.call('/v1/conversations', { key: off.key.key }))).toBe(
      'instance_unavailable',
    );
    await control('/numbers/n_offline', 'PATCH', { connected: true, quality: 'red' });
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hi', number: 'n_offline' });
    expect(
      await codeOf(await h.call('/v1/messages', { key: off.key.key, body: textTo(ADA) })),
    ).toBe('quality_blocked');
    expect((await control('/numbers/n_dash', 'DELETE')).status).toBe(409);
    await control(`/keys/${dash.key.key}`, 'DELETE');
    expect((await control('/numbers/n_dash', 'DELETE')).status).toBe(200);
    expect((await control('/numbers', 'POST', { id: 'n_bad', phoneNumber: '555' })).status).toBe(
      400,
    );
  });

  it('should add templates in any status, change them and remove them', async () => {
    const created = await control('/templates', 'POST', {
      name: 'shipping',
      language: 'de',
      status: 'pending',
      components: [{ type: 'body', parameters: ['text'] }],
    });
    expect(created.status).toBe(201);
    const send = () =>
      h.call('/v1/messages', {
        body: {
          ...templateTo(ADA, 'shipping', [
            { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
          ]),
          template: {
            name: 'shipping',
            language: { code: 'de' },
            components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }],
          },
        },
      });
    expect(await codeOf(await send())).toBe('template_not_approved');
    await control('/templates/shipping/de', 'PATCH', { status: 'approved' });
    expect((await send()).status).toBe(202);
    await control('/templates/shipping/de', 'PATCH', { components: [{ type: 'body' }] });
    expect(await codeOf(await send())).toBe('invalid_message');
    expect((await control('/templates/shipping/de', 'DELETE')).status).toBe(200);
    expect(await codeOf(await send())).toBe('template_not_found');
    expect((await control('/templates/shipping/de', 'PATCH', { status: 'approved' })).status).toBe(
      404,
    );
  });

  it('should provision contacts that survive a reset, change them and forget them', async () => {
    const put = await control(`/contacts/${encodeURIComponent(CAROL)}`, 'PUT', {
      name: 'Carol',
      state: 'opted_out',
    });
    expect(put.status).toBe(200);
    expect(await codeOf(await h.call('/v1/messages', { body: templateTo(CAROL, 'hello') }))).toBe(
      'contact_opted_out',
    );
    h.sandbox.control.reset();
    expect(await codeOf(await h.call('/v1/messages', { body: templateTo(CAROL, 'hello') }))).toBe(
      'contact_opted_out',
    );
    await control(`/contacts/${encodeURIComponent(CAROL)}`, 'PATCH', {
      state: 'active',
      failureCode: 'undeliverable',
    });
    expect((await h.call('/v1/messages', { body: templateTo(CAROL, 'hello') })).status).toBe(202);
    h.sandbox.control.advance('2s');
    expect(h.sandbox.control.sent().length).toBe(1);
    const read = await h.call(`/v1/messages/${h.sandbox.control.sent()[0]!.messageId}`);
    expect(((await read.json()) as { message: { status: string } }).message.status).toBe('failed');
    const conversations = h.sandbox.control.conversations();
    expect(conversations[0]?.contactName).toBe('Carol');
    expect((await control(`/contacts/${encodeURIComponent(CAROL)}`, 'DELETE')).status).toBe(200);
    expect(h.sandbox.control.contacts().some((c) => c.phoneNumber === CAROL)).toBe(false);
    expect(h.sandbox.control.conversations()[0]?.contactId).toBe(conversations[0]?.contactId);
    expect((await control('/contacts/12345', 'PUT', { name: 'X' })).status).toBe(400);
    expect((await control('/contacts/not-a-phone', 'POST', { state: 'active' })).status).toBe(400);
    expect(() => h.sandbox.control.setContactState('555', 'active')).toThrow(SandboxControlError);
  });

  it('should record inbound messages in the past (occurredAt, ageMs) without opening an expired window', async () => {
    const now = h.clock.now();
    const old = h.sandbox.control.injectInbound({
      type: 'text',
      from: BOB,
      text: 'yesterday',
      occurredAt: new Date(now - 25 * 3_600_000).toISOString(),
    });
    expect(old.occurredAt).toBe(new Date(now - 25 * 3_600_000).toISOString());
    expect(await codeOf(await h.call('/v1/messages', { body: textTo(BOB) }))).toBe(
      'service_window_closed',
    );
    h.sandbox.control.injectInbound({ type: 'text', from: BOB, text: 'recent', ageMs: '23h' });
    expect((await h.call('/v1/messages', { body: textTo(BOB) })).status).toBe(202);
    h.sandbox.control.injectInbound({
      type: 'text',
      from: BOB,
      text: 'older',
      ageMs: 30 * 3_600_000,
    });
    const conversation = h.sandbox.control.conversations().find((c) => c.phoneNumber === BOB)!;
    const page = MessagePage.parse(
      await (await h.call(`/v1/conversations/${conversation.id}/messages`)).json(),
    );
    expect(page.items.map((m) => `${m.direction}:${m.text?.body ?? ''}`)).toEqual([
      'outbound:hello',
      'inbound:recent',
      'inbound:yesterday',
      'inbound:older',
    ]);
    expect(page.items.map((m) => m.text?.body)).toEqual(['hello', 'recent', 'yesterday', 'older']);
    expect(conversation.lastMessage?.direction).toBe('outbound');
    for (const bad of [
      { occurredAt: new Date(now + 1_000).toISOString() },
      { ageMs: 'soon' },
      { ageMs: 1, occurredAt: new Date(now).toISOString() },
      { ageMs: '4000d' },
    ]) {
      const res = await control('/inbound', 'POST', { type: 'text', from: BOB, text: 'x', ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('should reset only the scope asked for', async () => {
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hi' });
    for (let i = 0; i < 20; i++) await h.call('/v1/messages', { body: textTo(ADA) });
    expect((await h.call('/v1/messages', { body: textTo(ADA) })).status).toBe(429);
    h.sandbox.control.addFault({ route: 'GET /v1/media/:id', status: 503 });
    const rate = await control('/reset', 'POST', { scope: 'rate-limits' });
    expect(await rate.json()).toEqual({ ok: true, scope: 'rate-limits' });
    expect((await h.call('/v1/messages', { body: textTo(ADA) })).status).toBe(202);
    expect(h.sandbox.control.sent()).toHaveLength(21);
    expect(h.sandbox.control.conversations()).toHaveLength(1);
    await control('/reset', 'POST', { scope: 'conversations' });
    expect(h.sandbox.control.conversations()).toHaveLength(0);
    expect(h.sandbox.control.sent()).toHaveLength(0);
    expect((await (await control('/faults', 'GET')).json()) as { items: unknown[] }).toMatchObject({
      items: [{ remaining: 1 }],
    });
    await control('/reset', 'POST', { scope: 'faults' });
    expect(
      ((await (await control('/faults', 'GET')).json()) as { items: unknown[] }).items,
    ).toEqual([]);
    expect((await control('/reset', 'POST', { scope: 'everything' })).status).toBe(400);
    expect((await control('/reset', 'POST')).status).toBe(200);
  });
});
