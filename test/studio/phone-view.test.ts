import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/api/resources.js';
import { CLOSING_MS, phoneMessages, windowView } from '../../src/studio/phone-view.js';
import type { TimelineEntry } from '../../src/studio/session-recorder.js';

const DAY = 24 * 3600_000;
const T0 = Date.parse('2026-01-01T10:00:00Z');

const message = (fields: Partial<Message> & Record<string, unknown>): Message => ({
  id: 'm1',
  conversationId: 'c1',
  contactId: 'k1',
  direction: 'outbound',
  status: 'delivered',
  type: 'text',
  occurredAt: new Date(T0).toISOString(),
  ...fields,
});

describe('windowView', () => {
  it.each([
    [undefined, T0, 'none'],
    [T0, T0 + DAY - CLOSING_MS - 1, 'open'],
    [T0, T0 + DAY - CLOSING_MS, 'closing'],
    [T0, T0 + DAY - 1, 'closing'],
    [T0, T0 + DAY, 'closed'],
  ])('should show last inbound %s at %s as %s', (last, now, state) => {
    expect(windowView(last, now).state).toBe(state);
  });
});

describe('phoneMessages', () => {
  it('should fill in a known template, mark teammate replies and keep list sections', () => {
    const template = message({
      id: 'm1',
      type: 'template',
      template: {
        name: 'appointment_reminder',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'Monday' },
            ],
          },
        ],
      },
    });
    const teammate = message({ id: 'm2', text: { body: 'Sam here' } });
    const list = message({
      id: 'm3',
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Pick' },
        action: {
          button: 'Days',
          sections: [
            {
              title: 'This week',
              rows: [{ id: 'v1.s.mon', title: 'Monday', description: 'morning' }],
            },
          ],
        },
      },
    });
    const out = phoneMessages(
      [template, teammate, list],
      new Set(['m1', 'm3']),
      [],
      [
        {
          name: 'appointment_reminder',
          language: 'en',
          components: [{ type: 'body', text: 'Hi {{1}}, see you on {{2}}.' }],
        },
      ],
    );
    expect(out[0]).toMatchObject({
      kind: 'outbound',
      teammate: false,
      templateText: 'Hi Ada, see you on Monday.',
    });
    expect(out[1]).toMatchObject({
      kind: 'outbound',
      teammate: true,
      view: { type: 'text', text: 'Sam here' },
    });
    expect(out[2]).toMatchObject({
      sections: [
        {
          title: 'This week',
          rows: [{ optionId: 'v1.s.mon', title: 'Monday', description: 'morning' }],
        },
      ],
    });
  });

  it('should show refused sends from the timeline where they happened', () => {
    const inbound = message({
      id: 'm1',
      direction: 'inbound',
      status: 'received',
      text: { body: 'hi' },
    });
    const refused: TimelineEntry = {
      seq: 3,
      at: T0 + 1000,
      kind: 'send',
      text: 'send text "Hello"',
      outcome: 'rejected:contact_opted_out',
      ok: false,
    };
    const fine: TimelineEntry = { ...refused, seq: 4, outcome: 'accepted', ok: true };
    const out = phoneMessages([inbound], new Set(), [refused, fine]);
    expect(out).toEqual([
      expect.objectContaining({ kind: 'inbound', text: 'hi' }),
      {
        kind: 'notice',
        id: 'notice-3',
        at: T0 + 1000,
        text: 'not sent (rejected:contact_opted_out): send text "Hello"',
      },
    ]);
  });
});
