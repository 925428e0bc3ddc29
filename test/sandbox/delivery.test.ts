import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CallbackEvent,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyCallback,
} from '../../src/api/callbacks.js';
import { MessageEnvelope, MessagePage, SendResponse } from '../../src/api/resources.js';
import { ADA, BOB, START, eventually, startSandbox, textTo, type Harness } from './helpers.js';

interface Received {
  raw: Buffer;
  signature: string | undefined;
  timestamp: string | undefined;
}

const SECRET = 'whsec_test_secret';

describe('sandbox delivery schedule and callbacks', () => {
  let h: Harness;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  let failNext = 0;

  beforeAll(async () => {
    receiver = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (failNext > 0) {
          failNext--;
          res.statusCode = 500;
          res.end();
          return;
        }
        received.push({
          raw: Buffer.concat(chunks),
          signature: req.headers[SIGNATURE_HEADER] as string | undefined,
          timestamp: req.headers[TIMESTAMP_HEADER] as string | undefined,
        });
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
    h = await startSandbox({ callback: { url: receiverUrl, secret: SECRET, retryBaseMs: 5 } });
  });
  afterAll(async () => {
    await h.close();
    await new Promise((r) => receiver.close(r));
  });
  beforeEach(async () => {
    await h.sandbox.control.callbacksIdle();
    h.sandbox.control.reset();
    received.length = 0;
    failNext = 0;
  });

  const events = () => received.map((r) => CallbackEvent.parse(JSON.parse(r.raw.toString('utf8'))));
  const sendText = async (to = ADA) => {
    h.sandbox.control.injectInbound({ type: 'text', from: to, text: 'hi' });
    const res = await h.call('/v1/messages', { body: textTo(to) });
    expect(res.status).toBe(202);
    return SendResponse.parse(await res.json()).messageId;
  };
  const statusOf = async (id: string) =>
    MessageEnvelope.parse(await (await h.call(`/v1/messages/${id}`)).json()).message;

  it('should move an accepted message queued -> sent -> delivered -> read on the sandbox clock', async () => {
    const id = await sendText();
    expect((await statusOf(id)).status).toBe('queued');
    h.clock.advance(1_000);
    expect((await statusOf(id)).status).toBe('sent');
    h.clock.advance(1_000);
    expect((await statusOf(id)).status).toBe('delivered');
    h.clock.advance(3_000);
    expect((await statusOf(id)).status).toBe('read');
  });

  it('should stop at delivered for a contact that does not read', async () => {
    const id = await sendText(BOB);
    h.sandbox.control.advance('1h');
    expect((await statusOf(id)).status).toBe('delivered');
  });

  it('should fail messages to a failing contact with a failureCode and emit message.failed', async () => {
    const id = await sendText('+15551230009');
    h.sandbox.control.advance('2s');
    const message = await statusOf(id);
    expect(message).toMatchObject({ status: 'failed', failureCode: 'undeliverable' });
    await h.sandbox.control.callbacksIdle();
    const failed = events().filter((e) => e.type === 'message.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({
      messageId: id,
      status: 'failed',
      failureCode: 'undeliverable',
    });
  });

  it('should force a status and failure through the control API', async () => {
    const id = await sendText();
    h.sandbox.control.setStatus(id, 'failed', 'provider_rejected');
    expect(await statusOf(id)).toMatchObject({
      status: 'failed',
      failureCode: 'provider_rejected',
    });
    h.sandbox.control.advance('1m');
    expect((await statusOf(id)).status).toBe('failed');
  });

  it('should deliver signed callbacks that verify and parse, in order per conversation', async () => {
    const id = await sendText();
    h.sandbox.control.advance('10s');
    await h.sandbox.control.callbacksIdle();
    for (const r of received) {
      const verdict = verifyCallback({
        secret: SECRET,
        rawBody: r.raw,
        signature: r.signature,
        timestamp: r.timestamp,
        nowMs: h.clock.now(),
      });
      expect(verdict.status).toBe('valid');
    }
    const kinds = events().map((e) =>
      e.type === 'message.status' ? `status:${e.data.status}` : e.type,
    );
    expect(kinds).toEqual(['message.received', 'status:sent', 'status:delivered', 'status:read']);
    const statusEvents = events().filter((e) => e.type === 'message.status');
    expect(statusEvents.every((e) => e.data.messageId === id)).toBe(true);
    const wrong = verifyCallback({
      secret: 'other',
      rawBody: received[0]!.raw,
      signature: received[0]!.signature,
      timestamp: received[0]!.timestamp,
      nowMs: h.clock.now(),
    });
    expect(wrong.status).toBe('invalid');
  });

  it('should retry a failing receiver with the same event id', async () => {
    failNext = 2;
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'retry me' });
    await h.sandbox.control.callbacksIdle();
    expect(events()).toHaveLength(1);
    const attempts = h.sandbox.control.callbackAttempts();
    expect(attempts.map((a) => a.ok)).toEqual([false, false, true]);
    expect(new Set(attempts.map((a) => a.eventId)).size).toBe(1);
    expect(attempts[0]!.eventId).toBe(events()[0]!.id);
  });

  it('should emit conversation.ownership on take-over and release', async () => {
    const conv = h.sandbox.control.injectInbound({
      type: 'text',
      from: ADA,
      text: 'x',
    }).conversationId;
    h.sandbox.control.takeOver(conv);
    h.sandbox.control.release(conv);
    await h.sandbox.control.callbacksIdle();
    const ownership = events().filter((e) => e.type === 'conversation.ownership');
    expect(ownership.map((e) => e.data)).toEqual([
      { conversationId: conv, humanOwned: true },
      { conversationId: conv, humanOwned: false },
    ]);
  });

  it('should move inbound media pending -> ready and serve it with the media headers', async () => {
    const message = h.sandbox.control.injectInbound({
      type: 'document',
      from: ADA,
      media: { content: 'PDFDATA', filename: 'inv.pdf' },
    });
    expect(message.media).toMatchObject({ availability: 'pending' });
    expect(message.media?.downloadPath).toBeUndefined();
    h.clock.advance(2_000);
    const page = MessagePage.parse(
      await (await h.call(`/v1/conversations/${message.conversationId}/messages`)).json(),
    );
    const media = page.items[0]!.media!;
    expect(media.availability).toBe('ready');
    expect(media.downloadPath).toBe(`/v1/media/${media.id!}`);
    const res = await h.call(media.downloadPath!);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('content-type')).toContain('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('inv.pdf');
    expect(await res.text()).toBe('PDFDATA');
  });

  it('should report unavailable media and refuse its download', async () => {
    const message = h.sandbox.control.injectInbound({
      type: 'image',
      from: ADA,
      media: { outcome: 'unavailable', readyAfterMs: 0 },
    });
    expect(message.media).toEqual(expect.objectContaining({ availability: 'unavailable' }));
    const res = await h.call('/v1/media/med_unknown');
    expect(res.status).toBe(404);
  });

  it('should deliver duplicates at duplicateRate 1 with the same id', async () => {
    h.sandbox.control.setCallback({ url: receiverUrl, secret: SECRET, duplicateRate: 1 });
    try {
      h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'dup' });
      await h.sandbox.control.callbacksIdle();
      await eventually(() => received.length === 2);
      const [a, b] = events();
      expect(a!.id).toBe(b!.id);
    } finally {
      h.sandbox.control.setCallback({ url: receiverUrl, secret: SECRET, retryBaseMs: 5 });
    }
  });

  it('should carry message.received payloads with the conversation', async () => {
    h.sandbox.control.injectInbound({
      type: 'interactive',
      from: ADA,
      optionId: 'opt_1',
      label: 'Yes',
    });
    await h.sandbox.control.callbacksIdle();
    const [event] = events();
    expect(event!.type).toBe('message.received');
    if (event!.type !== 'message.received') return;
    expect(event!.data.message.interactive).toMatchObject({
      type: 'INTERACTIVE_RESPONSE',
      optionId: 'opt_1',
      label: 'Yes',
    });
    expect(event!.data.conversation.phoneNumber).toBe(ADA);
    expect(Date.parse(event!.occurredAt)).toBeGreaterThanOrEqual(START);
  });
});
