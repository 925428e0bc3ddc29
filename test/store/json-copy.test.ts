import { describe, expect, it } from 'vitest';
import { jsonCopy } from '../../src/store/to-json.js';

/** What a JSON round trip of the value gives: the reference jsonCopy must match. */
function roundTrip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

class Money {
  constructor(readonly cents: number) {}
}

describe('jsonCopy', () => {
  const cases: Array<[string, unknown]> = [
    ['plain nested data', { kind: 'inbound', message: { id: 'm1', n: 1.5, ok: true, none: null } }],
    ['arrays of mixed values', [1, 'two', [3, { four: 4 }], null, false]],
    ['undefined properties, left out', { a: 1, b: undefined, c: { d: undefined } }],
    ['undefined, functions and symbols in arrays, as null', [undefined, () => 1, Symbol('s'), 2]],
    ['functions and symbols as properties, left out', { f: () => 1, s: Symbol('s'), k: 1 }],
    ['non-finite numbers, as null', { nan: NaN, inf: Infinity, list: [-Infinity] }],
    ['minus zero, as zero', { z: -0, list: [-0] }],
    ['a Date, as its ISO string', { at: new Date(Date.UTC(2026, 10, 26, 9, 0, 0, 123)) }],
    ['a class instance, as its own fields', { price: new Money(250) }],
    ['an object with toJSON', { v: { toJSON: () => ({ replaced: true }) } }],
    ['an own __proto__ key', JSON.parse('{"__proto__":{"polluted":true},"a":1}') as unknown],
    ['a prototype-less object', Object.assign(Object.create(null) as object, { a: { b: 1 } })],
    ['boxed primitives', { s: Object('text') as unknown, n: Object(2) as unknown }],
    ['a string, a number, a boolean, null', ['s', 1, true, null]],
  ];

  for (const [name, value] of cases) {
    it(`should copy ${name} as a JSON round trip does`, () => {
      const copy = jsonCopy(value, 'test value');
      expect(copy).toStrictEqual(roundTrip(value));
      expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    });
  }

  it('should not pollute the prototype of the copy through a __proto__ key', () => {
    const copy = jsonCopy(JSON.parse('{"__proto__":{"polluted":true}}'), 'x') as object;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('should share no object with its source', () => {
    const source = { deep: { list: [{ n: 1 }] } };
    const copy = jsonCopy(source, 'x') as typeof source;
    source.deep.list[0]!.n = 2;
    source.deep.list.push({ n: 3 });
    expect(copy).toEqual({ deep: { list: [{ n: 1 }] } });
  });

  it('should copy deep nesting that JSON can still write', () => {
    let deep: unknown = { leaf: true };
    for (let i = 0; i < 200; i++) deep = { next: deep };
    expect(jsonCopy(deep, 'x')).toStrictEqual(roundTrip(deep));
  });

  it('should throw as toJson does for what JSON cannot write, naming the value', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(() => jsonCopy(cyclic, 'inbox item m1')).toThrow(
      /Cannot store inbox item m1: the value is not JSON-serialisable/,
    );
    expect(() => jsonCopy({ n: 10n }, 'inbox item m2')).toThrow(/inbox item m2/);
    expect(() => jsonCopy(undefined, 'inbox item m3')).toThrow(/inbox item m3.*undefined/);
    expect(() => jsonCopy(() => 1, 'inbox item m4')).toThrow(/inbox item m4/);
  });
});
