import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConversationPage,
  ErrorEnvelope,
  MessageEnvelope,
  MessagePage,
} from '../../src/api/resources.js';
import { ADA, BOB, KEYS, startSandbox, type Harness } from './helpers.js';

describe('sandbox read endpoints and pagination', () => {
  let h: Harness;
  let adaConversation: string;
  beforeAll(async () => {
    h = await startSandbox();
    for (let i = 0; i < 5; i++) {
      h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: `ada ${i}` });
      h.clock.advance(1_000);
    }
    h.sandbox.control.injectInbound({ type: 'text', from: BOB, text: 'bob' });
    h.clock.advance(1_000);
    for (let i = 0; i < 3; i++) {
      h.sandbox.control.injectInbound({ type: 'text', from: `+1555999000${i}`, text: 'hi' });
      h.clock.advance(1_000);
    }
    h.sandbox.control.injectInbound({
      type: 'text',
      from: BOB,
      text: 'other number',
      number: 'num_b',
    });
    adaConversation = h.sandbox.control.conversations().find((c) => c.phoneNumber === ADA)!.id;
  });
  afterAll(async () => {
    await h.close();
  });

  const errorCode = async (res: Response) => ErrorEnvelope.parse(await res.json()).code;

  it('should list only the key number conversations, latest message first', async () => {
    const res = await h.call('/v1/conversations');
    expect(res.status).toBe(200);
    const page = ConversationPage.parse(await res.json());
    expect(page.items).toHaveLength(5);
    expect(page.items[0]!.phoneNumber).toBe('+15559990002');
    expect(page.items.at(-1)!.phoneNumber).toBe(ADA);
    expect(page.nextCursor).toBeNull();
    const times = page.items.map((c) => Date.parse(c.lastMessageAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page.items.every((c) => c.lastMessage !== null && c.humanOwned === false)).toBe(true);
  });

  it('should page conversations with opaque after cursors and no duplicates', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor === null ? '' : `&after=${encodeURIComponent(cursor)}`;
      const page = ConversationPage.parse(
        await (await h.call(`/v1/conversations?limit=2${q}`)).json(),
      );
      seen.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
  });

  it('should page history newest first with before cursors', async () => {
    const first = MessagePage.parse(
      await (await h.call(`/v1/conversations/${adaConversation}/messages?limit=3`)).json(),
    );
    expect(first.items.map((m) => m.text?.body)).toEqual(['ada 4', 'ada 3', 'ada 2']);
    expect(first.nextCursor).not.toBeNull();
    const second = MessagePage.parse(
      await (
        await h.call(
          `/v1/conversations/${adaConversation}/messages?limit=3&before=${encodeURIComponent(first.nextCursor!)}`,
        )
      ).json(),
    );
    expect(second.items.map((m) => m.text?.body)).toEqual(['ada 1', 'ada 0']);
    expect(second.nextCursor).toBeNull();
  });

  it('should default limit to 50 and accept 1 and 100', async () => {
    expect((await h.call('/v1/conversations?limit=1')).status).toBe(200);
    expect((await h.call('/v1/conversations?limit=100')).status).toBe(200);
    const page = ConversationPage.parse(await (await h.call('/v1/conversations?limit=1')).json());
    expect(page.items).toHaveLength(1);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=abc',
    'limit=1.5',
    'limit=-1',
    'limit=',
    'search=x',
    'page=2',
    'offset=10',
    'before=x',
    'limit=1&limit=2',
  ])('should answer 400 invalid_pagination for %s on the conversation list', async (query) => {
    const res = await h.call(`/v1/conversations?${query}`);
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe('invalid_pagination');
  });

  it('should answer 400 invalid_pagination for search on history', async () => {
    const res = await h.call(`/v1/conversations/${adaConversation}/messages?search=x`);
    expect(await errorCode(res)).toBe('invalid_pagination');
  });

  it('should reject forged, tampered and cross-list cursors with 400 invalid_cursor', async () => {
    const list = ConversationPage.parse(await (await h.call('/v1/conversations?limit=1')).json());
    const history = MessagePage.parse(
      await (await h.call(`/v1/conversations/${adaConversation}/messages?limit=1`)).json(),
    );
    const bobConversation = list.items[0]!.id;
    const forged = Buffer.from(
      JSON.stringify({ list: `history:${adaConversation}`, at: Date.now(), seq: 1 }),
    ).toString('base64url');
    const tampered = `${history.nextCursor!.slice(0, -2)}AA`;
    const cases = [
      `/v1/conversations/${adaConversation}/messages?before=${forged}`,
      `/v1/conversations/${adaConversation}/messages?before=${encodeURIComponent(tampered)}`,
      `/v1/conversations/${adaConversation}/messages?before=${history.items[0]!.id}`,
      `/v1/conversations?after=${encodeURIComponent(history.nextCursor!)}`,
      `/v1/conversations/${bobConversation}/messages?before=${encodeURIComponent(history.nextCursor!)}`,
      `/v1/conversations/${adaConversation}/messages?before=${encodeURIComponent(list.nextCursor!)}`,
    ];
    for (const path of cases) {
      const res = await h.call(path);
      expect(res.status, path).toBe(400);
      expect(await errorCode(res)).toBe('invalid_cursor');
    }
  });

  it('should read one message and scope it to the key number', async () => {
    const history = MessagePage.parse(
      await (await h.call(`/v1/conversations/${adaConversation}/messages?limit=1`)).json(),
    );
    const id = history.items[0]!.id;
    const res = await h.call(`/v1/messages/${id}`);
    expect(res.status).toBe(200);
    const { message } = MessageEnvelope.parse(await res.json());
    expect(message).toMatchObject({ id, direction: 'inbound', status: 'received', type: 'text' });
    const other = await h.call(`/v1/messages/${id}`, { key: KEYS.other });
    expect(other.status).toBe(404);
    expect(await errorCode(other)).toBe('message_not_found');
  });

  it('should answer conversation_not_found for another number conversation or an unknown id', async () => {
    for (const [path, key] of [
      [`/v1/conversations/${adaConversation}/messages`, KEYS.other],
      ['/v1/conversations/conv_unknown/messages', KEYS.full],
    ] as const) {
      const res = await h.call(path, { key });
      expect(res.status).toBe(404);
      expect(await errorCode(res)).toBe('conversation_not_found');
    }
  });

  it('should answer message_not_found for an unknown message', async () => {
    const res = await h.call('/v1/messages/msg_nope');
    expect(await errorCode(res)).toBe('message_not_found');
  });

  it('should answer unknown routes with a JSON envelope', async () => {
    const res = await h.call('/v1/nothing');
    expect(res.status).toBe(404);
    expect(ErrorEnvelope.safeParse(await res.json()).success).toBe(true);
  });
});
