import { readFile } from 'node:fs/promises';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { Diagnostic } from './diagnostic.js';
import { formatFlowPath } from './diagnostic.js';
import { FlowSchema, type FlowDefinition } from './flow-schema.js';
import type { PositionLookup } from './lint-flow.js';

/** Where a flow came from: its file, text and the position of every path. */
export interface FlowSource {
  readonly file: string;
  readonly text: string;
  readonly positions: PositionLookup;
}

/** Outcome of {@link loadFlowFile}. */
export type LoadFlowResult =
  | { readonly status: 'ok'; readonly flow: FlowDefinition; readonly source: FlowSource }
  | { readonly status: 'error'; readonly diagnostics: readonly Diagnostic[] };

/**
 * Reads and parses a flow file (YAML, or JSON: JSON is read by the same YAML 1.2 parser so
 * positions are known). Syntax and schema errors come back as diagnostics with
 * `file:line:column` and the path inside the file; the file is never half-accepted.
 * @example
 * const r = await loadFlowFile('flows/support-desk.yaml');
 * if (r.status === 'ok') lintFlow(r.flow, { file: r.source.file, positions: r.source.positions });
 */
export async function loadFlowFile(file: string): Promise<LoadFlowResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    return {
      status: 'error',
      diagnostics: [{ severity: 'error', file, path: '', message, rule: 'read' }],
    };
  }
  return parseFlowText(text, file);
}

/** Parses flow text (YAML or JSON); `file` only labels diagnostics. */
export function parseFlowText(text: string, file: string): LoadFlowResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      status: 'error',
      diagnostics: doc.errors.map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return {
          severity: 'error',
          file,
          line: pos.line,
          column: pos.col,
          path: '',
          message: e.message.split('\n')[0] ?? e.message,
          rule: 'syntax',
        };
      }),
    };
  }
  const table = new Map<string, { line: number; column: number }>();
  const at = (offset: number | undefined): { line: number; column: number } => {
    const p = lineCounter.linePos(offset ?? 0);
    return { line: p.line, column: p.col };
  };
  const walk = (node: unknown, path: PropertyKey[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const p = [...path, String(pair.key.value)];
        table.set(formatFlowPath(p), at(pair.key.range?.[0]));
        walk(pair.value, p);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const p = [...path, i];
        table.set(formatFlowPath(p), at((item as Node | null)?.range?.[0]));
        walk(item, p);
      });
    }
  };
  walk(doc.contents, []);
  const positions: PositionLookup = (path) => {
    let p = path;
    for (;;) {
      const hit = table.get(p);
      if (hit !== undefined) return hit;
      if (p === '') return { line: 1, column: 1 };
      p = parentPath(p);
    }
  };
  const parsed = FlowSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    return {
      status: 'error',
      diagnostics: parsed.error.issues
        .map((issue) => {
          const path = formatFlowPath(issue.path);
          const pos = positions(path);
          return {
            severity: 'error' as const,
            file,
            line: pos?.line ?? 1,
            column: pos?.column ?? 1,
            path,
            message: issue.message,
            rule: 'schema',
          };
        })
        .sort((a, b) => a.line - b.line || a.column - b.column),
    };
  }
  return { status: 'ok', flow: parsed.data, source: { file, text, positions } };
}

function parentPath(path: string): string {
  const idx = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
  return idx <= 0 ? '' : path.slice(0, idx);
}
