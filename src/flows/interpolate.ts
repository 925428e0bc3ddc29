import type { ContactInfo, VarValue, Vars } from './contract.js';

/**
 * `{{…}}` interpolation. Names: `{{x}}` is the flow variable `x`, `{{contact.name}}` and
 * `{{contact.phone}}` are contact fields, `{{error.code}}` / `{{error.message}}` describe
 * the last recorded error. Whitespace inside the braces is ignored. An undeclared or
 * missing variable renders as an empty string (the linter reports undeclared ones).
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\s*\}\}/g;

/** What interpolation can read. */
export interface Scope {
  readonly vars: Vars;
  readonly contact: ContactInfo;
  readonly error?: { readonly code: string; readonly message: string } | null;
  /** Contact memory: `contact.<name>` (it overrides the built-in name and phone). */
  readonly memory?: Vars;
}

/** Replaces every placeholder of `text`. */
export function interpolate(text: string, scope: Scope): string {
  return text.replace(PLACEHOLDER, (_all, name: string) => lookup(name, scope));
}

function lookup(name: string, scope: Scope): string {
  const value = lookupName(name, scope);
  return value === undefined || value === null ? '' : String(value);
}

/** The value a name reads (`x`, `contact.x`, `error.code`); undefined when absent. */
export function lookupName(name: string, scope: Scope): VarValue | undefined {
  if (name.startsWith('contact.')) {
    const field = name.slice('contact.'.length);
    const remembered = scope.memory?.[field];
    if (remembered !== undefined && remembered !== null) return remembered;
    if (field === 'name') return scope.contact.name;
    if (field === 'phone') return scope.contact.phone;
    return remembered;
  }
  if (name === 'error.code') return scope.error?.code ?? '';
  if (name === 'error.message') return scope.error?.message ?? '';
  return scope.vars[name];
}

/** Names referenced by `{{…}}` in a string (as written, e.g. `contact.name`, `slot`). */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

/** Names every scope provides, besides declared variables. */
export const BUILTIN_NAMES: readonly string[] = [
  'contact.name',
  'contact.phone',
  'error.code',
  'error.message',
];

/** Applies `fn` to every string inside a JSON-like value, returning a copy. */
export function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, fn);
    return out;
  }
  return value;
}
