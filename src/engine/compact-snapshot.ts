/**
 * The compact stored form of a compiled flow machine's persisted snapshot (document
 * format 4): what every such snapshot holds at its initial value is left out — the XState
 * envelope's `status: "active"`, empty `historyValue` and `children`, and the context
 * fields every compiled flow machine has, at their initial values — and put back when the
 * document is read. About 40% of a typical document (the bench conversation: 506 → 299 B),
 * written twice per message.
 *
 * Exact by construction: a snapshot is compacted only when it has every one of those
 * fields, so a compacted one read back gets exactly the fields it had; any other snapshot
 * (a hand-written machine, a flow of an older context shape) is stored as it is.
 */

import { initialRouting } from '../flows/machine-context.js';

type Json = Record<string, unknown>;

/**
 * The XState persisted-snapshot envelope's fields at their initial values (fresh each
 * call); `undefined` marks a field without one, kept for its place: a snapshot is made
 * whole in the order XState writes it, so restored objects get the shapes fresh ones have.
 */
const envelopeDefaults = (): Json => ({
  status: 'active',
  value: undefined,
  historyValue: {},
  context: undefined,
  children: {},
});

/**
 * The context fields every compiled flow machine has, at their initial values, in the
 * order compile-flow.ts creates them (flows/machine-context.ts `Work`); fresh each call.
 */
const contextDefaults = (): Json => ({
  outbox: [],
  seq: undefined,
  vars: {},
  ended: false,
  contact: undefined,
  ...initialRouting(),
});

/** Reference values, only compared with (never handed out). */
const ENVELOPE = envelopeDefaults();
const CONTEXT = contextDefaults();
const ENVELOPE_KEYS = Object.keys(ENVELOPE);
const CONTEXT_KEYS = Object.keys(CONTEXT);

/**
 * The snapshot without its fields at their initial values, or undefined when it is not a
 * snapshot of that shape (then it is stored whole). With `dropOutbox` the outbox counts
 * as empty (see `toStoredDoc`).
 */
export function compactSnapshot(snapshot: unknown, dropOutbox: boolean): Json | undefined {
  if (!isObject(snapshot)) return undefined;
  const context = snapshot['context'];
  if (!isObject(context)) return undefined;
  if (!hasAll(snapshot, ENVELOPE_KEYS) || !hasAll(context, CONTEXT_KEYS)) return undefined;
  // An own `__proto__` field (JSON can make one) could not be put back by assignment.
  if (Object.hasOwn(snapshot, '__proto__') || Object.hasOwn(context, '__proto__')) return undefined;
  const outer = leaveOut(snapshot, ENVELOPE, 'context');
  outer['context'] = leaveOut(context, CONTEXT, dropOutbox ? 'outbox' : undefined);
  return outer;
}

/** A compacted snapshot made whole again (new objects; the input is not changed). */
export function expandSnapshot(snapshot: unknown): unknown {
  if (!isObject(snapshot) || !isObject(snapshot['context'])) return snapshot;
  const outer = putBack(snapshot, envelopeDefaults());
  outer['context'] = putBack(snapshot['context'], contextDefaults());
  return outer;
}

function hasAll(record: Json, keys: readonly string[]): boolean {
  for (const key of keys) if (!Object.hasOwn(record, key)) return false;
  return true;
}

/** A copy of `record` without the fields at their `reference` value (and without `skip`). */
function leaveOut(record: Json, reference: Json, skip: string | undefined): Json {
  const out: Json = {};
  for (const key of Object.keys(record)) {
    if (key === skip) continue;
    const value = record[key];
    const initial = Object.hasOwn(reference, key) ? reference[key] : undefined;
    if (initial === undefined || !atInitial(value, initial)) out[key] = value;
  }
  return out;
}

/**
 * `defaults` (fresh) with every field `record` has set from it. A placeholder `record`
 * lacks is removed: never the case for what `compactSnapshot` wrote (it compacts only
 * snapshots with every field), only for a document written by hand.
 */
function putBack(record: Json, defaults: Json): Json {
  for (const key of Object.keys(record)) defaults[key] = record[key];
  for (const key of Object.keys(defaults)) if (defaults[key] === undefined) delete defaults[key];
  return defaults;
}

/** Empty lists and objects are initial when empty; scalars when equal. */
function atInitial(value: unknown, initial: unknown): boolean {
  if (Array.isArray(initial)) return Array.isArray(value) && value.length === 0;
  if (isObject(initial)) return isObject(value) && isEmpty(value);
  return value === initial;
}

function isEmpty(record: Json): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return false;
  return true;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
