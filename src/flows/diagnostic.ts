/** A finding of the flow linter or loader. */
export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly file?: string;
  /** 1-based line of the node the path names, when the source is known. */
  readonly line?: number;
  /** 1-based column. */
  readonly column?: number;
  /** Path inside the flow, e.g. `states.welcome.menu.options[1].title`; `''` for the root. */
  readonly path: string;
  readonly message: string;
  /** Rule id, e.g. `content-limit`, `unknown-target`, `schema`. */
  readonly rule: string;
}

/** A path segment: an object key or an array index. */
export type PathSegment = string | number;

/** Formats path segments as `a.b[1].c`. */
export function formatFlowPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * Formats a diagnostic on one line, e.g.
 * `flows/x.yaml:14:9 error states.welcome.menu.options[1].title: Button title "…" is 21 characters; the limit is 20 (spec 4.5.2) [content-limit]`.
 */
export function formatDiagnostic(d: Diagnostic): string {
  let where = d.file ?? '';
  if (d.line !== undefined) where += `${where === '' ? '' : ':'}${d.line}:${d.column ?? 1}`;
  const head = where === '' ? d.severity : `${where} ${d.severity}`;
  return `${head} ${d.path === '' ? '(root)' : d.path}: ${d.message} [${d.rule}]`;
}
