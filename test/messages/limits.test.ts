import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/core/limits.js';
import { validateContent, type MessageIssue } from '../../src/messages/index.js';

type Path = ReadonlyArray<string | number>;

/** A deep copy of `base` with `value` at `path`. */
function withValue(base: unknown, path: Path, value: unknown): unknown {
  const copy: unknown = structuredClone(base);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return copy;
}

function dotted(path: Path): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

function issuesOf(content: unknown): readonly MessageIssue[] {
  const result = validateContent(content);
  return result.status === 'invalid' ? result.issues : [];
}

const link = 'https://cdn.example.com/file';
const buttonBase = {
  type: 'interactive',
  interactive: {
    type: 'button',
    header: { type: 'text', text: 'Header' },
    body: { text: 'Body' },
    footer: { text: 'Footer' },
    action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }] },
  },
};
const listBase = {
  type: 'interactive',
  interactive: {
    type: 'list',
    body: { text: 'Body' },
    action: {
      button: 'Choose',
      sections: [{ title: 'Section', rows: [{ id: 'r1', title: 'Row', description: 'About' }] }],
    },
  },
};
const contactBase = {
  type: 'contacts',
  contacts: [
    {
      name: {
        formatted_name: 'Ann Lee',
        first_name: 'Ann',
        last_name: 'Lee',
        middle_name: 'M',
        prefix: 'Dr',
        suffix: 'Jr',
      },
      org: { company: 'Acme', department: 'Sales', title: 'Lead' },
    },
  ],
};
const templateBase = {
  type: 'template',
  template: {
    name: 'doc',
    language: { code: 'en' },
    components: [
      { type: 'header', parameters: [{ type: 'document', document: { link, filename: 'a.pdf' } }] },
    ],
  },
};

/** Every character limit of spec part 8 / 4.5.x that applies to a message. */
const stringLimits: ReadonlyArray<{ base: unknown; path: Path; limit: number; spec: string }> = [
  {
    base: { type: 'text', text: { body: 'x' } },
    path: ['text', 'body'],
    limit: LIMITS.textBody.max,
    spec: '4.5',
  },
  {
    base: { type: 'image', image: { link } },
    path: ['image', 'caption'],
    limit: LIMITS.caption,
    spec: '4.5',
  },
  {
    base: { type: 'video', video: { link } },
    path: ['video', 'caption'],
    limit: LIMITS.caption,
    spec: '4.5',
  },
  {
    base: { type: 'document', document: { link } },
    path: ['document', 'caption'],
    limit: LIMITS.caption,
    spec: '4.5',
  },
  {
    base: { type: 'document', document: { link } },
    path: ['document', 'filename'],
    limit: LIMITS.documentFilename,
    spec: '4.5',
  },
  {
    base: { type: 'location', location: { latitude: 0, longitude: 0 } },
    path: ['location', 'name'],
    limit: LIMITS.locationName,
    spec: '4.5',
  },
  {
    base: { type: 'location', location: { latitude: 0, longitude: 0 } },
    path: ['location', 'address'],
    limit: LIMITS.locationAddress,
    spec: '4.5',
  },
  {
    base: buttonBase,
    path: ['interactive', 'header', 'text'],
    limit: LIMITS.interactiveHeaderText,
    spec: '4.5.2',
  },
  {
    base: buttonBase,
    path: ['interactive', 'body', 'text'],
    limit: LIMITS.interactiveBody,
    spec: '4.5.2',
  },
  {
    base: buttonBase,
    path: ['interactive', 'footer', 'text'],
    limit: LIMITS.interactiveFooterText,
    spec: '4.5.2',
  },
  {
    base: buttonBase,
    path: ['interactive', 'action', 'buttons', 0, 'reply', 'id'],
    limit: LIMITS.buttonId,
    spec: '4.5.2',
  },
  {
    base: buttonBase,
    path: ['interactive', 'action', 'buttons', 0, 'reply', 'title'],
    limit: LIMITS.buttonTitle,
    spec: '4.5.2',
  },
  {
    base: listBase,
    path: ['interactive', 'action', 'button'],
    limit: LIMITS.listButton,
    spec: '4.5.2',
  },
  {
    base: listBase,
    path: ['interactive', 'action', 'sections', 0, 'title'],
    limit: LIMITS.sectionTitle,
    spec: '4.5.2',
  },
  {
    base: listBase,
    path: ['interactive', 'action', 'sections', 0, 'rows', 0, 'id'],
    limit: LIMITS.rowId,
    spec: '4.5.2',
  },
  {
    base: listBase,
    path: ['interactive', 'action', 'sections', 0, 'rows', 0, 'title'],
    limit: LIMITS.rowTitle,
    spec: '4.5.2',
  },
  {
    base: listBase,
    path: ['interactive', 'action', 'sections', 0, 'rows', 0, 'description'],
    limit: LIMITS.rowDescription,
    spec: '4.5.2',
  },
  {
    base: contactBase,
    path: ['contacts', 0, 'name', 'formatted_name'],
    limit: LIMITS.formattedName,
    spec: '4.5.3',
  },
  {
    base: contactBase,
    path: ['contacts', 0, 'name', 'first_name'],
    limit: LIMITS.namePart,
    spec: '4.5.3',
  },
  {
    base: contactBase,
    path: ['contacts', 0, 'name', 'last_name'],
    limit: LIMITS.namePart,
    spec: '4.5.3',
  },
  {
    base: contactBase,
    path: ['contacts', 0, 'name', 'middle_name'],
    limit: LIMITS.namePart,
    spec: '4.5.3',
  },
  {
    base: contactBase,
    path: ['contacts', 0, 'name', 'prefix'],
    limit: LIMITS.namePrefixSuffix,
    spec: '4.5.3',
  },
  {
    base: contactBase,
    path: ['contacts', 0, 'name', 'suffix'],
    limit: LIMITS.namePrefixSuffix,
    spec: '4.5.3',
  },
  {
    base: contactBase,
    path: ['contacts', 0, 'org', 'company'],
    limit: LIMITS.orgField,
    spec: '4.5.3',
  },
  {
    base: contactBase,
    path: ['contacts', 0, 'org', 'department'],
    limit: LIMITS.orgField,
    spec: '4.5.3',
  },
  {
    base: contactBase,
    path: ['contacts', 0, 'org', 'title'],
    limit: LIMITS.orgField,
    spec: '4.5.3',
  },
  {
    base: templateBase,
    path: ['template', 'components', 0, 'parameters', 0, 'document', 'filename'],
    limit: LIMITS.documentFilename,
    spec: '4.5.4',
  },
];

