import { parse as parseYaml } from 'yaml';
import { markerOf, where, type DocBlock } from './doc-blocks.js';

/** How the suite checks a block. */
export type BlockCheck =
  | { readonly kind: 'flow'; readonly format: 'yaml' | 'json' }
  | { readonly kind: 'typescript' }
  | { readonly kind: 'sandbox-config' }
  | { readonly kind: 'deployment' }
  | { readonly kind: 'json' }
  | { readonly kind: 'cli' }
  | { readonly kind: 'sandbox-shell' }
  | { readonly kind: 'pack-check' }
  | { readonly kind: 'not-run'; readonly reason: string }
  | { readonly kind: 'unchecked'; readonly problem: string };

const SHELL = new Set(['sh', 'bash', 'shell', 'console', '']);
const TS = new Set(['ts', 'typescript']);

/** Markers a page may use; any other kind is refused (a typo would silently skip a check). */
export const MARKER_KINDS = ['not-run', 'run-by', 'run-with', 'file', 'ts-context'] as const;

/** A shell line that runs the `switchboard` command (what the suite can run from the clone). */
export function isSwitchboardLine(line: string): boolean {
  return /^(npx )?switchboard( |$)/.test(line);
}

function isFlow(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'id' in value && 'states' in value;
}

/** A deployment file (docs/deployments.md): `kind: deployment` at the top. */
function isDeployment(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && 'kind' in value && value.kind === 'deployment'
  );
}

function isSandboxConfig(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ('numbers' in value || 'keys' in value);
}

/**
 * Decides how a block is checked: by its language, its content and its markers.
 * `not-run` needs a reason; a block the suite cannot check and that has no marker is
 * `unchecked` (the test fails on it, printing file:line).
 */
export function classify(block: DocBlock): BlockCheck {
  const notRun = markerOf(block, 'not-run');
  if (notRun !== undefined) {
    return notRun.value.length >= 10
      ? { kind: 'not-run', reason: notRun.value }
      : { kind: 'unchecked', problem: `not-run marker without a reason at line ${notRun.line}` };
  }
  const runBy = markerOf(block, 'run-by');
  if (runBy !== undefined) {
    return runBy.value.startsWith('.ci/pack-check')
      ? { kind: 'pack-check' }
      : {
          kind: 'unchecked',
          problem: `run-by names ${runBy.value}; only .ci/pack-check runs blocks`,
        };
  }
  if (TS.has(block.lang)) return { kind: 'typescript' };
  if (block.lang === 'yaml' || block.lang === 'yml') {
    let value: unknown;
    try {
      value = parseYaml(block.code);
    } catch (e) {
      return { kind: 'unchecked', problem: `YAML does not parse: ${String(e)}` };
    }
    if (isFlow(value)) return { kind: 'flow', format: 'yaml' };
    if (isDeployment(value)) return { kind: 'deployment' };
    return {
      kind: 'unchecked',
      problem: 'YAML that is not a flow file (no top-level id and states)',
    };
  }
  if (block.lang === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(block.code);
    } catch (e) {
      return { kind: 'unchecked', problem: `JSON does not parse: ${String(e)}` };
    }
    if (isFlow(value)) return { kind: 'flow', format: 'json' };
    if (isSandboxConfig(value)) return { kind: 'sandbox-config' };
    return { kind: 'json' };
  }
  if (SHELL.has(block.lang)) {
    const runWith = markerOf(block, 'run-with');
    if (runWith !== undefined) {
      return runWith.value.startsWith('sandbox')
        ? { kind: 'sandbox-shell' }
        : {
            kind: 'unchecked',
            problem: `run-with names ${runWith.value}; the suite knows: sandbox`,
          };
    }
    const lines = commandLines(block.code);
    if (lines.length > 0 && lines.every(isSwitchboardLine)) return { kind: 'cli' };
    return {
      kind: 'unchecked',
      problem: 'shell block that is neither run (switchboard commands only) nor marked not-run',
    };
  }
  return { kind: 'unchecked', problem: `no check for language "${block.lang}"` };
}

/** A block's command lines: comments and blank lines dropped, `\` continuations joined. */
export function commandLines(code: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const raw of code.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1).trimEnd()} `;
      continue;
    }
    out.push(`${current}${line}`.trim());
    current = '';
  }
  return out;
}

/** Counts per check kind, and every not-run reason with where it is. */
export function summarise(blocks: readonly DocBlock[]): {
  counts: Record<string, number>;
  reasons: string[];
} {
  const counts: Record<string, number> = {};
  const reasons: string[] = [];
  for (const b of blocks) {
    const c = classify(b);
    const key = c.kind === 'flow' ? `flow (${c.format})` : c.kind;
    counts[key] = (counts[key] ?? 0) + 1;
    if (c.kind === 'not-run') reasons.push(`${where(b)} ${c.reason}`);
  }
  return { counts, reasons };
}
