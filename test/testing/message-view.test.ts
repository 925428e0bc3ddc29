import { describe, expect, it } from 'vitest';
import { renderView, viewOfRequest } from '../../src/testing/message-view.js';

describe('viewOfRequest', () => {
  it('should decode option ids and number buttons when rendered', () => {
    const view = viewOfRequest({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Pick one' },
        footer: { text: 'or type menu' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'v1.welcome.faq', title: 'FAQ' } },
            { type: 'reply', reply: { id: 'raw', title: 'Other' } },
          ],
        },
      },
    });
    expect(view).toMatchObject({
      type: 'buttons',
      text: 'Pick one',
      options: [
        { id: 'faq', optionId: 'v1.welcome.faq', title: 'FAQ' },
        { id: 'raw', title: 'Other' },
      ],
    });
    expect(renderView(view)).toEqual(['Pick one', '_or type menu_', '  [1] FAQ', '  [2] Other']);
  });

  it('should flatten list rows across sections with descriptions', () => {
    const view = viewOfRequest({
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Times' },
        action: {
          button: 'See',
          sections: [
            { title: 'A', rows: [{ id: 'v1.s.a', title: '09:00', description: 'early' }] },
            { title: 'B', rows: [{ id: 'v1.s.b', title: '10:00' }] },
          ],
        },
      },
    });
    expect(renderView(view)).toEqual([
      'Times',
      '  (list "See")',
      '  [1] 09:00 - early',
      '  [2] 10:00',
    ]);
  });

  it('should show template parameters of every kind in order', () => {
    const view = viewOfRequest({
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en' },
        components: [
          {
            type: 'header',
            parameters: [{ type: 'document', document: { link: 'https://x.example/a.pdf' } }],
          },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: '42' },
              {
                type: 'currency',
                currency: { fallback_value: '$10', code: 'USD', amount_1000: 10000 },
              },
            ],
          },
        ],
      },
    });
    expect(view).toEqual({
      type: 'template',
      name: 'order_update',
      language: 'en',
      parameters: ['https://x.example/a.pdf', '42', '$10'],
    });
    expect(renderView(view)).toEqual([
      '[template order_update (en)] https://x.example/a.pdf | 42 | $10',
    ]);
  });

  it('should render media, location and contact cards on one line', () => {
    expect(
      renderView(
        viewOfRequest({
          type: 'document',
          document: { link: 'https://x.example/i.pdf', filename: 'i.pdf', caption: 'Invoice' },
        }),
      ),
    ).toEqual(['[document i.pdf] https://x.example/i.pdf "Invoice"']);
    expect(
      renderView(
        viewOfRequest({
          type: 'location',
          location: { latitude: 1.5, longitude: 2, name: 'Shop' },
        }),
      ),
    ).toEqual(['[location] Shop (1.5, 2)']);
    expect(
      renderView(
        viewOfRequest({
          type: 'contacts',
          contacts: [{ name: { formatted_name: 'Store' }, phones: [{ phone: '+3120' }] }],
        }),
      ),
    ).toEqual(['[contact card] Store, +3120']);
  });

  it('should fall back to the raw JSON for shapes it does not know', () => {
    expect(viewOfRequest({ type: 'text' })).toEqual({ type: 'unknown', raw: '{"type":"text"}' });
  });
});