describe('message character limits', () => {
  it.each(stringLimits.map((row) => ({ ...row, name: dotted(row.path) })))(
    'should accept $name at $limit characters and reject $limit + 1',
    ({ base, path, limit, spec }) => {
      expect(issuesOf(withValue(base, path, 'x'.repeat(limit)))).toEqual([]);
      const issues = issuesOf(withValue(base, path, 'x'.repeat(limit + 1)));
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ path: dotted(path), limit, size: limit + 1, spec });
      expect(issues[0]!.message).toContain(
        `is ${limit + 1} characters; the limit is ${limit} (spec ${spec})`,
      );
    },
  );

  it.each(stringLimits.map((row) => ({ ...row, name: dotted(row.path) })))(
    'should count code points for $name (an emoji is one character)',
    ({ base, path, limit }) => {
      expect(issuesOf(withValue(base, path, '😀'.repeat(limit)))).toEqual([]);
      expect(issuesOf(withValue(base, path, `${'😀'.repeat(limit)}x`))[0]).toMatchObject({
        size: limit + 1,
      });
    },
  );

  it.each(stringLimits.map((row) => ({ ...row, name: dotted(row.path) })))(
    'should reject an empty $name',
    ({ base, path }) => {
      const issues = issuesOf(withValue(base, path, ''));
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ path: dotted(path), limit: 1, size: 0 });
      expect(issues[0]!.message).toContain('is empty');
    },
  );

  it('should name the field, size and limit in the example message', () => {
    const issues = issuesOf(
      withValue(
        buttonBase,
        ['interactive', 'action', 'buttons', 0, 'reply', 'title'],
        'Talk to a human now!!',
      ),
    );
    expect(issues[0]!.message).toBe(
      'Button title "Talk to a human now!!" is 21 characters; the limit is 20 (spec 4.5.2)',
    );
  });

  it('should not truncate or alter accepted strings', () => {
    const body = '😀'.repeat(LIMITS.textBody.max);
    const result = validateContent({ type: 'text', text: { body } });
    expect(result).toEqual({ status: 'valid', value: { type: 'text', text: { body } } });
  });
});

describe('message number ranges', () => {
  const base = { type: 'location', location: { latitude: 0, longitude: 0 } };
  it.each([
    { field: 'latitude', ok: [90, -90, 0, 45.5], bad: [90.000001, -90.000001, 91], limit: 90 },
    {
      field: 'longitude',
      ok: [180, -180, 0, -179.9],
      bad: [180.000001, -180.000001, 181],
      limit: 180,
    },
  ])('should bound $field', ({ field, ok, bad, limit }) => {
    for (const v of ok) expect(issuesOf(withValue(base, ['location', field], v))).toEqual([]);
    for (const v of bad) {
      const issues = issuesOf(withValue(base, ['location', field], v));
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ path: `location.${field}`, limit: v < 0 ? -limit : limit });
      expect(issues[0]!.message).toContain('out of range');
    }
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '12.5', null])(
    'should reject a non-finite or non-number coordinate %s',
    (value) => {
      const issues = issuesOf(withValue(base, ['location', 'latitude'], value));
      expect(issues).toHaveLength(1);
      expect(issues[0]!.path).toBe('location.latitude');
    },
  );
});

