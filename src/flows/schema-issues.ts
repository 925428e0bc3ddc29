import type { z } from 'zod';
import { FlowSchema } from './flow-schema.js';

/**
 * Turns zod issues of a flow file into messages that are never vague: an unknown key is
 * reported at the key itself with a did-you-mean (and, for a key that belongs elsewhere,
 * where it goes); a missing key names the key and what it is for; a union (`say`, a
 * window rule…) reports the problem of the alternative the input was meant to be,
 * not "Invalid input".
 */

/** One issue with its full path and a readable message. */
export interface FlowSchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

type Issue = z.core.$ZodIssue;

/** Readable issues of a failed `FlowSchema` parse of `input`. */
export function describeIssues(issues: readonly Issue[], input: unknown): FlowSchemaIssue[] {
  const flat = flatten(issues, [], input);
  // A misspelt key (`promt`) also makes its correct key missing: report the spelling only.
  const suggested = new Set<string>();
  const out: FlowSchemaIssue[] = [];
  for (const issue of flat) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = knownKeys(issue.path);
    for (const key of issue.keys) {
      const path = [...issue.path, key];
      const hint = placementHint(issue.path, key, known);
      const guess = closest(key, known);
      if (guess !== undefined) suggested.add(pathKey([...issue.path, guess]));
      const replaced = REPLACES[`${String(issue.path.at(-1) ?? '')}.${key}`];
      if (replaced !== undefined) suggested.add(pathKey([...issue.path, replaced]));
      out.push({
        path,
        message:
          hint ??
          `unknown key "${key}"${guess === undefined ? '' : ` (did you mean "${guess}"?)`}${known.length > 0 && guess === undefined ? `; allowed here: ${known.join(', ')}` : ''}`,
      });
    }
  }
  for (const issue of flat) {
    if (issue.code === 'unrecognized_keys') continue;
    if (isMissing(issue, input)) {
      if (suggested.has(pathKey(issue.path))) continue;
      const key = String(issue.path.at(-1) ?? '');
      const about = describeKey(issue.path);
      out.push({
        path: issue.path,
        message: `missing required key "${key}"${about === undefined ? '' : ` (${about})`}`,
      });
      continue;
    }
    out.push({ path: issue.path, message: issue.message });
  }
  return out;
}

type FlatIssue = Issue & { readonly path: PropertyKey[] };

function flatten(issues: readonly Issue[], prefix: PropertyKey[], input: unknown): FlatIssue[] {
  const out: FlatIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const value = valueAt(input, path);
      if (value === undefined) {
        out.push({
          ...issue,
          code: 'invalid_type',
          expected: 'union',
          path,
        } as unknown as FlatIssue);
        continue;
      }
      const branch = bestBranch(issue.errors);
      if (branch !== undefined) {
        out.push(...flatten(branch, path, input));
        continue;
      }
      out.push({
        ...issue,
        path,
        message: `must be ${alternatives(issue.errors)}; found ${kindOf(value)}`,
      });
      continue;
    }
    out.push({ ...issue, path });
  }
  return out;
}

/** The alternative the input was meant to be: one whose failure is not its very type. */
function bestBranch(errors: readonly (readonly Issue[])[]): readonly Issue[] | undefined {
  const meant = errors.filter(
    (branch) =>
      !branch.some(
        (i) =>
          i.path.length === 0 &&
          (i.code === 'invalid_type' || i.code === 'invalid_value' || i.code === 'invalid_union'),
      ),
  );
  if (meant.length === 0) return undefined;
  return [...meant].sort((a, b) => a.length - b.length)[0];
}

function alternatives(errors: readonly (readonly Issue[])[]): string {
  const names = new Set<string>();
  for (const branch of errors) {
    for (const i of branch) {
      if (i.path.length !== 0) continue;
      if (i.code === 'invalid_type') names.add(typeName(String(i.expected)));
      else if (i.code === 'invalid_value')
        names.add(i.values.map((v) => JSON.stringify(v)).join(' or '));
    }
  }
  const list = [...names];
  if (list.length === 0) return 'one of the allowed forms';
  return list.length === 1
    ? (list[0] ?? '')
    : `${list.slice(0, -1).join(', ')} or ${list.at(-1) ?? ''}`;
}

