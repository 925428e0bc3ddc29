import { describe, expect, it } from 'vitest';
import { defineFlow, FlowError, FlowSchema, flowJsonSchema } from '../../src/flows/index.js';

const minimal = {
  id: 'hello',
  version: 1,
  start: 'hi',
  states: { hi: { say: 'Hello', final: true } },
};

function issues(value: unknown): string[] {
  const r = FlowSchema.safeParse(value);
  if (r.success) return [];
  return r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('FlowSchema', () => {
  it('should accept a minimal flow and apply defaults', () => {
    const flow = defineFlow({
      ...minimal,
      states: {
        hi: { menu: { body: 'Pick', options: [{ id: 'a', title: 'A', goto: 'bye' }] } },
        bye: { final: true },
      },
    });
    expect(flow.states['hi']?.menu?.type).toBe('buttons');
  });

  it('should report a non-kebab id, a version below 1 and an unknown key with exact messages', () => {
    expect(issues({ ...minimal, id: 'Bad Id', version: 0, colour: 'x' })).toEqual([
      'id: must be kebab-case (a-z, 0-9, "-")',
      'version: Too small: expected number to be >=1',
      ': Unrecognized key: "colour"',
    ]);
  });

  it('should reject a message with two content keys', () => {
    expect(
      issues({
        ...minimal,
        states: {
          hi: { say: { text: 'a', image: { link: 'https://x.example/a.png' } }, final: true },
        },
      }),
    ).toEqual(['states.hi.say: a message has exactly one content key; found text, image']);
  });

  it('should reject a state with both a menu and an ask', () => {
    const state = {
      menu: { body: 'b', options: [{ id: 'a', title: 'A', goto: 'hi' }] },
      ask: { prompt: 'p', var: 'x', goto: 'hi' },
    };
    expect(issues({ ...minimal, states: { hi: state } })).toEqual([
      'states.hi.ask: a state has at most one of menu, ask, call, subflow, handoff, branch; found menu, ask',
    ]);
  });

  it('should reject a state name containing the option id separator', () => {
    expect(issues({ ...minimal, start: 'a.b', states: { hi: { final: true } } })).toEqual([
      'start: must start with a letter and contain only letters, digits, "_" or "-" (at most 64)',
    ]);
  });

  it('should reject a malformed duration', () => {
    expect(
      issues({
        ...minimal,
        states: { hi: { say: 'x', timeout: { after: '10 minutes', goto: 'hi' } } },
      }),
    ).toEqual(['states.hi.timeout.after: must be a duration such as 500ms, 30s, 10m, 25h or 2d']);
  });

  it('should reject reserved variable names', () => {
    expect(issues({ ...minimal, vars: { contact: 'x' } })).toEqual([
      'vars.contact: "contact" and "error" are reserved names',
    ]);
  });
});

describe('defineFlow', () => {
  it('should throw a FlowError listing every issue with its path', () => {
    let caught: unknown;
    try {
      defineFlow({ ...minimal, version: 0, start: 'x y' });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(FlowError);
    const err = caught as FlowError;
    expect(err.name).toBe('FlowError');
    expect(err.issues.map((i) => i.path)).toEqual(['version', 'start']);
    expect(err.message).toContain('flow hello is not valid:\n  version: Too small');
  });
});

describe('flowJsonSchema', () => {
  it('should describe flow files with descriptions for editors', () => {
    const schema = flowJsonSchema() as {
      properties: Record<string, { description?: string; $ref?: string }>;
      required: string[];
      $defs?: Record<string, { description?: string }>;
    };
    expect(schema.required).toEqual(expect.arrayContaining(['id', 'version', 'start', 'states']));
    // Shared shapes are kept in $defs, so a property may be a reference.
    const start = schema.properties['start'];
    const resolved = start?.$ref ? schema.$defs?.[start.$ref.replace('#/$defs/', '')] : start;
    expect(start?.description ?? resolved?.description).toBe('The state the first message enters.');
    expect(JSON.stringify(schema)).toContain('rowsFrom');
  });
});
