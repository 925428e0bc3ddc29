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
  const id = mermaidStateId;

  for (const [name, s] of Object.entries(flow.states)) {
    const mid = id(name);
    // The node shows the state id exactly as written; its Mermaid id is an encoding of it.
    lines.push(`  state "${label(name)}" as ${mid}`);
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
  if (s.subflow !== undefined) return `subflow ${s.subflow.use}`;
  if (s.branch !== undefined) return 'branch';
  if (s.handoff !== undefined)
    return `handoff${s.handoff.notify === undefined ? '' : ` (notify ${s.handoff.notify})`}`;
  return s.goto !== undefined ? 'say' : 'wait';
}

/**
 * The Mermaid node id of a state: `s_` + the state id with `_` written `__` and `-`
 * written `_h`. Distinct state ids always get distinct node ids (also `a-b` and `a_b`),
 * and none is a Mermaid keyword (`end`, `default`, `note`, `class`, `style`…). The studio
 * uses it to find a state's node in a rendered diagram.
 * @example
 * mermaidStateId('end'); // 's_end'
 * mermaidStateId('ask-name'); // 's_ask_hname'
 */
export function mermaidStateId(stateId: string): string {
  return `s_${stateId
    .replace(/_/g, '__')
    .replace(/-/g, '_h')
    .replace(/[^A-Za-z0-9_]/g, (c) => `_x${c.charCodeAt(0).toString(16)}_`)}`;
}

/** The state id of a node id made by {@link mermaidStateId}; undefined for other ids. */
export function stateIdOfMermaid(nodeId: string): string | undefined {
  if (!nodeId.startsWith('s_')) return undefined;
  return nodeId
    .slice(2)
    .replace(/_x([0-9a-f]+)_|__|_h/g, (m, hex: string | undefined) =>
      hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : m === '__' ? '_' : '-',
    );
}

/** Removes characters that end or break a Mermaid label. */
function label(text: string): string {
  return text
    .replace(/"/g, "'")
    .replace(/[\n\r;#:{}]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
