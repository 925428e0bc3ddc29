import { describe, expect, it } from 'vitest';
import { CallbackEvent } from '../../src/api/callbacks.js';
import { defaultParser } from '../../src/ingest/callback-core.js';
import { leanReceivedEvent } from '../../src/ingest/lean-received.js';
import { fromCallbackEvent } from '../../src/ingest/normalize.js';

const good = {
  id: 'evt_1',
  type: 'message.received',
  occurredAt: '2026-11-28T12:00:00.123Z',
  data: {
    message: {
      id: 'msg_1',
      conversationId: 'conv_1',
      contactId: 'ct_1',
      direction: 'inbound',
      status: 'received',
      type: 'text',
      occurredAt: '2026-11-28T12:00:00Z',
      text: { body: 'hi' },
    },
    conversation: {
      id: 'conv_1',
      contactId: 'ct_1',
      phoneNumber: '+15551230001',
      contactName: 'Ada',
      lastMessageAt: '2026-11-28T12:00:00Z',
      humanOwned: false,
    },
  },
};
type Part = Record<string, unknown>;
type Body = Part & { data: { message: Part; conversation: Part } };
const variant = (change: (body: Body) => void): Body => {
  const body = structuredClone(good) as Body;
  change(body);
  return body;
};
const parse = (body: unknown) => defaultParser(Buffer.from(JSON.stringify(body)));

/** Plain bodies the schema accepts: the lean read gives the schema's own event. */
const accepted: Record<string, Body> = {
  'a text message': variant(() => undefined),
  'a text without a body': variant((b) => (b.data.message['text'] = {})),
  'no text part': variant((b) => delete b.data.message['text']),
  'a human-owned conversation with an offset time': variant((b) => {
    b.data.conversation['humanOwned'] = true;
    b.data.conversation['lastMessageAt'] = '2026-11-28T13:00:00+01:00';
  }),
  'extra fields and a last message': variant((b) => {
    b['api'] = 'v1';
    b.data.message['pricing'] = { billable: false };
    b.data.conversation['lastMessage'] = { anything: 1 };
  }),
  'an unsupported type': variant((b) => (b.data.message['type'] = 'unsupported')),
};

/** Bodies the schema refuses: each is left to the schema, which words the error. */
const refused: Record<string, Body> = {
  'an empty event id': variant((b) => (b['id'] = '')),
  'an event time without a zone': variant((b) => (b['occurredAt'] = '2026-11-28T12:00:00')),
  'a message time without seconds': variant(
    (b) => (b.data.message['occurredAt'] = '2026-11-28T12:00Z'),
  ),
  'an unknown direction': variant((b) => (b.data.message['direction'] = 'sideways')),
  'an unknown status': variant((b) => (b.data.message['status'] = 'seen')),
  'an unknown type': variant((b) => (b.data.message['type'] = 'hologram')),
  'a numeric text body': variant((b) => (b.data.message['text'] = { body: 1 })),
  'text as a string': variant((b) => (b.data.message['text'] = 'hi')),
  'a numeric failure code': variant((b) => (b.data.message['failureCode'] = 3)),
  'no contact id': variant((b) => delete b.data.message['contactId']),
  'humanOwned as a string': variant((b) => (b.data.conversation['humanOwned'] = 'no')),
  'no phone number': variant((b) => delete b.data.conversation['phoneNumber']),
  'no conversation': variant((b) => delete (b.data as Part)['conversation']),
};

/** Bodies with parts only the schema reads: left to it whether they are good or not. */
const richer: Record<string, Body> = {
  'an interactive reply': variant((b) => {
    b.data.message['type'] = 'interactive';
    b.data.message['interactive'] = { type: 'button_reply', optionId: 'o1', label: 'Yes' };
  }),
  'an image with a caption': variant((b) => {
    b.data.message['type'] = 'image';
    b.data.message['image'] = { caption: 'look' };
    b.data.message['media'] = { availability: 'ready', id: 'med_1', mimeType: 'image/png' };
  }),
  'a location': variant((b) => {
    b.data.message['type'] = 'location';
    b.data.message['location'] = { latitude: 1, longitude: 2 };
  }),
};

describe('leanReceivedEvent', () => {
  it.each(Object.entries(accepted))('should read %s as the schema does', (_name, body) => {
    const lean = leanReceivedEvent(JSON.parse(JSON.stringify(body)));
    expect(lean).toBeTruthy();
    expect(lean).toEqual(fromCallbackEvent(CallbackEvent.parse(body)));
    expect(parse(body)).toEqual({ status: 'ok', events: [lean] });
  });

  it('should read an outbound message as nothing to do, as the schema does', () => {
    const body = variant((b) => (b.data.message['direction'] = 'outbound'));
    expect(fromCallbackEvent(CallbackEvent.parse(body))).toBeUndefined();
    expect(leanReceivedEvent(body)).toBeNull();
    expect(parse(body)).toEqual({ status: 'ok', events: [] });
  });

  it.each(Object.entries(refused))('should leave %s to the schema', (_name, body) => {
    expect(CallbackEvent.safeParse(body).success).toBe(false);
    expect(leanReceivedEvent(JSON.parse(JSON.stringify(body)))).toBeUndefined();
    expect(parse(body)).toMatchObject({ status: 'invalid', message: /^not a callback event: / });
  });

  it.each(Object.entries(richer))('should leave %s to the schema', (_name, body) => {
    expect(leanReceivedEvent(JSON.parse(JSON.stringify(body)))).toBeUndefined();
    const parsed = CallbackEvent.parse(body);
    expect(parse(body)).toEqual({ status: 'ok', events: [fromCallbackEvent(parsed)] });
  });
});
