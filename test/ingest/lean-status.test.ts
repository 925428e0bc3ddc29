import { describe, expect, it } from 'vitest';
import { CallbackEvent } from '../../src/api/callbacks.js';
import { defaultParser } from '../../src/ingest/callback-core.js';
import { leanStatusEvent } from '../../src/ingest/lean-status.js';
import { fromCallbackEvent } from '../../src/ingest/normalize.js';

const good = {
  id: 'evt_1',
  type: 'message.status',
  occurredAt: '2026-11-28T12:00:00.123Z',
  data: { messageId: 'msg_1', conversationId: 'conv_1', status: 'delivered' },
};
type Body = Record<string, unknown> & { data: Record<string, unknown> };
const variant = (change: (body: Body) => void): Body => {
  const body = structuredClone(good) as Body;
  change(body);
  return body;
};

/** Bodies the schema accepts: the lean read gives the schema's own event. */
const accepted: Record<string, Body> = {
  delivered: variant(() => undefined),
  read: variant((b) => (b.data['status'] = 'read')),
  queued: variant((b) => (b.data['status'] = 'queued')),
  'failed with a code': variant((b) => {
    b.data['status'] = 'failed';
    b.data['failureCode'] = 'undeliverable';
  }),
  'an offset timestamp': variant((b) => (b['occurredAt'] = '2026-11-28T13:00:00+01:00')),
  'extra fields': variant((b) => {
    b['api'] = 'v1';
    b.data['pricing'] = { billable: true };
  }),
  'empty ids in data': variant((b) => (b.data['messageId'] = '')),
};

/** Bodies the schema refuses: the lean read leaves each to the schema. */
const refused: Record<string, Body> = {
  'an empty id': variant((b) => (b['id'] = '')),
  'a numeric id': variant((b) => (b['id'] = 7)),
  'no timestamp': variant((b) => delete b['occurredAt']),
  'a timestamp without a zone': variant((b) => (b['occurredAt'] = '2026-11-28T12:00:00')),
  'a timestamp without seconds': variant((b) => (b['occurredAt'] = '2026-11-28T12:00Z')),
  'a date only': variant((b) => (b['occurredAt'] = '2026-11-28')),
  'an unknown status': variant((b) => (b.data['status'] = 'seen')),
  'a numeric failure code': variant((b) => (b.data['failureCode'] = 42)),
  'no conversation': variant((b) => delete b.data['conversationId']),
  'a numeric message id': variant((b) => (b.data['messageId'] = 1)),
  'data as an array': variant((b) => (b['data'] = [] as unknown as Body['data'])),
};

describe('leanStatusEvent', () => {
  it.each(Object.entries(accepted))('should read %s as the schema does', (_name, body) => {
    const lean = leanStatusEvent(JSON.parse(JSON.stringify(body)));
    expect(lean).toBeDefined();
    expect(lean).toEqual(fromCallbackEvent(CallbackEvent.parse(body)));
    expect(defaultParser(Buffer.from(JSON.stringify(body)))).toEqual({
      status: 'ok',
      events: [lean],
    });
  });

  it.each(Object.entries(refused))('should leave %s to the schema', (_name, body) => {
    expect(CallbackEvent.safeParse(body).success).toBe(false);
    expect(leanStatusEvent(JSON.parse(JSON.stringify(body)))).toBeUndefined();
    // The parser still refuses it, with the schema's words naming the field.
    const parsed = defaultParser(Buffer.from(JSON.stringify(body)));
    expect(parsed).toMatchObject({ status: 'invalid', message: /^not a callback event: / });
  });

  it('should leave other event types to the schema', () => {
    expect(leanStatusEvent({ ...good, type: 'message.failed' })).toBeUndefined();
    expect(leanStatusEvent([good])).toBeUndefined();
    expect(leanStatusEvent(null)).toBeUndefined();
  });
});
