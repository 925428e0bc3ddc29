import { describe, expect, it } from 'vitest';
import { ContentSchema, parseWith, validateContent } from '../../src/messages/content.js';
import { SendRequestSchema, validateSendRequest } from '../../src/messages/send-request.js';
import { fastTextContent } from '../../src/messages/text.js';

const long = (n: number, unit = 'a'): string => unit.repeat(n);

/** Inputs around every rule of text content: valid ones, and each way to be wrong. */
const contents: unknown[] = [
  { type: 'text', text: { body: 'hi' } },
  { type: 'text', text: { body: 'hi', preview_url: true } },
  { type: 'text', text: { body: 'hi', preview_url: false } },
  { type: 'text', text: { body: long(4096) } },
  { type: 'text', text: { body: long(4097) } },
  { type: 'text', text: { body: long(2048, '😀') } },
  { type: 'text', text: { body: long(2049, '😀') } },
  { type: 'text', text: { body: long(4097, '😀') } },
  { type: 'text', text: { body: '' } },
  { type: 'text', text: { body: 5 } },
  { type: 'text', text: {} },
  { type: 'text', text: { body: 'hi', preview_url: 'yes' } },
  { type: 'text', text: { body: 'hi', preview_url: undefined } },
  { type: 'text', text: { body: 'hi', extra: 1 } },
  { type: 'text', text: { body: 'hi' }, extra: 1 },
  { type: 'text', text: null },
  { type: 'text', text: ['hi'] },
  { type: 'text' },
  { type: 'image', image: { link: 'https://example.com/a.png' } },
  { type: 'text', text: Object.assign(Object.create({ inherited: 1 }) as object, { body: 'hi' }) },
  Object.assign(Object.create(null) as object, { type: 'text', text: { body: 'hi' } }),
  null,
  'text',
  [],
];

describe('text fast path', () => {
  it('is taken for plain valid text (else it would never save anything)', () => {
    expect(fastTextContent({ type: 'text', text: { body: 'hi' } })).toEqual({
      type: 'text',
      text: { body: 'hi' },
    });
    expect(fastTextContent({ type: 'text', text: { body: 'x', preview_url: true } })).toBeDefined();
  });

  it.each(contents.map((c, i) => [i, c]))('content #%i: same answer as the schema', (_, input) => {
    const fast = fastTextContent(input);
    const schema = ContentSchema.safeParse(input);
    if (fast !== undefined) {
      expect(schema.success).toBe(true);
      expect(fast).toStrictEqual(schema.data);
    }
    expect(validateContent(input)).toStrictEqual(parseWith(ContentSchema, input));
  });

  it.each(contents.map((c, i) => [i, c]))('request #%i: same answer as the schema', (_, c) => {
    const bodies: unknown[] = [
      { messaging_product: 'whatsapp', to: '+14155550123', ...(c as object) },
      {
        messaging_product: 'whatsapp',
        to: '+14155550123',
        recipient_type: 'individual',
        ...(c as object),
      },
      {
        messaging_product: 'whatsapp',
        to: '+14155550123',
        recipient_type: 'group',
        ...(c as object),
      },
      { messaging_product: 'whatsapp', to: '+1 415 555 0123', ...(c as object) },
      { messaging_product: 'other', to: '+14155550123', ...(c as object) },
      { to: '+14155550123', ...(c as object) },
    ];
    for (const body of bodies) {
      const fast = validateSendRequest(body);
      const schema = SendRequestSchema.safeParse(body);
      expect(fast.status).toBe(schema.success ? 'valid' : 'invalid');
      if (fast.status === 'valid') expect(fast.value).toStrictEqual(schema.data);
    }
  });
});
