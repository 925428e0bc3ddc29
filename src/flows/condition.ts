import type { VarValue } from './contract.js';

/**
 * The condition language of `branch: - if:` — small, safe, parsed once, never `eval`ed:
 *
 * - literals: `"text"`, `'text'`, numbers (`3`, `-2.5`), `true`, `false`, `null`, lists `[1, 2]`
 * - names: `size`, `contact.language` (a missing value reads as `null`)
 * - comparison: `==`, `!=`, `<`, `<=`, `>`, `>=` (order only between numbers, or between strings)
 * - membership: `x in ["a", "b"]`, `x not in [...]`
 * - presence: a bare name is true when it is set (not null, not ""); `not x` when it is not
 * - `not`, `and`, `or`, parentheses
 *
 * Text comparison with `==` / `in` is exact (case-sensitive); typed answers normalised by
 * `ask` (oneOf, phone, time…) compare well.
 */

/** A parsed condition. */
export type Condition =
  | { readonly kind: 'literal'; readonly value: VarValue }
  | { readonly kind: 'list'; readonly items: readonly Condition[] }
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'not'; readonly operand: Condition }
  | { readonly kind: 'and' | 'or'; readonly left: Condition; readonly right: Condition }
  | {
      readonly kind: 'compare';
      readonly op: CompareOp;
      readonly left: Condition;
      readonly right: Condition;
    };

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in';

/** Outcome of {@link parseCondition}; `offset` is where in the text the problem is. */
export type ParseResult =
  | { readonly status: 'ok'; readonly condition: Condition }
  | { readonly status: 'error'; readonly message: string; readonly offset: number };

interface Token {
  readonly type: 'num' | 'str' | 'word' | 'op' | 'punct' | 'end';
  readonly text: string;
  readonly value?: VarValue;
  readonly at: number;
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?/y;
const NUM = /-?\d+(?:\.\d+)?/y;

class ConditionSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'ConditionSyntaxError';
    this.offset = offset;
  }
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new ConditionSyntaxError(`unterminated string starting with ${c}`, i);
      out.push({ type: 'str', text: text.slice(i, end + 1), value: text.slice(i + 1, end), at: i });
      i = end + 1;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (['==', '!=', '<=', '>='].includes(two)) {
      out.push({ type: 'op', text: two, at: i });
      i += 2;
      continue;
    }
    if (c === '<' || c === '>') {
      out.push({ type: 'op', text: c, at: i });
      i++;
      continue;
    }
    if (c === '=') throw new ConditionSyntaxError('"=" is not an operator: write == to compare', i);
    if ('()[],'.includes(c)) {
      out.push({ type: 'punct', text: c, at: i });
      i++;
      continue;
    }
    NUM.lastIndex = i;
    const num = NUM.exec(text);
    if (num !== null && (c !== '-' || /\d/.test(text[i + 1] ?? ''))) {
      out.push({ type: 'num', text: num[0], value: Number(num[0]), at: i });
      i += num[0].length;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word !== null) {
      out.push({ type: 'word', text: word[0], at: i });
      i += word[0].length;
      continue;
    }
    if (c === '&' || c === '|')
      throw new ConditionSyntaxError(`"${c}${c}" is written ${c === '&' ? 'and' : 'or'}`, i);
    throw new ConditionSyntaxError(`unexpected character "${c}"`, i);
  }
  out.push({ type: 'end', text: '', at: text.length });
  return out;
}

/**
 * Parses a condition; errors name what is wrong and where.
 * @example
 * parseCondition('size == "large" and toppings > 2');
 */
export function parseCondition(text: string): ParseResult {
  try {
    const tokens = tokenize(text);
    let pos = 0;
    const peek = (): Token => tokens[pos] ?? { type: 'end', text: '', at: text.length };
    const next = (): Token => {
      const t = peek();
      pos++;
      return t;
    };
    const isWord = (w: string): boolean => peek().type === 'word' && peek().text === w;
    const expect = (p: string): void => {
      const t = next();
      if (t.text !== p)
        throw new ConditionSyntaxError(`expected "${p}" but found ${describe(t)}`, t.at);
    };
    const or = (): Condition => {
      let left = and();
      while (isWord('or')) {
        next();
        left = { kind: 'or', left, right: and() };
      }
      return left;
    };
    const and = (): Condition => {
      let left = not();
      while (isWord('and')) {
        next();
        left = { kind: 'and', left, right: not() };
      }
      return left;
    };
    const not = (): Condition => {
      if (isWord('not')) {
        next();
        return { kind: 'not', operand: not() };
      }
      return compare();
    };
    const compare = (): Condition => {
      const left = primary();
      const t = peek();
      if (t.type === 'op') {
        next();
        return { kind: 'compare', op: t.text as CompareOp, left, right: primary() };
      }
      if (isWord('in')) {
        next();
        return { kind: 'compare', op: 'in', left, right: primary() };
      }
      if (isWord('not') && tokens[pos + 1]?.text === 'in') {
        pos += 2;
        return { kind: 'compare', op: 'not in', left, right: primary() };
      }
      return left;
    };
    const primary = (): Condition => {
      const t = next();
      if (t.type === 'num' || t.type === 'str') return { kind: 'literal', value: t.value ?? null };
      if (t.text === '(') {
        const inner = or();
        expect(')');
        return inner;
      }
      if (t.text === '[') {
        const items: Condition[] = [];
        if (peek().text !== ']') {
          for (;;) {
            items.push(primary());
            if (peek().text !== ',') break;
            next();
          }
        }
        expect(']');
        return { kind: 'list', items };
      }
      if (t.type === 'word') {
        if (t.text === 'true' || t.text === 'false')
          return { kind: 'literal', value: t.text === 'true' };
        if (t.text === 'null') return { kind: 'literal', value: null };
        if (['and', 'or', 'not', 'in'].includes(t.text))
          throw new ConditionSyntaxError(`"${t.text}" needs a value before it`, t.at);
        return { kind: 'name', name: t.text };
      }
      throw new ConditionSyntaxError(`expected a value but found ${describe(t)}`, t.at);
    };
    const condition = or();
    const rest = peek();
    if (rest.type !== 'end')
      throw new ConditionSyntaxError(
        `unexpected ${describe(rest)} (join conditions with and / or)`,
        rest.at,
      );
    return { status: 'ok', condition };
  } catch (error) {
    if (error instanceof ConditionSyntaxError)
      return { status: 'error', message: error.message, offset: error.offset };
    throw error;
  }
}

