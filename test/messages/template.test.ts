import { describe, expect, it } from 'vitest';
import {
  templateParameterKinds,
  validateContent,
  type MessageIssue,
  type TemplateComponent,
} from '../../src/messages/index.js';

const link = 'https://cdn.example.com/file.pdf';
const templateOf = (components: unknown) => ({
  type: 'template',
  template: { name: 'order_update', language: { code: 'en_US' }, components },
});

function issuesOf(content: unknown): readonly MessageIssue[] {
  const result = validateContent(content);
  return result.status === 'invalid' ? result.issues : [];
}

const full: TemplateComponent[] = [
  {
    type: 'header',
    parameters: [{ type: 'document', document: { link, filename: 'invoice.pdf' } }],
  },
  {
    type: 'body',
    parameters: [
      { type: 'text', text: 'Ann', parameter_name: 'customer' },
      {
        type: 'currency',
        currency: { fallback_value: '$12.50', code: 'USD', amount_1000: 12_500 },
      },
      { type: 'date_time', date_time: { fallback_value: 'March 3' }, parameter_name: 'when' },
    ],
  },
  { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'order/42' }] },
  { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [] },
];

describe('template content', () => {
  it('should accept a template without components and one with every parameter kind', () => {
    expect(
      issuesOf({ type: 'template', template: { name: 'hello', language: { code: 'en' } } }),
    ).toEqual([]);
    expect(issuesOf(templateOf(full))).toEqual([]);
  });

  it.each(['image', 'video', 'document'])('should accept a %s header parameter', (kind) => {
    expect(
      issuesOf(templateOf([{ type: 'header', parameters: [{ type: kind, [kind]: { link } }] }])),
    ).toEqual([]);
  });

  it.each([
    [{ type: 'template', template: { language: { code: 'en' } } }, 'template.name'],
    [{ type: 'template', template: { name: '', language: { code: 'en' } } }, 'template.name'],
    [{ type: 'template', template: { name: 't' } }, 'template.language'],
    [{ type: 'template', template: { name: 't', language: 'en' } }, 'template.language'],
    [
      { type: 'template', template: { name: 't', language: { code: '' } } },
      'template.language.code',
    ],
    [templateOf({}), 'template.components'],
    [templateOf([{ type: 'footer', parameters: [] }]), 'template.components[0].type'],
    [templateOf([{ type: 'body' }]), 'template.components[0].parameters'],
    [
      templateOf([{ type: 'body', parameters: [], sub_type: 'url' }]),
      'template.components[0].sub_type',
    ],
    [
      templateOf([{ type: 'button', sub_type: 'call', index: '0', parameters: [] }]),
      'template.components[0].sub_type',
    ],
    [
      templateOf([{ type: 'button', sub_type: 'url', index: 0, parameters: [] }]),
      'template.components[0].index',
    ],
    [
      templateOf([{ type: 'body', parameters: [{ type: 'payload', payload: 'x' }] }]),
      'template.components[0].parameters[0].type',
    ],
    [
      templateOf([{ type: 'body', parameters: [{ type: 'text', text: '' }] }]),
      'template.components[0].parameters[0].text',
    ],
    [
      templateOf([{ type: 'body', parameters: [{ type: 'text', text: 'a', parameter_name: '' }] }]),
      'template.components[0].parameters[0].parameter_name',
    ],
    [
      templateOf([
        {
          type: 'body',
          parameters: [{ type: 'currency', currency: { code: 'USD', amount_1000: 1 } }],
        },
      ]),
      'template.components[0].parameters[0].currency.fallback_value',
    ],
    [
      templateOf([
        {
          type: 'body',
          parameters: [
            { type: 'currency', currency: { fallback_value: '$1', code: 'USD', amount_1000: 1.5 } },
          ],
        },
      ]),
      'template.components[0].parameters[0].currency.amount_1000',
    ],
    [
      templateOf([
        {
          type: 'body',
          parameters: [{ type: 'currency', currency: { fallback_value: '$1', code: 'USD' } }],
        },
      ]),
      'template.components[0].parameters[0].currency.amount_1000',
    ],
    [
      templateOf([{ type: 'body', parameters: [{ type: 'date_time', date_time: {} }] }]),
      'template.components[0].parameters[0].date_time.fallback_value',
    ],
    [
      templateOf([
        {
          type: 'header',
          parameters: [{ type: 'image', image: { link: 'http://cdn.example.com/a.jpg' } }],
        },
      ]),
      'template.components[0].parameters[0].image.link',
    ],
    [
      templateOf([
        {
          type: 'header',
          parameters: [{ type: 'video', video: { link: 'https://10.1.2.3/a.mp4' } }],
        },
      ]),
      'template.components[0].parameters[0].video.link',
    ],
    [
      templateOf([
        { type: 'header', parameters: [{ type: 'image', image: { link, filename: 'a' } }] },
      ]),
      'template.components[0].parameters[0].image.filename',
    ],
    [
      templateOf([
        { type: 'header', parameters: [{ type: 'image', image: { link }, parameter_name: 'pic' }] },
      ]),
      'template.components[0].parameters[0].parameter_name',
    ],
  ])('should reject a malformed template (%#)', (content, path) => {
    const issues = issuesOf(content);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe(path);
  });

  it.each([
    ['US', 2],
    ['USDT', 4],
  ])('should require a three-character currency code, not %s', (code, size) => {
    const issues = issuesOf(
      templateOf([
        {
          type: 'body',
          parameters: [
            { type: 'currency', currency: { fallback_value: '$1', code, amount_1000: 1000 } },
          ],
        },
      ]),
    );
    expect(issues).toEqual([
      {
        path: 'template.components[0].parameters[0].currency.code',
        message: `Currency code "${code}" is ${size} characters; it must be exactly 3, e.g. "USD" (spec 4.5.4)`,
        limit: 3,
        size,
        spec: '4.5.4',
      },
    ]);
  });

  it.each([
    ['body', 'image'],
    ['body', 'document'],
    ['button', 'video'],
  ])('should reject media parameters outside the header (%s / %s)', (component, kind) => {
    const issues = issuesOf(
      templateOf([{ type: component, parameters: [{ type: kind, [kind]: { link } }] }]),
    );
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'template.components[0].parameters[0].type',
        message: expect.stringContaining(
          `parameter is not valid in a ${component} component`,
        ) as string,
        spec: '4.5.4',
      }),
    ]);
  });
});

describe('templateParameterKinds', () => {
  it('should list the parameter kinds per component in order', () => {
    expect(templateParameterKinds(full)).toEqual([
      { component: 'header', kinds: ['document'] },
      { component: 'body', kinds: ['text', 'currency', 'date_time'] },
      { component: 'button', index: '0', kinds: ['text'] },
      { component: 'button', index: '1', kinds: [] },
    ]);
  });

  it('should return an empty list without components', () => {
    expect(templateParameterKinds(undefined)).toEqual([]);
    expect(templateParameterKinds([])).toEqual([]);
  });
});
