import {
  conditionNames,
  conditionTypeIssues,
  constantCondition,
  parseCondition,
  type StaticType,
} from './condition.js';
import type { Diagnostic } from './diagnostic.js';
import { formatFlowPath } from './diagnostic.js';
import type { FlowDefinition } from './flow-schema.js';
import { BUILTIN_NAMES, placeholders } from './interpolate.js';
import { eventVariables } from './proactive-schema.js';
import { capturedSuffixes, isNonTextKind } from './validate-answer.js';

/**
 * Lint rules of values: declared variables (flow variables and `contact.` memory),
 * placeholders that are not well-formed, `set` targets, and `branch` conditions
 * (syntax, unknown names, type mismatches it can see, rules that can never be taken).
 */

/** Variables a flow declares, with the static type the linter can see (`unknown` if mixed). */
export function variableTypes(flow: FlowDefinition): Map<string, StaticType> {
  const types = new Map<string, StaticType>();
  const add = (name: string, type: StaticType): void => {
    const had = types.get(name);
    if (had === undefined || had === 'null') types.set(name, type);
    else if (had !== type && type !== 'null') types.set(name, 'unknown');
  };
  const literal = (v: unknown): StaticType =>
    v === null ? 'null' : typeof v === 'string' ? 'string' : (typeof v as StaticType);
  for (const [k, v] of Object.entries(flow.vars ?? {})) add(k, literal(v));
  for (const [k, v] of Object.entries(flow.contact ?? {})) add(`contact.${k}`, literal(v));
  add('contact.name', 'string');
  add('contact.phone', 'string');
  for (const name of flow.inputs ?? []) add(name, 'unknown');
  for (const name of eventVariables(flow)) add(name, 'unknown');
  // Intent slots set their variables when the intent acts (docs/understanding.md).
  for (const intent of Object.values(flow.intents ?? {}))
    for (const [name, slot] of Object.entries(intent.slots ?? {})) {
      const kind = typeof slot === 'string' ? slot : slot.kind;
      add(name, kind === 'number' || kind === 'integer' || kind === 'amount' ? 'number' : 'string');
    }
  const setTypes = (set: Readonly<Record<string, unknown>> | undefined): void => {
    for (const [k, v] of Object.entries(set ?? {}))
      add(k, typeof v === 'string' && /^\{\{[^}]*\}\}$/.test(v.trim()) ? 'unknown' : literal(v));
  };
  for (const s of Object.values(flow.states)) {
    setTypes(s.set);
    for (const o of s.menu?.options ?? []) setTypes(o.set);
    if (s.ask !== undefined) {
      const kind = s.ask.validate?.kind;
      add(s.ask.var, kind === 'number' ? 'number' : 'string');
      for (const suffix of capturedSuffixes(s.ask.validate))
        add(
          `${s.ask.var}${suffix}`,
          suffix === 'Latitude' || suffix === 'Longitude' ? 'number' : 'string',
        );
    }
    for (const v of s.call?.sets ?? []) add(v, 'unknown');
    const sel = s.menu?.onSelect?.var;
    if (sel !== undefined) {
      add(sel, 'string');
      add(`${sel}Title`, 'string');
    }
    for (const target of Object.keys(s.subflow?.output ?? {})) add(target, 'unknown');
  }
  return types;
}

