import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { formatFlowPath } from '../flows/diagnostic.js';
import { yamlPositionTable, type YamlPosition } from '../flows/yaml-positions.js';
import { DeploymentSchema, type Deployment } from './deployment-schema.js';

/** One problem of a deployment file, at `file:line:column`. */
export interface DeploymentIssue {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Path inside the file, e.g. `numbers[1].apiKeyEnv`; `''` for the root. */
  readonly path: string;
  readonly message: string;
}

/** Outcome of {@link loadDeploymentFile}. */
export type LoadDeploymentResult =
  | {
      readonly status: 'ok';
      readonly deployment: Deployment;
      /** The file's absolute path; bots are resolved relative to its directory. */
      readonly file: string;
    }
  | { readonly status: 'error'; readonly issues: readonly DeploymentIssue[] };

/** True when `file` is named like a deployment file: `switchboard.deploy.yaml`, `*.deploy.json`… */
export function isDeploymentFileName(file: string): boolean {
  return /\.deploy\.(ya?ml|json)$/i.test(file);
}

/** Formats an issue on one line: `file:line:column path: message`. */
export function formatDeploymentIssue(issue: DeploymentIssue): string {
  const where = issue.path === '' ? '' : ` ${issue.path}`;
  return `${issue.file}:${issue.line}:${issue.column}${where}: ${issue.message}`;
}

/**
 * Reads and validates a deployment file (YAML, or JSON read by the same YAML 1.2 parser
 * so positions are known). Every syntax and schema problem comes back with its
 * `file:line:column` and path; a file is never half-accepted. Bot paths are made
 * absolute (relative to the file's directory).
 * @example
 * const r = await loadDeploymentFile('switchboard.deploy.yaml');
 * if (r.status === 'error') for (const i of r.issues) console.error(formatDeploymentIssue(i));
 */
export async function loadDeploymentFile(file: string): Promise<LoadDeploymentResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    return { status: 'error', issues: [{ file, line: 1, column: 1, path: '', message }] };
  }
  const parsed = parseDeploymentText(text, file);
  if (parsed.status === 'error') return parsed;
  const dir = dirname(resolve(file));
  const numbers = parsed.deployment.numbers.map((n) => ({ ...n, bot: resolve(dir, n.bot) }));
  return { status: 'ok', deployment: { ...parsed.deployment, numbers }, file: resolve(file) };
}

/** Parses deployment text; `file` only labels the issues. Bot paths are left as written. */
export function parseDeploymentText(text: string, file: string): LoadDeploymentResult {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      status: 'error',
      issues: doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? lines.linePos(e.pos[0]);
        const message = (e.message.split('\n')[0] ?? e.message).replace(
          / at line \d+, column \d+:?$/,
          '',
        );
        return { file, line: pos.line, column: pos.col, path: '', message };
      }),
    };
  }
  const table = yamlPositionTable(doc.contents, lines, 'value');
  const input: unknown = doc.toJS();
  const result = DeploymentSchema.safeParse(input);
  if (result.success) return { status: 'ok', deployment: result.data, file };
  return {
    status: 'error',
    issues: result.error.issues
      .map((issue) => {
        const path = formatFlowPath(issue.path);
        const pos = lookup(table, issue.path);
        return { file, line: pos.line, column: pos.column, path, message: describe(issue) };
      })
      .sort((a, b) => a.line - b.line || a.column - b.column),
  };
}

/** A zod issue in words a person acts on (an unknown key names itself). */
function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; a number has id, bot, workspace, apiKeyEnv, callbackSecretEnv, callbackPath, poll, backfill`;
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined'))
    return `missing (${issue.expected} expected)`;
  return issue.message;
}

/** The position of `path`, or of its nearest ancestor present in the file. */
function lookup(table: Map<string, YamlPosition>, path: readonly PropertyKey[]): YamlPosition {
  for (let n = path.length; n >= 0; n--) {
    const hit = table.get(formatFlowPath(path.slice(0, n)));
    if (hit !== undefined) return hit;
  }
  return { line: 1, column: 1 };
}
