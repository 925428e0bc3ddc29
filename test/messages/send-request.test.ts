import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/core/limits.js';
import {
  buildSendRequest,
  MessageValidationError,
  validateSendRequest,
  type MessageIssue,
} from '../../src/messages/index.js';

const envelope = { messaging_product: 'whatsapp', to: '+14155550123' };
const valid = {
  messaging_product: 'whatsapp',
  to: '+14155550123',
  type: 'text',
  text: { body: 'Hello' },
};

function issuesOf(body: unknown): readonly MessageIssue[] {
  const result = validateSendRequest(body);
  return result.status === 'invalid' ? result.issues : [];
}

describe('validateSendRequest', () => {
  it('should accept a minimal text request and return it unchanged', () => {
    expect(validateSendRequest(valid)).toEqual({ status: 'valid', value: valid });
    expect(validateSendRequest({ ...valid, recipient_type: 'individual' }).status).toBe('valid');
  });

  it.each([
    ['+12345678', true],
    ['+123456789012345', true],
    ['+14155550123', true],
    ['+1234567', false],
    ['+1234567890123456', false],
    ['+0123456789', false],
    ['14155550123', false],
    ['+1 415 555 0123', false],
    ['+1-415-555-0123', false],
    ['+1415555012a', false],
    ['', false],
  ])('should check that to %j is E.164 (valid: %s)', (to, ok) => {
    const issues = issuesOf({ ...valid, to });
    if (ok) expect(issues).toEqual([]);
    else {
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ path: 'to', spec: '4.5' });
      expect(issues[0]!.message).toContain('E.164');
    }
  });

  it.each([
    [
      { ...valid, messaging_product: 'telegram' },
      'messaging_product',
      'messaging_product must be "whatsapp", got the string "telegram" (spec 4.5)',
    ],
    [
      { ...valid, messaging_product: undefined },
      'messaging_product',
      'messaging_product is required; it must be "whatsapp" (spec 4.5)',
    ],
    [{ ...valid, type: 5 }, 'type', 'type number 5 is not supported'],
    [{ ...valid, to: undefined }, 'to', 'to is required'],
    [{ ...valid, recipient_type: 'group' }, 'recipient_type', 'must be "individual"'],
    [{ ...valid, type: 'sticker' }, 'type', 'type "sticker" is not supported'],
    [{ ...valid, type: undefined }, 'type', 'type is required'],
    [{ ...valid, text: undefined }, 'text', 'text is required'],
    [{ ...valid, text: 'Hello' }, 'text', 'text must be an object, got the string "Hello"'],
    [{ ...valid, text: { body: 5 } }, 'text.body', 'text.body must be a string, got number 5'],
    [
      { ...valid, text: { body: 'x', preview_url: 'yes' } },
      'text.preview_url',
      'must be a boolean',
    ],
  ])('should reject a bad envelope or shape (%#)', (body, path, message) => {
    const issues = issuesOf(body);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe(path);
    expect(issues[0]!.message).toContain(message);
  });

  it.each([null, 'text', 42, [], undefined])('should reject a non-object body %j', (body) => {
    const issues = issuesOf(body);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe('');
  });

  it.each([
    [{ ...valid, extra: 1 }, 'extra'],
    [{ ...valid, text: { body: 'x', format: 'markdown' } }, 'text.format'],
    [
      {
        ...envelope,
        type: 'location',
        location: { latitude: 1, longitude: 2, accuracy: 5 },
      },
      'location.accuracy',
    ],
    [
      {
        ...envelope,
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: 'b' },
          action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A', emoji: true } }] },
        },
      },
      'interactive.action.buttons[0].reply.emoji',
    ],
    [
      {
        ...envelope,
        type: 'contacts',
        contacts: [{ name: { formatted_name: 'A', nickname: 'B' } }],
      },
      'contacts[0].name.nickname',
    ],
    [
      {
        ...envelope,
        type: 'template',
        template: { name: 't', language: { code: 'en', policy: 'deterministic' } },
      },
      'template.language.policy',
    ],
  ])('should reject unknown fields (%#)', (body, path) => {
    const issues = issuesOf(body);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe(path);
    expect(issues[0]!.message).toContain(`Unknown field "${path.split('.').pop()}"`);
    expect(issues[0]!.spec).toBe('4.5 rule 1');
  });

  it('should reject a content object not named after type', () => {
    const issues = issuesOf({ ...valid, image: { link: 'https://cdn.example.com/a.jpg' } });
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'image',
        message:
          'Content object "image" does not match type "text"; send exactly one content object, named after type (spec 4.5)',
      }),
    ]);
  });

  it('should report every issue at once', () => {
    const issues = issuesOf({
      messaging_product: 'x',
      to: '1',
      type: 'text',
      text: { body: '' },
      foo: 1,
    });
    expect(issues.map((i) => i.path).sort()).toEqual([
      'foo',
      'messaging_product',
      'text.body',
      'to',
    ]);
  });

  describe('body size', () => {
    // A template is the one valid message that can grow without a field limit.
    const sized = (bytes: number) => {
      const body = {
        messaging_product: 'whatsapp',
        to: '+14155550123',
        type: 'template',
        template: {
          name: 'big',
          language: { code: 'en' },
          components: [{ type: 'body', parameters: [{ type: 'text', text: '' }] }],
        },
      };
      const base = Buffer.byteLength(JSON.stringify(body));
      body.template.components[0]!.parameters[0]!.text = 'x'.repeat(bytes - base);
      expect(Buffer.byteLength(JSON.stringify(body))).toBe(bytes);
      return body;
    };

    it('should accept exactly 262,144 bytes', () => {
      expect(validateSendRequest(sized(LIMITS.requestBodyBytes)).status).toBe('valid');
    });

    it('should reject 262,145 bytes with size and limit', () => {
      const issues = issuesOf(sized(LIMITS.requestBodyBytes + 1));
      expect(issues).toEqual([
        {
          path: '',
          message: expect.stringContaining('262145 bytes') as string,
          limit: 262_144,
          size: 262_145,
          spec: '4.5 rule 2',
        },
      ]);
    });

    it('should measure UTF-8 bytes, not characters', () => {
      const body = sized(LIMITS.requestBodyBytes);
      const text = body.template.components[0]!.parameters[0]!;
      text.text = `é${text.text.slice(1)}`;
      expect(issuesOf(body)[0]).toMatchObject({ size: LIMITS.requestBodyBytes + 1 });
    });
  });
});

