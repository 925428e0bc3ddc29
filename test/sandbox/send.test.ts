import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope, MessageEnvelope, SendResponse } from '../../src/api/resources.js';
import { ADA, BOB, KEYS, startSandbox, templateTo, textTo, type Harness } from './helpers.js';

describe('sandbox POST /v1/messages', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => {
    h.sandbox.control.reset();
  });

  const send = (body: unknown, key?: string) =>
    h.call('/v1/messages', { body, ...(key ? { key } : {}) });
  const expectCode = async (res: Response, status: number, code: string) => {
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(status);
    expect(ErrorEnvelope.parse(body).code).toBe(code);
    return body as Record<string, unknown>;
  };
  const openWindow = (from = ADA) =>
    h.sandbox.control.injectInbound({ type: 'text', from, text: 'hi' });

  it('should accept an in-window text with 202, a queued send response and X-Service-Request-Id', async () => {
    openWindow();
    const res = await send(textTo(ADA));
    expect(res.status).toBe(202);
    const body = SendResponse.parse(await res.json());
    expect(body.status).toBe('queued');
    expect(res.headers.get('x-service-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-service-request-id')).not.toBe(body.messageId);
    const read = MessageEnvelope.parse(
      await (await h.call(`/v1/messages/${body.messageId}`)).json(),
    );
    expect(read.message).toMatchObject({
      direction: 'outbound',
      status: 'queued',
      type: 'text',
      text: { body: 'hello' },
    });
    expect(h.sandbox.control.sent().map((s) => s.messageId)).toEqual([body.messageId]);
  });

  it('should answer invalid_message naming the field for unknown fields, limits and media links', async () => {
    openWindow();
    const unknown = await expectCode(
      await send({ ...textTo(ADA), extra: 1 }),
      400,
      'invalid_message',
    );
    expect(Array.isArray(unknown['issues'])).toBe(true);
    const long = await expectCode(
      await send(textTo(ADA, 'x'.repeat(4097))),
      400,
      'invalid_message',
    );
    expect(String(long['message'])).toContain('4096');
    await expectCode(
      await send({
        messaging_product: 'whatsapp',
        to: ADA,
        type: 'image',
        image: { link: 'http://example.com/a.jpg' },
      }),
      400,
      'invalid_message',
    );
    await expectCode(
      await send({ ...textTo(ADA), messaging_product: 'other' }),
      400,
      'invalid_message',
    );
    await expectCode(await send(textTo('5551230001')), 400, 'invalid_message');
  });

  it('should accept the 4,096-character text body boundary', async () => {
    openWindow();
    expect((await send(textTo(ADA, 'x'.repeat(4096)))).status).toBe(202);
  });

  it('should answer invalid_message (JSON envelope) for malformed JSON and oversized bodies', async () => {
    await expectCode(
      await h.call('/v1/messages', { raw: '{"messaging_product":' }),
      400,
      'invalid_message',
    );
    const over = await expectCode(
      await send(textTo(ADA, 'x'.repeat(270_000))),
      400,
      'invalid_message',
    );
    expect(String(over['message'])).toContain('262144');
    const huge = await h.call('/v1/messages', {
      raw: JSON.stringify(textTo(ADA, 'x'.repeat(2_000_000))),
    });
    await expectCode(huge, 400, 'invalid_message');
  });

  it('should answer 409 service_window_closed without an inbound message, and after 24 hours', async () => {
    await expectCode(await send(textTo(ADA)), 409, 'service_window_closed');
    openWindow();
    h.clock.advance(24 * 3_600_000 - 1);
    expect((await send(textTo(ADA))).status).toBe(202);
    h.clock.advance(1);
    await expectCode(await send(textTo(ADA)), 409, 'service_window_closed');
  });

  it('should admit an approved template outside the window and to a new contact', async () => {
    expect((await send(templateTo(ADA, 'hello'))).status).toBe(202);
    expect((await send(templateTo('+447700900123', 'hello'))).status).toBe(202);
  });

  it('should answer template_not_found, template_not_approved and parameter mismatches', async () => {
    await expectCode(await send(templateTo(ADA, 'nope')), 404, 'template_not_found');
    await expectCode(
      await send({
        ...templateTo(ADA, 'hello'),
        template: { name: 'hello', language: { code: 'fr' } },
      }),
      404,
      'template_not_found',
    );
    await expectCode(await send(templateTo(ADA, 'draft')), 409, 'template_not_approved');
    const image = { type: 'image', image: { link: 'https://cdn.example.com/a.jpg' } };
    const good = [
      { type: 'header', parameters: [image] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'date_time', date_time: { fallback_value: 'May 1' } },
        ],
      },
    ];
    expect((await send(templateTo(ADA, 'reminder', good))).status).toBe(202);
    const swapped = [
      good[0],
      {
        type: 'body',
        parameters: [
          { type: 'date_time', date_time: { fallback_value: 'May 1' } },
          { type: 'text', text: 'Ada' },
        ],
      },
    ];
    const body = await expectCode(
      await send(templateTo(ADA, 'reminder', swapped)),
      400,
      'invalid_message',
    );
    expect(String(body['message'])).toContain('expects');
    await expectCode(await send(templateTo(ADA, 'reminder')), 400, 'invalid_message');
  });

  it('should answer conversation_owned_by_human while taken over and admit after release', async () => {
    const conv = openWindow().conversationId;
    h.sandbox.control.takeOver(conv);
    await expectCode(await send(textTo(ADA)), 409, 'conversation_owned_by_human');
    await expectCode(await send(templateTo(ADA, 'hello')), 409, 'conversation_owned_by_human');
    h.sandbox.control.release(conv);
    expect((await send(textTo(ADA))).status).toBe(202);
  });

  it('should block business-initiated templates on yellow quality but not an in-window reply', async () => {
    h.sandbox.control.setQuality('yellow', { number: 'num_a' });
    try {
      await expectCode(await send(templateTo(ADA, 'hello')), 409, 'quality_blocked');
      openWindow();
      expect((await send(textTo(ADA))).status).toBe(202);
      h.sandbox.control.setQuality('red', { number: 'num_a' });
      await expectCode(await send(textTo(ADA)), 409, 'quality_blocked');
    } finally {
      h.sandbox.control.setQuality('green', { number: 'num_a' });
    }
  });

  it('should block a template whose own quality is red', async () => {
    h.sandbox.control.setQuality('red', { template: 'hello' });
    try {
      await expectCode(await send(templateTo(ADA, 'hello')), 409, 'quality_blocked');
    } finally {
      h.sandbox.control.setQuality('green', { template: 'hello' });
    }
  });

  it.each([
    ['unavailable', 'contact_unavailable'],
    ['opted_out', 'contact_opted_out'],
    ['instance_restricted', 'contact_instance_restricted'],
    ['not_allowed', 'message_not_allowed'],
  ] as const)('should answer %s contacts with 409 %s', async (state, code) => {
    openWindow(BOB);
    h.sandbox.control.setContactState(BOB, state);
    await expectCode(await send(textTo(BOB)), 409, code);
  });

  it('should block only marketing templates for marketing-restricted contacts', async () => {
    h.sandbox.control.setContactState(BOB, 'marketing_restricted');
    await expectCode(await send(templateTo(BOB, 'promo')), 409, 'contact_marketing_restricted');
    expect((await send(templateTo(BOB, 'hello'))).status).toBe(202);
  });

  it('should check the window before the template, and ownership before quality and contact state', async () => {
    await expectCode(await send(textTo(BOB)), 409, 'service_window_closed');
    const conv = openWindow(BOB).conversationId;
    h.sandbox.control.takeOver(conv);
    h.sandbox.control.setContactState(BOB, 'opted_out');
    await expectCode(await send(textTo(BOB)), 409, 'conversation_owned_by_human');
  });

  it('should keep another number sends apart', async () => {
    openWindow();
    await expectCode(await send(textTo(ADA), KEYS.other), 409, 'service_window_closed');
  });
});
