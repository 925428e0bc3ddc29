import { describe, expect, it } from 'vitest';
import {
  audio,
  buildSendRequest,
  buttons,
  contact,
  document,
  image,
  list,
  location,
  MessageValidationError,
  template,
  text,
  validateContent,
  validateSendRequest,
  video,
  type Content,
} from '../../src/messages/index.js';

const link = 'https://cdn.example.com/file';

/** The issue paths of a builder call that must throw. */
function thrownPaths(build: () => unknown): string[] {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(MessageValidationError);
    return (error as MessageValidationError).issues.map((i) => i.path);
  }
  throw new Error('expected the builder to throw');
}

describe('builders', () => {
  const built: Array<[string, Content, unknown]> = [
    [
      'text',
      text('Hello', { previewUrl: true }),
      { type: 'text', text: { body: 'Hello', preview_url: true } },
    ],
    ['text without options', text('Hello'), { type: 'text', text: { body: 'Hello' } }],
    [
      'template',
      template('order_update', 'en_US', [
        { type: 'body', parameters: [{ type: 'text', text: 'Ann' }] },
      ]),
      {
        type: 'template',
        template: {
          name: 'order_update',
          language: { code: 'en_US' },
          components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ann' }] }],
        },
      },
    ],
    [
      'image',
      image(link, { caption: 'A cat' }),
      { type: 'image', image: { link, caption: 'A cat' } },
    ],
    ['video', video(link), { type: 'video', video: { link } }],
    ['audio', audio(link), { type: 'audio', audio: { link } }],
    [
      'document',
      document(link, { caption: 'Invoice', filename: 'invoice.pdf' }),
      { type: 'document', document: { link, caption: 'Invoice', filename: 'invoice.pdf' } },
    ],
    [
      'buttons',
      buttons(
        'Did that help?',
        [
          { id: 'yes', title: 'Yes' },
          { id: 'no', title: 'No' },
        ],
        { header: 'Support', footer: 'Thanks' },
      ),
      {
        type: 'interactive',
        interactive: {
          type: 'button',
          header: { type: 'text', text: 'Support' },
          body: { text: 'Did that help?' },
          footer: { text: 'Thanks' },
          action: {
            buttons: [
              { type: 'reply', reply: { id: 'yes', title: 'Yes' } },
              { type: 'reply', reply: { id: 'no', title: 'No' } },
            ],
          },
        },
      },
    ],
    [
      'list',
      list('Pick a topic', 'Topics', [
        {
          title: 'Orders',
          rows: [{ id: 'track', title: 'Track my order', description: 'Where is it?' }],
        },
      ]),
      {
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: 'Pick a topic' },
          action: {
            button: 'Topics',
            sections: [
              {
                title: 'Orders',
                rows: [{ id: 'track', title: 'Track my order', description: 'Where is it?' }],
              },
            ],
          },
        },
      },
    ],
    [
      'location',
      location(52.52, 13.405, { name: 'Office', address: 'Berlin' }),
      {
        type: 'location',
        location: { latitude: 52.52, longitude: 13.405, name: 'Office', address: 'Berlin' },
      },
    ],
    [
      'contact',
      contact({
        formatted_name: 'Ann Lee',
        first_name: 'Ann',
        last_name: undefined,
        phones: ['+14155550123', { phone: '+14155550124', type: 'WORK', wa_id: '14155550124' }],
        emails: ['ann@example.com'],
        urls: [{ url: 'https://example.com', type: 'WORK' }],
        org: { company: 'Acme' },
      }),
      {
        type: 'contacts',
        contacts: [
          {
            name: { formatted_name: 'Ann Lee', first_name: 'Ann' },
            phones: [
              { phone: '+14155550123' },
              { phone: '+14155550124', type: 'WORK', wa_id: '14155550124' },
            ],
            emails: [{ email: 'ann@example.com' }],
            urls: [{ url: 'https://example.com', type: 'WORK' }],
            org: { company: 'Acme' },
          },
        ],
      },
    ],
  ];

  it.each(built)('should build %s content', (_name, content, expected) => {
    expect(content).toEqual(expected);
    expect(validateContent(content)).toEqual({ status: 'valid', value: expected });
  });

  it.each(built)('should build %s content that validateSendRequest accepts', (_name, content) => {
    const request = buildSendRequest('+14155550123', content);
    expect(validateSendRequest(JSON.parse(JSON.stringify(request)))).toEqual({
      status: 'valid',
      value: request,
    });
  });

  it.each([
    ['text over 4096', () => text('x'.repeat(4097)), ['text.body']],
    ['empty text', () => text(''), ['text.body']],
    ['template without name', () => template('', 'en'), ['template.name']],
    ['image over http', () => image('http://cdn.example.com/a.jpg'), ['image.link']],
    [
      'video caption over 1024',
      () => video(link, { caption: 'x'.repeat(1025) }),
      ['video.caption'],
    ],
    ['audio on localhost', () => audio('https://localhost/a.ogg'), ['audio.link']],
    [
      'document filename over 240',
      () => document(link, { filename: 'x'.repeat(241) }),
      ['document.filename'],
    ],
    [
      'four buttons with a long title',
      () =>
        buttons('Pick', [
          { id: 'a', title: 'Talk to a human now!!' },
          { id: 'b', title: 'B' },
          { id: 'c', title: 'C' },
          { id: 'd', title: 'D' },
        ]),
      ['interactive.action.buttons[0].reply.title', 'interactive.action.buttons'],
    ],
    [
      'duplicate row ids',
      () =>
        list('Pick', 'Choose', [
          {
            title: 'S',
            rows: [
              { id: 'a', title: 'A' },
              { id: 'a', title: 'B' },
            ],
          },
        ]),
      ['interactive.action.sections[0].rows[1].id'],
    ],
    [
      'long header',
      () => buttons('Pick', [{ id: 'a', title: 'A' }], { header: 'x'.repeat(61) }),
      ['interactive.header.text'],
    ],
    ['latitude 91', () => location(91, 0), ['location.latitude']],
    [
      'four phones',
      () => contact({ formatted_name: 'A', phones: ['1', '2', '3', '4'] }),
      ['contacts[0].phones'],
    ],
  ])('should throw MessageValidationError for %s', (_name, build, paths) => {
    expect(thrownPaths(build)).toEqual(paths);
  });

  it('should never truncate: an over-long body throws instead of being cut', () => {
    expect(() => text('x'.repeat(4097))).toThrow(
      /Text body "x{30}…" is 4097 characters; the limit is 4096 \(spec 4\.5\)/,
    );
  });
});

describe('MessageValidationError', () => {
  it('should carry the issues and join them in its message', () => {
    const error = new MessageValidationError([
      { path: 'a', message: 'first' },
      { path: '', message: 'second' },
    ]);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('MessageValidationError');
    expect(error.issues).toHaveLength(2);
    expect(error.message).toBe('Invalid message (2 issues):\n- a: first\n- second');
  });

  it('should keep a cause', () => {
    const cause = new Error('root');
    expect(new MessageValidationError([{ path: 'x', message: 'bad' }], { cause }).cause).toBe(
      cause,
    );
  });
});