describe('buildSendRequest', () => {
  it('should wrap content with the envelope', () => {
    expect(buildSendRequest('+14155550123', { type: 'text', text: { body: 'Hi' } })).toEqual({
      messaging_product: 'whatsapp',
      to: '+14155550123',
      type: 'text',
      text: { body: 'Hi' },
    });
  });

  it('should throw MessageValidationError naming every issue', () => {
    let error: unknown;
    try {
      buildSendRequest('0800', { type: 'text', text: { body: '' } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MessageValidationError);
    const e = error as MessageValidationError;
    expect(e.name).toBe('MessageValidationError');
    expect(e.issues.map((i) => i.path)).toEqual(['to', 'text.body']);
    expect(e.message).toContain('to: Recipient "0800" is not an E.164 number');
    expect(e.message).toContain('text.body: Text body is empty');
  });
});

describe('validateSendRequest robustness', () => {
  const garbage: unknown[] = [null, 0, -1, 'x', true, [], [null], {}, { type: 'text' }, Number.NaN];
  const shapes = (g: unknown): unknown[] => [
    { messaging_product: 'whatsapp', to: '+14155550123', type: 'interactive', interactive: g },
    {
      messaging_product: 'whatsapp',
      to: '+14155550123',
      type: 'interactive',
      interactive: { type: 'button', body: { text: 'b' }, action: { buttons: g } },
    },
    {
      messaging_product: 'whatsapp',
      to: '+14155550123',
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'b' },
        action: { button: 'b', sections: [g, { title: 's', rows: [g] }] },
      },
    },
    {
      messaging_product: 'whatsapp',
      to: '+14155550123',
      type: 'template',
      template: {
        name: 't',
        language: { code: 'en' },
        components: [g, { type: 'body', parameters: [g] }],
      },
    },
    { messaging_product: 'whatsapp', to: '+14155550123', type: 'contacts', contacts: [g, g] },
  ];

  it.each(garbage)('should return issues, never throw, for %j in nested positions', (g) => {
    for (const body of shapes(g)) {
      const result = validateSendRequest(body);
      expect(result.status).toBe('invalid');
      if (result.status === 'invalid') expect(result.issues.length).toBeGreaterThan(0);
    }
  });

  it('should not throw on values JSON cannot serialise', () => {
    const cyclic: Record<string, unknown> = { ...valid };
    cyclic['self'] = cyclic;
    expect(issuesOf(cyclic).map((i) => i.path)).toEqual(['self']);
    expect(issuesOf({ ...valid, text: { body: 10n } }).map((i) => i.path)).toEqual(['text.body']);
  });
});