function describe(t: Token): string {
  return t.type === 'end' ? 'the end of the condition' : `"${t.text}"`;
}

/** Reads a name's value (`contact.x` included); undefined reads as null. */
export type Lookup = (name: string) => VarValue | undefined;

type Value = VarValue | readonly Value[];

/** Evaluates a condition. Never throws: a comparison of different types is false. */
export function evaluateCondition(c: Condition, lookup: Lookup): boolean {
  return truthy(value(c, lookup));
}

function value(c: Condition, lookup: Lookup): Value {
  switch (c.kind) {
    case 'literal':
      return c.value;
    case 'list':
      return c.items.map((i) => value(i, lookup));
    case 'name':
      return lookup(c.name) ?? null;
    case 'not':
      return !truthy(value(c.operand, lookup));
    case 'and':
      return truthy(value(c.left, lookup)) && truthy(value(c.right, lookup));
    case 'or':
      return truthy(value(c.left, lookup)) || truthy(value(c.right, lookup));
    case 'compare':
      return compareValues(c.op, value(c.left, lookup), value(c.right, lookup));
  }
}

function truthy(v: Value): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return v !== null && v !== '' && v !== false;
}

function compareValues(op: CompareOp, a: Value, b: Value): boolean {
  if (op === 'in' || op === 'not in') {
    const hit = Array.isArray(b) ? b.some((x) => x === a) : false;
    return op === 'in' ? hit : !hit;
  }
  if (op === '==') return a === b;
  if (op === '!=') return a !== b;
  const bothNumbers = typeof a === 'number' && typeof b === 'number';
  const bothStrings = typeof a === 'string' && typeof b === 'string';
  if (!bothNumbers && !bothStrings) return false;
  const x = a;
  const y = b;
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
  }
}

/** Every name a condition reads. */
export function conditionNames(c: Condition): string[] {
  switch (c.kind) {
    case 'literal':
      return [];
    case 'list':
      return c.items.flatMap(conditionNames);
    case 'name':
      return [c.name];
    case 'not':
      return conditionNames(c.operand);
    case 'and':
    case 'or':
    case 'compare':
      return [...conditionNames(c.left), ...conditionNames(c.right)];
  }
}

/** A static type: what the linter knows of a value. */
export type StaticType = 'string' | 'number' | 'boolean' | 'null' | 'list' | 'unknown';

/**
 * Type mismatches a linter can see: order comparisons of a number with a text, `==`
 * between a number and a text, `in` with something that is not a list, and a list of
 * values of another type than the left side.
 */
export function conditionTypeIssues(c: Condition, typeOf: (name: string) => StaticType): string[] {
  const issues: string[] = [];
  const t = (x: Condition): StaticType => {
    if (x.kind === 'literal') return x.value === null ? 'null' : (typeof x.value as StaticType);
    if (x.kind === 'list') return 'list';
    if (x.kind === 'name') return typeOf(x.name);
    return 'boolean';
  };
  const show = (x: Condition): string =>
    x.kind === 'name'
      ? `${x.name} (${t(x)})`
      : x.kind === 'literal'
        ? JSON.stringify(x.value)
        : t(x);
  const walk = (x: Condition): void => {
    if (x.kind === 'not') walk(x.operand);
    else if (x.kind === 'and' || x.kind === 'or') {
      walk(x.left);
      walk(x.right);
    } else if (x.kind === 'compare') {
      const [a, b] = [t(x.left), t(x.right)];
      const known = (y: StaticType): boolean => y !== 'unknown' && y !== 'null';
      if (x.op === 'in' || x.op === 'not in') {
        if (b !== 'list' && b !== 'unknown')
          issues.push(
            `"${x.op}" needs a list on its right, e.g. ["a", "b"]; found ${show(x.right)}`,
          );
        if (x.right.kind === 'list' && known(a)) {
          for (const item of x.right.items) {
            const it = t(item);
            if (known(it) && it !== a)
              issues.push(`${show(x.left)} is compared with ${show(item)}, a ${it}: never equal`);
          }
        }
      } else if (known(a) && known(b) && a !== b) {
        issues.push(`${show(x.left)} ${x.op} ${show(x.right)} compares a ${a} with a ${b}`);
      } else if (
        ['<', '<=', '>', '>='].includes(x.op) &&
        ((known(a) && a !== 'number' && a !== 'string') ||
          (known(b) && b !== 'number' && b !== 'string'))
      ) {
        issues.push(
          `${x.op} orders numbers or texts only; found ${show(x.left)} and ${show(x.right)}`,
        );
      }
    }
  };
  walk(c);
  return issues;
}

/** A condition with no names: always true or always false. */
export function constantCondition(c: Condition): boolean | undefined {
  if (conditionNames(c).length > 0) return undefined;
  return evaluateCondition(c, () => null);
}
