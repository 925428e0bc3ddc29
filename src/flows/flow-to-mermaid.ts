import { globalEdges, stateEdges, type Edge } from './flow-edges.js';
import type { FlowDefinition, StateDef } from './flow-schema.js';

/**
 * A Mermaid state diagram of a flow: states (with what they do), option edges labelled
 * with option titles, answers, handler outcomes, errors, timeouts, handoff resume,
 * window and send-failure edges; global triggers start from an "any state" node.
 * @example
 * console.log(flowToMermaid(flow)); // paste into a ```mermaid block
 */
export function flowToMermaid(flow: FlowDefinition): string {
  const lines = ['stateDiagram-v2', `  %% ${flow.id} v${flow.version}`];
  const ids = new Map<string, string>();
  for (const name of Object.keys(flow.states)) ids.set(name, mermaidId(name));
  const id = (name: string): string => ids.get(name) ?? mermaidId(name);

  for (const [name, s] of Object.entries(flow.states)) {
    const mid = id(name);
    if (mid !== name) lines.push(`  state "${name}" as ${mid}`);
    lines.push(`  ${mid} : ${label(describe(s))}`);
  }
  lines.push(`  [*] --> ${id(flow.start)}`);
  for (const [name, s] of Object.entries(flow.states)) {
    for (const e of stateEdges(name, s)) lines.push(edgeLine(id(name), id(e.target), e));
    if (s.final === true) lines.push(`  ${id(name)} --> [*]`);
  }
  const global = globalEdges(flow);
  if (global.length > 0) {
    lines.push('  state "any state" as anyState');
    for (const e of global) lines.push(edgeLine('anyState', id(e.target), e));
  }
  return `${lines.join('\n')}\n`;
}

function edgeLine(from: string, to: string, e: Edge): string {
  const text = e.kind === 'goto' && e.label === '' ? '' : e.label;
  return text === '' ? `  ${from} --> ${to}` : `  ${from} --> ${to} : ${label(text)}`;
}

function describe(s: StateDef): string {
  if (s.final === true) return 'final';
  if (s.menu !== undefined) return `${s.menu.type === 'list' ? 'list' : 'buttons'} menu`;
  if (s.ask !== undefined)
    return `ask ${s.ask.var}${s.ask.validate === undefined ? '' : ` (${s.ask.validate.kind})`}`;
  if (s.call !== undefined) return `call ${s.call.handler}`;
  if (s.handoff !== undefined)
    return `handoff${s.handoff.notify === undefined ? '' : ` (notify ${s.handoff.notify})`}`;
  return s.goto !== undefined ? 'say' : 'wait';
}

/** Mermaid-safe identifier for a state name. */
function mermaidId(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

/** Removes characters that end or break a Mermaid label. */
function label(text: string): string {
  return text
    .replace(/[\n\r;#:{}]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
