import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conversation, Message } from '../../src/api/resources.js';
import { ADA, START, startSandbox, textTo, type Harness } from './helpers.js';

describe('sandbox control routes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox();
  });
  afterAll(async () => {
    await h.close();
  });

  const control = (path: string, body?: unknown, method?: string) =>
    h.call(`/sandbox${path}`, {
      key: null,
      ...(body === undefined ? {} : { body }),
      ...(method ? { method } : {}),
    });

  it('should inject every inbound type the spec allows', async () => {
    const specs = [
      { type: 'text', from: ADA, text: 'hi' },
      { type: 'interactive', from: ADA, optionId: 'menu.faq', label: 'FAQ', mode: 'LIST' },
      { type: 'image', from: ADA, caption: 'look' },
      { type: 'video', from: ADA },
      { type: 'audio', from: ADA },
      { type: 'document', from: ADA, media: { filename: 'a.pdf' } },
      {
        type: 'location',
        from: ADA,
        location: { latitude: 52.5, longitude: 13.4, name: 'Office' },
      },
      { type: 'contacts', from: ADA, contacts: [{ name: 'Bob', phones: ['+15551230002'] }] },
      { type: 'unsupported', from: ADA },
    ];
    for (const spec of specs) {
      const res = await control('/inbound', spec);
      expect(res.status, spec.type).toBe(201);
      const { message } = (await res.json()) as { message: unknown };
      expect(Message.parse(message)).toMatchObject({
        type: spec.type,
        direction: 'inbound',
        status: 'received',
      });
    }
  });

  it('should reject an invalid inbound message with 400', async () => {
    const res = await control('/inbound', { type: 'text', from: 'nope' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_request');
  });

  it('should take over and release a conversation and list conversations with state', async () => {
    const list = (await (await control('/conversations')).json()) as {
      items: { id: string; windowOpen: boolean }[];
    };
    const id = list.items[0]!.id;
    expect(list.items[0]!.windowOpen).toBe(true);
    const taken = await control(`/conversations/${id}/take-over`, {});
    expect(
      Conversation.parse(((await taken.json()) as { conversation: unknown }).conversation)
        .humanOwned,
    ).toBe(true);
    const released = await control(`/conversations/${id}/release`, {});
    expect(
      Conversation.parse(((await released.json()) as { conversation: unknown }).conversation)
        .humanOwned,
    ).toBe(false);
    expect((await control('/conversations/conv_nope/take-over', {})).status).toBe(404);
  });

  it('should advance the clock by a duration and close the window', async () => {
    const res = await control('/clock/advance', { by: '25h' });
    expect(((await res.json()) as { now: string }).now).toBe(new Date(h.clock.now()).toISOString());
    expect(h.clock.now()).toBeGreaterThanOrEqual(START + 25 * 3_600_000);
    const list = (await (await control('/conversations')).json()) as {
      items: { windowOpen: boolean }[];
    };
    expect(list.items[0]!.windowOpen).toBe(false);
    expect((await control('/clock/advance', { by: 'soon' })).status).toBe(400);
  });

  it('should force a status, list sends, set contact state and arm faults', async () => {
    await control('/inbound', { type: 'text', from: ADA, text: 'again' });
    const sent = await h.call('/v1/messages', { body: textTo(ADA) });
    const { messageId } = (await sent.json()) as { messageId: string };
    const forced = await control(`/messages/${messageId}/status`, {
      status: 'failed',
      failureCode: 'spam',
    });
    expect(((await forced.json()) as { message: { status: string } }).message.status).toBe(
      'failed',
    );
    const items = ((await (await control('/sent')).json()) as { items: { messageId: string }[] })
      .items;
    expect(items.map((s) => s.messageId)).toContain(messageId);
    expect(
      (await control(`/contacts/${encodeURIComponent(ADA)}`, { state: 'opted_out' })).status,
    ).toBe(200);
    expect((await h.call('/v1/messages', { body: textTo(ADA) })).status).toBe(409);
    expect((await control('/faults', { route: 'GET /v1/conversations', status: 500 })).status).toBe(
      201,
    );
    expect((await h.call('/v1/conversations')).status).toBe(500);
    expect((await control('/faults', { route: 'bad route' })).status).toBe(400);
  });

  it('should reset to an empty sandbox', async () => {
    expect((await control('/reset', {})).status).toBe(200);
    const list = (await (await control('/conversations')).json()) as { items: unknown[] };
    expect(list.items).toEqual([]);
    expect(((await (await control('/sent')).json()) as { items: unknown[] }).items).toEqual([]);
  });

  it('should answer unknown control routes with a JSON 404', async () => {
    const res = await control('/nothing');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('not_found');
  });
});
