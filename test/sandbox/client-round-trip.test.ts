import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagingClient } from '../../src/api/client.js';
import { buildSendRequest, text } from '../../src/messages/index.js';
import { ADA, KEYS, startSandbox, type Harness } from './helpers.js';

describe('MessagingClient against the sandbox', () => {
  let h: Harness;
  let client: MessagingClient;
  beforeAll(async () => {
    h = await startSandbox();
    client = new MessagingClient({
      baseUrl: h.url,
      apiKey: KEYS.full,
      clock: h.clock,
      sleep: () => Promise.resolve(),
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it('should send, read back, list and iterate through the sandbox', async () => {
    const inbound = h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hello bot' });
    const result = await client.send(buildSendRequest(ADA, text('hello human')));
    expect(result.status).toBe('accepted');
    if (result.status !== 'accepted') return;
    expect(result.requestId).toBeDefined();
    h.sandbox.control.advance('2s');
    const message = await client.getMessage(result.messageId);
    expect(message.status).toBe('delivered');
    const page = await client.listConversations({ limit: 10 });
    expect(page.items.map((c) => c.id)).toContain(inbound.conversationId);
    const history = [];
    for await (const m of client.history(inbound.conversationId, { pageSize: 1 }))
      history.push(m.id);
    expect(history).toEqual([result.messageId, inbound.id]);
    const conversations = [];
    for await (const c of client.conversations({ pageSize: 1 })) conversations.push(c.id);
    expect(conversations).toEqual([inbound.conversationId]);
  });

  it('should surface admission errors as rejected sends with the code', async () => {
    const result = await client.send(buildSendRequest('+15551230002', text('no window')));
    expect(result.status).toBe('rejected');
    if (result.status === 'rejected') expect(result.error.code).toBe('service_window_closed');
  });

  it('should download ready media through the message download path', async () => {
    const inbound = h.sandbox.control.injectInbound({
      type: 'image',
      from: ADA,
      media: { readyAfterMs: 0, content: 'IMG' },
    });
    const download = await client.downloadMessageMedia(inbound);
    const chunks: Buffer[] = [];
    for await (const chunk of download.stream) chunks.push(Buffer.from(chunk as Uint8Array));
    await download.release();
    expect(Buffer.concat(chunks).toString()).toBe('IMG');
    expect(download.contentType).toContain('image/jpeg');
  });
});
