/**
 * Message issues: what is wrong with a message, where, and how to fix it. Zod issues
 * are turned into {@link MessageIssue}s with a readable path (`a.b[1].c`) and a
 * sentence that names the size, the limit and the spec section.
 */
import type { z } from 'zod';
import { SEND_TYPES } from '../api/resources.js';

/** One problem found in a message. */
export interface MessageIssue {
  /** Where: `interactive.action.buttons[1].reply.title`; `''` for the whole body. */
  readonly path: string;
  /** What is wrong and how to fix it, e.g. `Button title "…" is 21 characters; the limit is 20 (spec 4.5.2)`. */
  readonly message: string;
  /** The limit that was exceeded (characters, entries, bytes, or the violated bound). */
  readonly limit?: number;
  /** The measured size (characters, entries or bytes). */
  readonly size?: number;
  /** Spec section, e.g. `4.5.2`. */
  readonly spec?: string;
}

/** Outcome of validating a message. */
export type ValidationResult<T> =
  | { readonly status: 'valid'; readonly value: T }
  | { readonly status: 'invalid'; readonly issues: readonly MessageIssue[] };

/** Params carried by the custom zod issues of this module. */
export interface IssueParams {
  readonly limit?: number;
  readonly size?: number;
  readonly spec?: string;
}

const CONTENT_KEYS: ReadonlySet<string> = new Set(SEND_TYPES);
const MEDIA_KEYS = new Set(['image', 'video', 'audio', 'document']);

/** Formats a zod path as `a.b[1].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** Quotes a value for a message; long strings are shortened in the message only. */
export function quote(value: string): string {
  const chars = [...value];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 30).join('')}…` : value);
}

/** The spec section a path belongs to, for issues that do not carry their own. */
export function specOf(path: readonly PropertyKey[]): string {
  switch (path[0]) {
    case 'interactive':
      return '4.5.2';
    case 'contacts':
      return '4.5.3';
    case 'template':
      return '4.5.4';
    default:
      return '4.5';
  }
}

function describeInput(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  if (typeof input === 'number' && !Number.isFinite(input)) return String(input);
  if (typeof input === 'string') return `the string ${quote(input)}`;
  if (typeof input === 'object') return 'an object';
  if (typeof input === 'number' || typeof input === 'boolean' || typeof input === 'bigint') {
    return `${typeof input} ${input}`;
  }
  return typeof input;
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object') return `an ${expected}`;
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function fieldName(path: readonly PropertyKey[]): string {
  return formatPath(path) || 'The message';
}

function unknownKeyMessage(parent: readonly PropertyKey[], key: string, input: unknown): string {
  const last = parent[parent.length - 1];
  if (typeof last === 'string' && MEDIA_KEYS.has(last) && key === 'id') {
    return `Unknown field "id" in ${last}: a provider media ID cannot replace link; send a public HTTPS link (spec 4.5.1)`;
  }
  if (parent.length === 0 && CONTENT_KEYS.has(key)) {
    const type =
      typeof input === 'object' && input !== null && 'type' in input ? String(input.type) : '?';
    return `Content object "${key}" does not match type "${type}"; send exactly one content object, named after type (spec 4.5)`;
  }
  const where = parent.length === 0 ? 'at the top level' : `in ${formatPath(parent)}`;
  return `Unknown field "${key}" ${where}; remove it (unknown fields are rejected, spec 4.5 rule 1)`;
}

function unionMessage(issue: z.core.$ZodIssueInvalidUnion, path: readonly PropertyKey[]): string {
  const discriminator = (issue as { discriminator?: unknown }).discriminator;
  const options = (issue as { options?: unknown }).options;
  if (typeof discriminator !== 'string' || !Array.isArray(options)) {
    return `${fieldName(path)} does not match any accepted shape (spec ${specOf(path)})`;
  }
  const list = options.map((o) => JSON.stringify(o)).join(', ');
  const input: unknown = issue.input;
  const value =
    typeof input === 'object' && input !== null && discriminator in input
      ? (input as Record<string, unknown>)[discriminator]
      : undefined;
  const name = fieldName(path);
  const rule4 =
    path[0] === 'interactive' && path.length === 2 ? 'spec 4.5 rule 4' : `spec ${specOf(path)}`;
  if (value === undefined) return `${name} is required; use one of ${list} (${rule4})`;
  return `${name} ${typeof value === 'string' ? quote(value) : describeInput(value)} is not supported; use one of ${list} (${rule4})`;
}

/** Turns zod issues into message issues (one per unknown key). */
export function toMessageIssues(issues: readonly z.core.$ZodIssue[]): MessageIssue[] {
  const out: MessageIssue[] = [];
  for (const issue of issues) {
    const path = issue.path;
    const at = formatPath(path);
    const spec = specOf(path);
    switch (issue.code) {
      case 'custom': {
        const params = (issue.params ?? {}) as IssueParams;
        out.push({
          path: at,
          message: issue.message,
          ...(params.limit !== undefined && { limit: params.limit }),
          ...(params.size !== undefined && { size: params.size }),
          spec: params.spec ?? spec,
        });
        break;
      }
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          out.push({
            path: formatPath([...path, key]),
            message: unknownKeyMessage(path, key, issue.input),
            spec: path.length === 0 && CONTENT_KEYS.has(key) ? '4.5' : '4.5 rule 1',
          });
        }
        break;
      case 'invalid_type': {
        const message =
          issue.input === undefined
            ? `${fieldName(path)} is required (spec ${spec})`
            : issue.expected === 'number' && typeof issue.input === 'number'
              ? `${fieldName(path)} must be a finite number, got ${describeInput(issue.input)} (spec ${spec})`
              : `${fieldName(path)} must be ${article(issue.expected)}, got ${describeInput(issue.input)} (spec ${spec})`;
        out.push({ path: at, message, spec });
        break;
      }
      case 'invalid_value': {
        const allowed = issue.values.map((v) => JSON.stringify(v)).join(' or ');
        const message =
          issue.input === undefined
            ? `${fieldName(path)} is required; it must be ${allowed} (spec ${spec})`
            : `${fieldName(path)} must be ${allowed}, got ${describeInput(issue.input)} (spec ${spec})`;
        out.push({
          path: at,
          message,
          spec,
        });
        break;
      }
      case 'invalid_union':
        out.push({
          path: at,
          message: unionMessage(issue, path),
          spec: at === 'type' ? '4.5' : spec,
        });
        break;
      default:
        out.push({
          path: at,
          message: `${fieldName(path)}: ${issue.message} (spec ${spec})`,
          spec,
        });
    }
  }
  return out;
}

/** One issue as a line: `path: message`. */
export function formatIssue(issue: MessageIssue): string {
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}
