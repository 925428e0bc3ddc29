import type { Diagnostic } from './diagnostic.js';
import type { FlowDefinition } from './flow-schema.js';
import { subflowSlotDiagnostics } from './lint-shared-slots.js';

/**
 * Sub-flow rules, given the bot's other flows: `subflow.use` names a known flow, its
 * `input` gives exactly the inputs the sub-flow declares, its `output` takes declared
 * outputs, no flow runs itself through a chain of sub-flows (a cycle), and the flow's global
 * intents, which act inside the sub-flow, define their slots as the sub-flow does.
 */
export function subflowDiagnostics(
  flow: FlowDefinition,
  flows: ReadonlyMap<string, FlowDefinition>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const err = (path: string, rule: string, message: string): void =>
    void out.push({ severity: 'error', path, rule, message });
  const all = new Map(flows);
  all.set(flow.id, flow);
  for (const [name, s] of Object.entries(flow.states)) {
    const sub = s.subflow;
    if (sub === undefined) continue;
    const p = `states.${name}.subflow`;
    const target = all.get(sub.use);
    if (target === undefined) {
      err(
        `${p}.use`,
        'unknown-flow',
        `no flow "${sub.use}" (known: ${[...all.keys()].join(', ')}); validate it with this file, or put ${sub.use}.yaml beside it`,
      );
      continue;
    }
    const inputs = target.inputs ?? [];
    const outputs = target.outputs ?? [];
    for (const key of Object.keys(sub.input ?? {}))
      if (!inputs.includes(key))
        err(
          `${p}.input.${key}`,
          'subflow-input',
          `flow "${sub.use}" has no input "${key}" (its inputs: ${inputs.join(', ') || 'none'})`,
        );
    const missing = inputs.filter((i) => !Object.hasOwn(sub.input ?? {}, i));
    if (missing.length > 0)
      err(
        `${p}`,
        'subflow-input',
        `flow "${sub.use}" needs input ${missing.map((m) => `"${m}"`).join(', ')}`,
      );
    for (const [target, output] of Object.entries(sub.output ?? {}))
      if (!outputs.includes(output))
        err(
          `${p}.output.${target}`,
          'subflow-output',
          `flow "${sub.use}" has no output "${output}" (its outputs: ${outputs.join(', ') || 'none'})`,
        );
    out.push(...subflowSlotDiagnostics(flow, `${p}.use`, target));
    const cycle = findCycle(sub.use, flow.id, all);
    if (cycle !== undefined)
      err(
        `${p}.use`,
        'subflow-cycle',
        `sub-flows call each other in a cycle: ${cycle.join(' → ')}`,
      );
  }
  return out;
}

/** A path of sub-flow calls from `from` back to `home`, if there is one. */
function findCycle(
  from: string,
  home: string,
  flows: ReadonlyMap<string, FlowDefinition>,
): string[] | undefined {
  const seen = new Set<string>();
  const walk = (id: string, path: string[]): string[] | undefined => {
    if (id === home) return [...path, id];
    if (seen.has(id)) return undefined;
    seen.add(id);
    const f = flows.get(id);
    for (const s of Object.values(f?.states ?? {})) {
      if (s.subflow === undefined) continue;
      const hit = walk(s.subflow.use, [...path, id]);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
  return walk(from, [home]);
}
