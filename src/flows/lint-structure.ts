import type { Diagnostic } from './diagnostic.js';
import { globalEdges, stateEdges, type Edge } from './flow-edges.js';
import type { FlowDefinition } from './flow-schema.js';

/**
 * Structural lint rules (no content, no handlers): unknown targets, unreachable states,
 * states with no way out, `goto` loops, option id clashes and menu shape. `compileFlow`
 * refuses flows with structural errors.
 */
export function structuralDiagnostics(flow: FlowDefinition): Diagnostic[] {
  const out: Diagnostic[] = [];
  const names = new Set(Object.keys(flow.states));
  const error = (path: string, rule: string, message: string): void => {
    out.push({ severity: 'error', path, rule, message });
  };
  const warn = (path: string, rule: string, message: string): void => {
    out.push({ severity: 'warning', path, rule, message });
  };

  const unknown = (e: Edge): void => {
    if (!names.has(e.target))
      error(e.path, 'unknown-target', `unknown state "${e.target}"${suggest(e.target, names)}`);
  };
  if (!names.has(flow.start))
    error('start', 'unknown-target', `unknown state "${flow.start}"${suggest(flow.start, names)}`);
  const global = globalEdges(flow);
  global.forEach(unknown);
  const edges = new Map<string, Edge[]>();
  for (const [name, s] of Object.entries(flow.states)) {
    const own = stateEdges(name, s);
    own.forEach(unknown);
    edges.set(name, own);
  }

  // Reachability from the start state and the global targets.
  const seen = new Set<string>();
  const queue = [flow.start, ...global.map((e) => e.target)].filter((n) => names.has(n));
  while (queue.length > 0) {
    const n = queue.pop() ?? '';
    if (seen.has(n)) continue;
    seen.add(n);
    for (const e of edges.get(n) ?? []) if (names.has(e.target)) queue.push(e.target);
  }
  for (const name of names) {
    if (!seen.has(name))
      error(
        `states.${name}`,
        'unreachable-state',
        `state "${name}" cannot be reached from "${flow.start}" (no goto, option, outcome or trigger leads to it; remove it or link it)`,
      );
  }
  for (const [old, target] of Object.entries(flow.migrate ?? {})) {
    if (!names.has(target))
      error(
        `migrate.${old}`,
        'unknown-target',
        `unknown state "${target}"${suggest(target, names)}`,
      );
    else if (names.has(old))
      warn(
        `migrate.${old}`,
        'migrate-unused',
        `state "${old}" still exists: its conversations continue there, this entry is not used`,
      );
  }

  for (const [name, s] of Object.entries(flow.states)) {
    const p = `states.${name}`;
    const own = (edges.get(name) ?? []).filter(
      (e) => e.kind !== 'send-failed' && e.kind !== 'window',
    );
    if (s.final !== true && !own.some((e) => e.target !== name)) {
      error(
        p,
        'stuck-state',
        `state "${name}" is not final and has no way out (add a menu, ask, call, handoff, goto, timeout or final: true)`,
      );
    }
    if (s.call !== undefined && s.call.onError === undefined && flow.onError === undefined) {
      error(
        `${p}.call`,
        'missing-error-target',
        `handler errors and unknown outcomes of "${s.call.handler}" have nowhere to go: add call.onError or a flow-level onError`,
      );
    }
    if (s.menu !== undefined) lintMenuShape(s.menu, p, error, warn);
    if (s.ask?.validate?.kind === 'pattern') {
      try {
        new RegExp(s.ask.validate.pattern, s.ask.validate.flags);
      } catch (cause) {
        error(
          `${p}.ask.validate.pattern`,
          'bad-pattern',
          cause instanceof Error ? cause.message : String(cause),
        );
      }
    }
  }
  lintGotoLoops(flow, error);
  return out;
}

type Report = (path: string, rule: string, message: string) => void;

function lintMenuShape(
  menu: NonNullable<FlowDefinition['states'][string]['menu']>,
  p: string,
  error: Report,
  warn: Report,
): void {
  const ids = new Map<string, number>();
  menu.options.forEach((o, i) => {
    const first = ids.get(o.id);
    if (first !== undefined)
      error(
        `${p}.menu.options[${i}].id`,
        'duplicate-option',
        `option id "${o.id}" is already used by options[${first}]`,
      );
    else ids.set(o.id, i);
  });
  const words = new Map<string, number>();
  menu.options.forEach((o, i) => {
    for (const w of [o.title, ...(o.keywords ?? [])]) {
      const key = w.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
      const first = words.get(key);
      if (first !== undefined && first !== i)
        warn(
          `${p}.menu.options[${i}]`,
          'ambiguous-option',
          `"${w}" also selects options[${first}]; typed text picks the first`,
        );
      else words.set(key, i);
    }
  });
  if (menu.type === 'list' && menu.button === undefined)
    error(
      `${p}.menu`,
      'menu-shape',
      'a list needs `button` (the label of the button that opens it, up to 20 characters)',
    );
  if (menu.type === 'buttons' && (menu.button !== undefined || menu.section !== undefined)) {
    warn(`${p}.menu`, 'menu-shape', '`button` and `section` apply to lists only');
  }
  if (menu.rowsFrom !== undefined && menu.type !== 'list')
    error(`${p}.menu.rowsFrom`, 'menu-shape', 'rowsFrom needs type: list');
  if (menu.rowsFrom !== undefined && menu.onSelect === undefined)
    error(`${p}.menu`, 'menu-shape', 'rowsFrom needs onSelect (where a chosen row leads)');
  if (menu.rowsFrom === undefined && menu.onSelect !== undefined)
    warn(`${p}.menu.onSelect`, 'menu-shape', 'onSelect is used only with rowsFrom');
  if (menu.rowsFrom === undefined && menu.options.length === 0)
    error(`${p}.menu.options`, 'menu-shape', 'a menu needs at least one option');
}

function lintGotoLoops(flow: FlowDefinition, error: Report): void {
  for (const start of Object.keys(flow.states)) {
    const path = [start];
    let next = flow.states[start]?.goto;
    while (next !== undefined && flow.states[next] !== undefined) {
      if (next === start) {
        error(
          `states.${start}.goto`,
          'goto-loop',
          `goto never waits for input: ${[...path, start].join(' → ')}`,
        );
        break;
      }
      if (path.includes(next)) break;
      path.push(next);
      next = flow.states[next]?.goto;
    }
  }
}

function suggest(name: string, names: Set<string>): string {
  const lower = name.toLowerCase();
  const hit = [...names].find(
    (n) => n.toLowerCase() === lower || n.toLowerCase().startsWith(lower.slice(0, 3)),
  );
  return hit === undefined ? '' : ` (did you mean "${hit}"?)`;
}
