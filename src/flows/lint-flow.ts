import type { Diagnostic } from './diagnostic.js';
import type { FlowDefinition } from './flow-schema.js';
import { sayItems, type SayInput } from './content-schema.js';
import { contentDiagnostics } from './lint-content.js';
import { intentDiagnostics } from './lint-intents.js';
import { localeDiagnostics } from './lint-locales.js';
import { structuralDiagnostics } from './lint-structure.js';
import { subflowDiagnostics } from './lint-subflows.js';
import { valueDiagnostics, variableTypes } from './lint-values.js';

/** Finds the source position of a path inside a flow file. */
export type PositionLookup = (
  path: string,
) => { readonly line: number; readonly column: number } | undefined;

/** What the linter knows of a handler: declared outcomes are checked against `call.outcomes`. */
export interface HandlerInfo {
  readonly outcomes?: readonly string[];
}

/** Options of {@link lintFlow}. */
export interface LintOptions {
  /** File name put on every diagnostic. */
  readonly file?: string;
  /** Source positions (from `loadFlowFile`). */
  readonly positions?: PositionLookup;
  /**
   * Handlers the bot provides (names, or names with their declared outcomes); when
   * given, unknown handler names are errors, and so are outcomes a handler does not
   * declare or declares but the flow does not route.
   */
  readonly handlers?: readonly string[] | Readonly<Record<string, HandlerInfo>>;
  /**
   * The other flows of the bot by id: when given, `subflow.use` must name one of them,
   * inputs and outputs must match what it declares, and sub-flow cycles are errors.
   */
  readonly flows?: ReadonlyMap<string, FlowDefinition>;
}

/**
 * Lints a parsed flow: structure (targets, reachability, stuck states, loops, menus),
 * static content against the spec limits (in every locale), variables, placeholders and
 * conditions, translations, sub-flows and, when the bot's handlers are known, handler
 * names and outcomes. Sorted by position.
 * @example
 * for (const d of lintFlow(flow, { file: 'flows/x.yaml', positions })) console.log(formatDiagnostic(d));
 */
export function lintFlow(flow: FlowDefinition, options: LintOptions = {}): Diagnostic[] {
  const found = [
    ...structuralDiagnostics(flow),
    ...contentDiagnostics(flow),
    ...valueDiagnostics(flow),
    ...localeDiagnostics(flow),
    ...delayDiagnostics(flow),
    ...intentDiagnostics(flow),
    ...(options.flows === undefined ? [] : subflowDiagnostics(flow, options.flows)),
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

/**
 * Variables a flow declares: `vars`, `inputs`, `ask.var` (and what a typed answer adds),
 * `set`, `call.sets`, `menu.onSelect.var` (+ `<var>Title`), `subflow.output`, `on.*.vars`,
 * and `contact.<field>` of contact memory.
 */
export function declaredVariables(flow: FlowDefinition): Set<string> {
  return new Set(variableTypes(flow).keys());
}

/** `delay:` is a pause inside a state's `say` only. */
function delayDiagnostics(flow: FlowDefinition): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = (prefix: string, input: SayInput | undefined): void => {
    sayItems(input).forEach((item, i) => {
      if (item.delay !== undefined)
        out.push({
          severity: 'error',
          path: `${Array.isArray(input) ? `${prefix}[${i}]` : prefix}.delay`,
          rule: 'delay-place',
          message: "delay: pauses the messages of a state's say only (not here)",
        });
    });
  };
  check('fallback', flow.fallback);
  check('stale', flow.stale);
  for (const [name, s] of Object.entries(flow.states)) {
    const p = `states.${name}`;
    check(`${p}.ask.prompt`, s.ask?.prompt);
    check(`${p}.ask.retry`, s.ask?.retry);
    check(`${p}.otherwise.say`, s.otherwise?.say);
    check(`${p}.timeout.nudge`, s.timeout?.nudge);
    check(`${p}.remind.say`, s.remind?.say);
  }
  return out;
}

function handlerDiagnostics(
  flow: FlowDefinition,
  handlers: readonly string[] | Readonly<Record<string, HandlerInfo>>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const info: Readonly<Record<string, HandlerInfo>> = Array.isArray(handlers)
    ? Object.fromEntries((handlers as readonly string[]).map((h) => [h, {}]))
    : (handlers as Readonly<Record<string, HandlerInfo>>);
  const names = Object.keys(info);
  const report = (path: string, name: string): boolean => {
    if (Object.hasOwn(info, name)) return true;
    out.push({
      severity: 'error',
      path,
      rule: 'unknown-handler',
      message: `handler "${name}" is not provided by the bot (known: ${names.length === 0 ? 'none' : names.join(', ')})`,
    });
    return false;
  };
  for (const [name, s] of Object.entries(flow.states)) {
    if (s.call !== undefined && report(`states.${name}.call.handler`, s.call.handler)) {
      const declared = info[s.call.handler]?.outcomes;
      if (declared !== undefined) {
        for (const outcome of Object.keys(s.call.outcomes)) {
          if (!declared.includes(outcome))
            out.push({
              severity: 'error',
              path: `states.${name}.call.outcomes.${outcome}`,
              rule: 'unknown-outcome',
              message: `handler "${s.call.handler}" never returns "${outcome}" (it declares ${declared.join(', ')})`,
            });
        }
        const missing = declared.filter((o) => !Object.hasOwn(s.call?.outcomes ?? {}, o));
        if (missing.length > 0)
          out.push({
            severity: 'error',
            path: `states.${name}.call.outcomes`,
            rule: 'unrouted-outcome',
            message: `handler "${s.call.handler}" may return ${missing.map((m) => `"${m}"`).join(', ')}, which this state does not route (add ${missing.length === 1 ? 'it' : 'them'} to outcomes)`,
          });
      }
    }
    if (s.handoff?.notify !== undefined) report(`states.${name}.handoff.notify`, s.handoff.notify);
  }
  return out;
}
