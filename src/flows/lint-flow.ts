import { eventVariables } from './proactive-schema.js';
import type { Diagnostic } from './diagnostic.js';
import { formatFlowPath } from './diagnostic.js';
import type { FlowDefinition } from './flow-schema.js';
import { BUILTIN_NAMES, placeholders } from './interpolate.js';
import { contentDiagnostics } from './lint-content.js';
import { structuralDiagnostics } from './lint-structure.js';

/** Finds the source position of a path inside a flow file. */
export type PositionLookup = (
  path: string,
) => { readonly line: number; readonly column: number } | undefined;

/** Options of {@link lintFlow}. */
export interface LintOptions {
  /** File name put on every diagnostic. */
  readonly file?: string;
  /** Source positions (from `loadFlowFile`). */
  readonly positions?: PositionLookup;
  /** Handler names the bot provides; when given, unknown handler names are errors. */
  readonly handlers?: readonly string[];
}

/**
 * Lints a parsed flow: structure (targets, reachability, stuck states, loops, menus),
 * static content against the spec limits, `{{…}}` of undeclared variables and, when the
 * bot's handlers are known, handler names. Sorted by position.
 * @example
 * for (const d of lintFlow(flow, { file: 'flows/x.yaml', positions })) console.log(formatDiagnostic(d));
 */
export function lintFlow(flow: FlowDefinition, options: LintOptions = {}): Diagnostic[] {
  const found = [
    ...structuralDiagnostics(flow),
    ...contentDiagnostics(flow),
    ...variableDiagnostics(flow),
    ...(options.handlers === undefined ? [] : handlerDiagnostics(flow, options.handlers)),
  ];
  // A structural error and the message validator may report the same problem (e.g. a
  // duplicate option id): keep the structural one, it names the flow construct.
  const structural = new Set(
    found.filter((d) => d.rule !== 'content-limit' && d.severity === 'error').map((d) => d.path),
  );
  return found
    .filter((d) => d.rule !== 'content-limit' || !structural.has(d.path))
    .map((d) => {
      const pos = options.positions?.(d.path);
      return {
        ...d,
        ...(options.file === undefined ? {} : { file: options.file }),
        ...(pos === undefined ? {} : { line: pos.line, column: pos.column }),
      };
    })
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** Variables a flow declares: `vars`, `ask.var`, `call.sets`, `menu.onSelect.var` (+ `<var>Title`). */
export function declaredVariables(flow: FlowDefinition): Set<string> {
  const names = new Set([...Object.keys(flow.vars ?? {}), ...eventVariables(flow)]);
  for (const s of Object.values(flow.states)) {
    if (s.ask !== undefined) names.add(s.ask.var);
    for (const v of s.call?.sets ?? []) names.add(v);
    const v = s.menu?.onSelect?.var;
    if (v !== undefined) {
      names.add(v);
      names.add(`${v}Title`);
    }
  }
  return names;
}

function variableDiagnostics(flow: FlowDefinition): Diagnostic[] {
  const declared = declaredVariables(flow);
  const out: Diagnostic[] = [];
  const visit = (value: unknown, path: PropertyKey[]): void => {
    if (typeof value === 'string') {
      for (const name of placeholders(value)) {
        if (declared.has(name) || BUILTIN_NAMES.includes(name)) continue;
        out.push({
          severity: 'error',
          path: formatFlowPath(path),
          rule: 'undeclared-var',
          message: `{{${name}}} is not a declared variable (declare it in vars, ask.var, call.sets or menu.onSelect.var; contact fields are contact.name and contact.phone)`,
        });
      }
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, [...path, i]));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, [...path, k]);
    }
  };
  visit(flow, []);
  for (const [name, s] of Object.entries(flow.states)) {
    const from = s.menu?.rowsFrom;
    if (from !== undefined && !declared.has(from)) {
      out.push({
        severity: 'error',
        path: `states.${name}.menu.rowsFrom`,
        rule: 'undeclared-var',
        message: `rowsFrom names "${from}", which is not a declared variable (a handler declares it with call.sets)`,
      });
    }
  }
  return out;
}

function handlerDiagnostics(flow: FlowDefinition, handlers: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const known = new Set(handlers);
  const report = (path: string, name: string): void => {
    if (known.has(name)) return;
    out.push({
      severity: 'error',
      path,
      rule: 'unknown-handler',
      message: `handler "${name}" is not provided by the bot (known: ${handlers.length === 0 ? 'none' : handlers.join(', ')})`,
    });
  };
  for (const [name, s] of Object.entries(flow.states)) {
    if (s.call !== undefined) report(`states.${name}.call.handler`, s.call.handler);
    if (s.handoff?.notify !== undefined) report(`states.${name}.handoff.notify`, s.handoff.notify);
  }
  return out;
}
