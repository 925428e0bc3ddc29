import { describe, expect, it } from 'vitest';
import { validateContent, type MessageIssue } from '../../src/messages/index.js';

function issuesOf(content: unknown): readonly MessageIssue[] {
  const result = validateContent(content);
  return result.status === 'invalid' ? result.issues : [];
}

const reply = (id: string, title = id) => ({ type: 'reply', reply: { id, title } });
const buttonMessage = (extra: Record<string, unknown>) => ({
  type: 'interactive',
  interactive: {
    type: 'button',
    body: { text: 'Pick one' },
    action: { buttons: [reply('a')] },
    ...extra,
  },
});
const listMessage = (sections: unknown) => ({
  type: 'interactive',
  interactive: { type: 'list', body: { text: 'Pick one' }, action: { button: 'Choose', sections } },
});

describe('interactive content', () => {
  it('should accept a full button message and a full list message', () => {
    expect(
      issuesOf(
        buttonMessage({
          header: { type: 'text', text: 'Hi' },
          footer: { text: 'Bye' },
          action: { buttons: [reply('a'), reply('b'), reply('c')] },
        }),
      ),
    ).toEqual([]);
    expect(
      issuesOf(
        listMessage([
          { title: 'One', rows: [{ id: 'r1', title: 'R1', description: 'd' }] },
          { title: 'Two', rows: [{ id: 'r2', title: 'R2' }] },
        ]),
      ),
    ).toEqual([]);
  });

  it.each([
    'product',
    'product_list',
    'flow',
    'cta_url',
    'catalog_message',
    'location_request_message',
  ])('should reject interactive type %s (spec 4.5 rule 4)', (type) => {
    const issues = issuesOf({
      type: 'interactive',
      interactive: { type, body: { text: 'x' }, action: {} },
    });
    expect(issues).toEqual([
      {
        path: 'interactive.type',
        message: `interactive.type "${type}" is not supported; use one of "button", "list" (spec 4.5 rule 4)`,
        spec: '4.5.2',
      },
    ]);
  });

  it('should require interactive.type', () => {
    expect(
      issuesOf({ type: 'interactive', interactive: { body: { text: 'x' } } })[0]!.message,
    ).toContain('interactive.type is required');
  });

  it.each([
    [
      { header: { type: 'image', image: { link: 'https://cdn.example.com/a.jpg' } } },
      'interactive.header.type',
    ],
    [{ header: { type: 'text' } }, 'interactive.header.text'],
    [{ header: 'Hi' }, 'interactive.header'],
    [{ body: undefined }, 'interactive.body'],
    [{ body: { text: '' } }, 'interactive.body.text'],
    [{ footer: { text: '' } }, 'interactive.footer.text'],
    [
      { action: { buttons: [{ type: 'url', reply: { id: 'a', title: 'A' } }] } },
      'interactive.action.buttons[0].type',
    ],
    [
      { action: { buttons: [{ type: 'reply', reply: { id: '', title: 'A' } }] } },
      'interactive.action.buttons[0].reply.id',
    ],
    [
      { action: { buttons: [{ type: 'reply', reply: { id: 'a', title: '' } }] } },
      'interactive.action.buttons[0].reply.title',
    ],
    [
      { action: { buttons: [{ type: 'reply', reply: { id: 'a' } }] } },
      'interactive.action.buttons[0].reply.title',
    ],
    [{ action: {} }, 'interactive.action.buttons'],
    [{ action: { buttons: [reply('a')], button: 'x' } }, 'interactive.action.button'],
  ])('should reject a malformed button message (%#)', (extra, path) => {
    const issues = issuesOf(buttonMessage(extra));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe(path);
    expect(issues[0]!.spec).toMatch(/^4\.5/);
  });

  it('should reject duplicate button ids and name the first use', () => {
    const issues = issuesOf(
      buttonMessage({ action: { buttons: [reply('a'), reply('b'), reply('a', 'Again')] } }),
    );
    expect(issues).toEqual([
      {
        path: 'interactive.action.buttons[2].reply.id',
        message:
          'Button id "a" is already used by buttons[0]; option ids must be unique within a message (spec 4.5.2)',
        spec: '4.5.2',
      },
    ]);
  });

  it('should allow equal button titles with different ids', () => {
    expect(
      issuesOf(buttonMessage({ action: { buttons: [reply('a', 'Same'), reply('b', 'Same')] } })),
    ).toEqual([]);
  });

  it('should reject duplicate row ids across sections', () => {
    const issues = issuesOf(
      listMessage([
        { title: 'One', rows: [{ id: 'x', title: 'X' }] },
        {
          title: 'Two',
          rows: [
            { id: 'y', title: 'Y' },
            { id: 'x', title: 'X again' },
          ],
        },
      ]),
    );
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'interactive.action.sections[1].rows[1].id',
        message: expect.stringContaining('already used by sections[0].rows[0]') as string,
      }),
    ]);
  });

  it.each([
    [[{ title: 'S', rows: [{ title: 'no id' }] }], 'interactive.action.sections[0].rows[0].id'],
    [[{ title: 'S', rows: [{ id: 'r' }] }], 'interactive.action.sections[0].rows[0].title'],
    [[{ rows: [{ id: 'r', title: 'R' }] }], 'interactive.action.sections[0].title'],
    [
      [{ title: 'S', rows: [{ id: 'r', title: 'R', description: '' }] }],
      'interactive.action.sections[0].rows[0].description',
    ],
    [
      [{ title: 'S', rows: [{ id: 'r', title: 'R', image: 'x' }] }],
      'interactive.action.sections[0].rows[0].image',
    ],
    ['S', 'interactive.action.sections'],
  ])('should reject a malformed list (%#)', (sections, path) => {
    const issues = issuesOf(listMessage(sections));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe(path);
  });

  it('should require the list button label', () => {
    const content = listMessage([{ title: 'S', rows: [{ id: 'r', title: 'R' }] }]);
    delete (content.interactive.action as { button?: string }).button;
    expect(issuesOf(content)).toEqual([
      expect.objectContaining({ path: 'interactive.action.button' }),
    ]);
  });
});