function typeName(expected: string): string {
  if (expected === 'object') return 'a mapping (key: value)';
  if (expected === 'array') return 'a list';
  if (expected === 'string') return 'a text';
  return `a ${expected}`;
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${JSON.stringify(value)}`;
  return `${typeof value} ${JSON.stringify(value) ?? typeof value}`;
}

function isMissing(issue: FlatIssue, input: unknown): boolean {
  return (
    issue.code === 'invalid_type' &&
    issue.path.length > 0 &&
    valueAt(input, issue.path) === undefined &&
    isObject(valueAt(input, issue.path.slice(0, -1)))
  );
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (Array.isArray(v) && typeof key === 'number') v = v[key];
    else if (isObject(v)) v = v[String(key)];
    else return undefined;
  }
  return v;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pathKey(path: readonly PropertyKey[]): string {
  return path.map(String).join('\u0000');
}

/** `construct.wrongKey` → the key it stands for (its "missing" issue is not repeated). */
const REPLACES: Record<string, string> = {
  'handoff.goto': 'resume',
  'handoff.next': 'resume',
  'ask.say': 'prompt',
  'ask.question': 'prompt',
  'menu.text': 'body',
};

/** Keys of constructs that are often put in the wrong place, and where they go. */
function placementHint(
  parent: readonly PropertyKey[],
  key: string,
  known: readonly string[],
): string | undefined {
  const construct = String(parent.at(-1) ?? 'the flow');
  const where = parent.length === 0 ? 'at the top of the flow' : `in ${construct}`;
  if (construct === 'handoff' && (key === 'goto' || key === 'next'))
    return `handoff has no "${key}": it takes resume: <state>, the state to go to after a person selects "Release to API"`;
  if (key === 'window')
    return `a window rule is not allowed ${where}: put window: { onClosed: template | wait | goto } on a message of a say (say: - text: …, window: …), on a menu, or at the top of the flow`;
  if (
    key === 'timeout' &&
    ['ask', 'menu', 'call'].includes(construct) &&
    !known.includes('timeout')
  )
    return `timeout is a key of the state (beside ${construct}), not of ${construct}: timeout: { after: 10m, goto: <state> }`;
  if (key === 'say' && construct === 'ask')
    return 'ask has no "say": the question is its prompt: (say: on the state is said before it)';
  if (key === 'options' && parent.length === 2 && parent[0] === 'states')
    return 'options belong in a menu: menu: { body: …, options: [...] }';
  if (key === 'goto' && construct === 'otherwise' && known.includes('goto')) return undefined;
  if ((key === 'if' || key === 'when') && parent.length === 2 && parent[0] === 'states')
    return `a condition goes in a branch: branch: [{ if: <condition>, goto: <state> }, { goto: <state> }]`;
  return undefined;
}

/** Edit distance with adjacent transpositions (small strings): `fnial` is 1 from `final`. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, at(i - 2, j - 2) + 1);
      const row = d[i];
      if (row !== undefined) row[j] = v;
    }
  }
  return at(a.length, b.length);
}

/** The closest known key (also a plural/singular slip or a different case), if close enough. */
export function closest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const kl = k.toLowerCase();
    const d =
      kl === lower ? 0 : kl.startsWith(lower) || lower.startsWith(kl) ? 1 : distance(lower, kl);
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  const limit = Math.max(1, Math.min(3, Math.floor(key.length / 3)));
  return bestD <= limit ? best : undefined;
}

// ---- walking the schema -------------------------------------------------------------

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly valueType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The object schemas a path may name (several through unions). */
function schemasAt(path: readonly PropertyKey[]): z.ZodType[] {
  let current: z.ZodType[] = [FlowSchema];
  for (const key of path) {
    const next: z.ZodType[] = [];
    for (const s of current.flatMap(unwrap)) {
      const def = defOf(s);
      if (def.type === 'object' && def.shape !== undefined) {
        const child = def.shape[String(key)];
        if (child !== undefined) next.push(child);
      } else if (def.type === 'record' && def.valueType !== undefined) {
        next.push(def.valueType);
      } else if (def.type === 'array' && def.element !== undefined && typeof key === 'number') {
        next.push(def.element);
      }
    }
    current = next;
  }
  return current.flatMap(unwrap);
}

/** Removes optional/default/nullable wrappers and splits unions (and arrays of a union item). */
function unwrap(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  if (
    def.innerType !== undefined &&
    ['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(
      def.type,
    )
  )
    return unwrap(def.innerType);
  if (def.type === 'pipe' && def.in !== undefined) return unwrap(def.in);
  if (def.type === 'union' && def.options !== undefined) return def.options.flatMap(unwrap);
  return [schema];
}

/** Keys the schema allows at a path (empty when it is not a fixed mapping). */
export function knownKeys(path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const s of schemasAt(path)) {
    const def = defOf(s);
    if (def.type === 'object' && def.shape !== undefined)
      for (const k of Object.keys(def.shape)) keys.add(k);
    if (def.type === 'array' && def.element !== undefined) {
      for (const e of unwrap(def.element)) {
        const d = defOf(e);
        if (d.type === 'object' && d.shape !== undefined)
          for (const k of Object.keys(d.shape)) keys.add(k);
      }
    }
  }
  return [...keys].filter((k) => k !== '$schema');
}

function describeKey(path: readonly PropertyKey[]): string | undefined {
  for (const s of schemasAt(path)) {
    const text = (s as { description?: string }).description;
    if (text !== undefined) return lowerFirst(text);
  }
  // Wrapped schemas keep the description on the outer one.
  const parent = schemasAt(path.slice(0, -1));
  for (const p of parent) {
    const def = defOf(p);
    const child = def.shape?.[String(path.at(-1))];
    const text = (child as { description?: string } | undefined)?.description;
    if (text !== undefined) return lowerFirst(text);
  }
  return undefined;
}

function lowerFirst(text: string): string {
  const t = text.replace(/\.$/, '');
  return /^[A-Z][a-z]/.test(t) ? `${t[0]?.toLowerCase() ?? ''}${t.slice(1)}` : t;
}
