import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument } from 'yaml';
import type { Diagnostic } from './diagnostic.js';
import { formatFlowPath } from './diagnostic.js';
import { FlowSchema, type FlowDefinition } from './flow-schema.js';
import { describeIssues } from './schema-issues.js';
import { yamlPositionTable } from './yaml-positions.js';
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
  if (isJson(file, text)) {
    // YAML would accept what JSON does not (a trailing comma, comments): JSON is JSON.
    const error = jsonSyntaxError(text);
    if (error !== undefined)
      return {
        status: 'error',
        diagnostics: [{ ...error, severity: 'error', file, path: '', rule: 'syntax' }],
      };
  }
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      status: 'error',
      diagnostics: doc.errors.map((e) => {
        // The line and column the YAML parser names (its own linePos).
        const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        return {
          severity: 'error',
          file,
          line: pos.line,
          column: pos.col,
          path: '',
          message: `${e.message.split('\n')[0] ?? e.message}`.replace(
            / at line \d+, column \d+:?$/,
            '',
          ),
          rule: 'syntax',
        };
      }),
    };
  }
  const table = yamlPositionTable(doc.contents, lineCounter, 'key');
  const positions: PositionLookup = (path) => {
    let p = path;
    for (;;) {
      const hit = table.get(p);
      if (hit !== undefined) return hit;
      if (p === '') return { line: 1, column: 1 };
      p = parentPath(p);
    }
  };
  const input: unknown = doc.toJS();
  const parsed = FlowSchema.safeParse(input);
  if (!parsed.success) {
    return {
      status: 'error',
      diagnostics: describeIssues(parsed.error.issues, input)
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

function isJson(file: string, text: string): boolean {
  return file.toLowerCase().endsWith('.json') || /^\s*[{[]/.test(text);
}

/** The first JSON syntax error with its position, or undefined for valid JSON. */
function jsonSyntaxError(
  text: string,
): { line: number; column: number; message: string } | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = /position (\d+)/.exec(message);
    let offset = at === null ? 0 : Number(at[1]);
    const trailing = /,\s*[}\]]/g;
    // Name the usual mistake: a comma before } or ].
    for (const m of text.matchAll(trailing)) {
      if (m.index <= offset && offset <= m.index + m[0].length) {
        offset = m.index;
        const pos = position(text, offset);
        return { ...pos, message: 'JSON does not allow a trailing comma before } or ]; remove it' };
      }
    }
    const pos = position(text, offset);
    return {
      ...pos,
      message: `JSON syntax: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
    };
  }
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}

function parentPath(path: string): string {
  const idx = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
  return idx <= 0 ? '' : path.slice(0, idx);
}