/** Diagnostics of variables, placeholders and conditions. */
export function valueDiagnostics(flow: FlowDefinition): Diagnostic[] {
  const out: Diagnostic[] = [];
  const types = variableTypes(flow);
  const declaredContact = new Set(['name', 'phone', ...Object.keys(flow.contact ?? {})]);
  const known = (name: string): boolean =>
    types.has(name) ||
    BUILTIN_NAMES.includes(name) ||
    (name.startsWith('contact.') && declaredContact.has(name.slice('contact.'.length)));
  const unknownMessage = (name: string): string =>
    name.startsWith('contact.')
      ? `contact.${name.slice(8)} is not a contact memory field: declare it under contact: (e.g. contact: { ${name.slice(8)}: null }); built in: contact.name, contact.phone`
      : `"${name}" is not a declared variable (declare it in vars, ask.var, set, call.sets, menu.onSelect.var, subflow.output or inputs)`;

  // Placeholders: well-formed, and naming declared variables.
  const visit = (value: unknown, path: PropertyKey[]): void => {
    if (typeof value === 'string') {
      const p = formatFlowPath(path);
      if (/\.validate\.pattern$/.test(p) || (p.startsWith('translations.') && path.length === 2))
        return;
      const bad = malformedPlaceholder(value);
      if (bad !== undefined)
        out.push({ severity: 'error', path: p, rule: 'bad-placeholder', message: bad });
      for (const name of placeholders(value)) {
        if (known(name)) continue;
        out.push({
          severity: 'error',
          path: p,
          rule: 'undeclared-var',
          message: `{{${name}}}: ${unknownMessage(name)}`,
        });
      }
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, [...path, i]));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, [...path, k]);
    }
  };
  visit(flow, []);

  const checkTarget = (target: string, path: string): void => {
    if (target.startsWith('contact.') && !declaredContact.has(target.slice(8)))
      out.push({
        severity: 'error',
        path,
        rule: 'undeclared-var',
        message: unknownMessage(target),
      });
  };
  if (flow.locale !== undefined && !known(flow.locale))
    out.push({
      severity: 'error',
      path: 'locale',
      rule: 'undeclared-var',
      message: unknownMessage(flow.locale),
    });
  for (const [name, s] of Object.entries(flow.states)) {
    const p = `states.${name}`;
    for (const t of Object.keys(s.set ?? {})) checkTarget(t, `${p}.set.${t}`);
    s.menu?.options.forEach((o, i) => {
      for (const t of Object.keys(o.set ?? {})) checkTarget(t, `${p}.menu.options[${i}].set.${t}`);
    });
    if (s.ask !== undefined) {
      checkTarget(s.ask.var, `${p}.ask.var`);
      if (s.ask.var.startsWith('contact.') && isNonTextKind(s.ask.validate))
        out.push({
          severity: 'error',
          path: `${p}.ask.var`,
          rule: 'ask-var',
          message: `a ${s.ask.validate?.kind ?? ''} answer sets several variables: store it in a flow variable, then copy what to keep with set:`,
        });
    }
    for (const t of Object.keys(s.subflow?.output ?? {}))
      checkTarget(t, `${p}.subflow.output.${t}`);
    if (s.menu?.rowsFrom !== undefined && !known(s.menu.rowsFrom))
      out.push({
        severity: 'error',
        path: `${p}.menu.rowsFrom`,
        rule: 'undeclared-var',
        message: `rowsFrom names "${s.menu.rowsFrom}", which is not a declared variable (a handler declares it with call.sets)`,
      });
    if (s.branch !== undefined)
      out.push(...branchDiagnostics(p, s.branch, types, known, unknownMessage));
    if (s.timeout?.nudges !== undefined && s.timeout.nudge === undefined)
      out.push({
        severity: 'warning',
        path: `${p}.timeout.nudges`,
        rule: 'nudge',
        message: 'nudges without nudge: nothing is said; add nudge: <text>',
      });
  }
  return out;
}

function branchDiagnostics(
  p: string,
  rules: NonNullable<FlowDefinition['states'][string]['branch']>,
  types: Map<string, StaticType>,
  known: (name: string) => boolean,
  unknownMessage: (name: string) => string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const err = (path: string, rule: string, message: string): void =>
    void out.push({ severity: 'error', path, rule, message });
  let open = true;
  const seen = new Map<string, number>();
  rules.forEach((rule, i) => {
    const at = `${p}.branch[${i}]`;
    if (!open) {
      err(at, 'dead-branch', `this rule can never be taken: an earlier rule always applies`);
      return;
    }
    if (rule.if === undefined) {
      open = false;
      return;
    }
    const parsed = parseCondition(rule.if);
    if (parsed.status === 'error') {
      err(
        `${at}.if`,
        'bad-condition',
        `${parsed.message} (at character ${parsed.offset + 1} of "${rule.if}")`,
      );
      return;
    }
    const c = parsed.condition;
    for (const name of new Set(conditionNames(c)))
      if (!known(name)) err(`${at}.if`, 'undeclared-var', unknownMessage(name));
    for (const issue of conditionTypeIssues(
      c,
      (n) => types.get(n) ?? (n.startsWith('contact.') ? 'unknown' : 'unknown'),
    ))
      err(`${at}.if`, 'type-mismatch', issue);
    const constant = constantCondition(c);
    if (constant === false)
      err(`${at}.if`, 'dead-branch', `"${rule.if}" is always false: this rule can never be taken`);
    if (constant === true) open = false;
    const key = rule.if.replace(/\s+/g, ' ').trim();
    const first = seen.get(key);
    if (first !== undefined)
      err(
        `${at}.if`,
        'dead-branch',
        `the same condition as branch[${first}]: this rule can never be taken`,
      );
    else seen.set(key, i);
  });
  if (open)
    err(
      `${p}.branch[${rules.length - 1}]`,
      'branch-default',
      'the last rule of a branch has no if (where to go when no condition holds), or the conversation could stop here',
    );
  return out;
}

/** Why a string's placeholders are malformed, or undefined when they are fine. */
export function malformedPlaceholder(text: string): string | undefined {
  for (const m of text.matchAll(/\{\{([^{}]*)\}\}/g)) {
    const inner = (m[1] ?? '').trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(inner))
      return `"{{${m[1] ?? ''}}}" is not a placeholder: a name has letters, digits and "_" only (e.g. {{firstName}}, {{contact.name}})`;
  }
  const stripped = text.replace(/\{\{[^{}]*\}\}/g, '');
  const single = /\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}/.exec(stripped);
  if (single !== null)
    return `"${single[0]}" uses single braces: write {{${single[1] ?? ''}}} to insert a variable`;
  if (/\{\{|\}\}/.test(stripped)) return 'unbalanced {{ or }}: a placeholder is written {{name}}';
  return undefined;
}