describe('message entry counts', () => {
  const button = (i: number) => ({ type: 'reply', reply: { id: `b${i}`, title: `B${i}` } });
  const rows = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({ id: `r${from + i}`, title: `Row ${from + i}` }));
  const sections = (sizes: number[]) => {
    let from = 0;
    return sizes.map((n, s) => {
      const section = { title: `S${s}`, rows: rows(n, from) };
      from += n;
      return section;
    });
  };
  const buttonsPath = ['interactive', 'action', 'buttons'];
  const sectionsPath = ['interactive', 'action', 'sections'];
  const cardsOf = (field: string, n: number) =>
    withValue(
      contactBase,
      ['contacts', 0, field],
      Array.from({ length: n }, (_, i) => ({ [field.slice(0, -1)]: `v${i}` })),
    );

  it.each([
    {
      name: 'buttons',
      ok: withValue(buttonBase, buttonsPath, [1, 2, 3].map(button)),
      bad: withValue(buttonBase, buttonsPath, [1, 2, 3, 4].map(button)),
      path: 'interactive.action.buttons',
      limit: 3,
      size: 4,
    },
    {
      name: 'no buttons',
      ok: withValue(buttonBase, buttonsPath, [button(1)]),
      bad: withValue(buttonBase, buttonsPath, []),
      path: 'interactive.action.buttons',
      limit: 1,
      size: 0,
    },
    {
      name: 'sections',
      ok: withValue(listBase, sectionsPath, sections(Array(10).fill(1))),
      bad: withValue(listBase, sectionsPath, sections([])),
      path: 'interactive.action.sections',
      limit: 1,
      size: 0,
    },
    {
      name: 'total rows',
      ok: withValue(listBase, sectionsPath, sections([5, 5])),
      bad: withValue(listBase, sectionsPath, sections([5, 6])),
      path: 'interactive.action.sections',
      limit: 10,
      size: 11,
    },
    {
      name: 'phones',
      ok: cardsOf('phones', 3),
      bad: cardsOf('phones', 4),
      path: 'contacts[0].phones',
      limit: 3,
      size: 4,
    },
    {
      name: 'emails',
      ok: cardsOf('emails', 3),
      bad: cardsOf('emails', 4),
      path: 'contacts[0].emails',
      limit: 3,
      size: 4,
    },
    {
      name: 'urls',
      ok: cardsOf('urls', 3),
      bad: cardsOf('urls', 4),
      path: 'contacts[0].urls',
      limit: 3,
      size: 4,
    },
    {
      name: 'two contact cards',
      ok: contactBase,
      bad: withValue(contactBase, ['contacts', 1], contactBase.contacts[0]),
      path: 'contacts',
      limit: 1,
      size: 2,
    },
    {
      name: 'no contact cards',
      ok: contactBase,
      bad: withValue(contactBase, ['contacts'], []),
      path: 'contacts',
      limit: 1,
      size: 0,
    },
  ])('should accept the boundary and reject $name', ({ ok, bad, path, limit, size }) => {
    expect(issuesOf(ok)).toEqual([]);
    const issues = issuesOf(bad);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path, limit, size });
  });

  it('should report 11 sections both as too many sections and too many rows', () => {
    const issues = issuesOf(withValue(listBase, sectionsPath, sections(Array(11).fill(1))));
    expect(issues.map((i) => i.message)).toEqual([
      'List sections: 11 given; the limit is 1 to 10 (spec 4.5.2); remove 1',
      'List rows: 11 across the whole list; the limit is 10 (spec 4.5.2); remove 1',
    ]);
  });

  it('should reject a section without rows', () => {
    const issues = issuesOf(withValue(listBase, sectionsPath, [{ title: 'Empty', rows: [] }]));
    expect(issues).toEqual([
      expect.objectContaining({ path: 'interactive.action.sections[0].rows', limit: 1, size: 0 }),
    ]);
  });

  it('should report a count violation together with entry issues', () => {
    const four = [1, 2, 3, 4].map(button);
    four[0]!.reply.title = 'x'.repeat(21);
    const issues = issuesOf(withValue(buttonBase, buttonsPath, four));
    expect(issues.map((i) => i.path)).toEqual([
      'interactive.action.buttons[0].reply.title',
      'interactive.action.buttons',
    ]);
  });
});
