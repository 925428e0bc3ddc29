/**
 * The compact stored form of a compiled flow machine's persisted snapshot (document
 * format 4): what every such snapshot holds at its initial value is left out — the XState
 * envelope's `status: "active"`, empty `historyValue` and `children`, and the context
 * fields of {@link CONTEXT_DEFAULTS} — and put back when the document is read. About 40%
 * of a typical document (the bench conversation: 506 → 299 B), written twice per message.
 *
 * Exact by construction: a snapshot is compacted only when it has every one of those
 * fields, so a compacted one read back gets exactly the fields it had; any other snapshot
 * (a hand-written machine, a flow of an older context shape) is stored as it is.
 */

type Json = Record<string, unknown>;

/** A field and a test for its initial value; `fresh` makes the value again on reading. */
interface Default {
  readonly key: string;
  readonly isDefault: (value: unknown) => boolean;
  readonly fresh: () => unknown;
}

const emptyList = (key: string): Default => ({
  key,
  isDefault: (value) => Array.isArray(value) && value.length === 0,
  fresh: () => [],
});
const emptyObject = (key: string): Default => ({
  key,
  isDefault: (value) => isObject(value) && Object.keys(value).length === 0,
  fresh: () => ({}),
});
const scalar = (key: string, initial: string | number | boolean | null): Default => ({
  key,
  isDefault: (value) => value === initial,
  fresh: () => initial,
});

/** The XState persisted-snapshot envelope. */
const ENVELOPE_DEFAULTS: readonly Default[] = [
  scalar('status', 'active'),
  emptyObject('historyValue'),
  emptyObject('children'),
];

/** The context fields every compiled flow machine has (flows/machine-context.ts `Work`). */
export const CONTEXT_DEFAULTS: readonly Default[] = [
  emptyList('outbox'),
  emptyObject('vars'),
  scalar('ended', false),
  scalar('attempts', 0),
  scalar('pending', null),
  scalar('timer', null),
  emptyList('windows'),
  scalar('lastError', null),
  scalar('failed', null),
  scalar('humanOwned', false),
];

/**
 * The snapshot without its fields at their initial values, or undefined when it is not a
 * snapshot of that shape (then it is stored whole). With `dropOutbox` the outbox counts
 * as empty (see `toStoredDoc`).
 */
export function compactSnapshot(snapshot: unknown, dropOutbox: boolean): Json | undefined {
  if (!isObject(snapshot) || !('value' in snapshot)) return undefined;
  const context = snapshot['context'];
  if (!isObject(context)) return undefined;
  if (!ENVELOPE_DEFAULTS.every((d) => Object.hasOwn(snapshot, d.key))) return undefined;
  if (!CONTEXT_DEFAULTS.every((d) => Object.hasOwn(context, d.key))) return undefined;
  const outer = leaveOut(snapshot, ENVELOPE_DEFAULTS, 'context');
  const inner = leaveOut(context, CONTEXT_DEFAULTS, dropOutbox ? 'outbox' : undefined);
  outer['context'] = inner;
  return outer;
}

/** A compacted snapshot made whole again (new objects; the input is not changed). */
export function expandSnapshot(snapshot: unknown): unknown {
  if (!isObject(snapshot) || !isObject(snapshot['context'])) return snapshot;
  const outer = putBack(snapshot, ENVELOPE_DEFAULTS);
  outer['context'] = putBack(snapshot['context'], CONTEXT_DEFAULTS);
  return outer;
}

/** A copy of `record` without the fields at their defaults (and without `skip`). */
function leaveOut(record: Json, defaults: readonly Default[], skip: string | undefined): Json {
  const out: Json = {};
  for (const key of Object.keys(record)) {
    if (key === skip) continue;
    const value = record[key];
    const known = defaults.find((d) => d.key === key);
    if (known === undefined || !known.isDefault(value)) out[key] = value;
  }
  return out;
}

/** A copy of `record` with every absent default field put back. */
function putBack(record: Json, defaults: readonly Default[]): Json {
  const out: Json = {};
  for (const d of defaults) if (!Object.hasOwn(record, d.key)) out[d.key] = d.fresh();
  for (const key of Object.keys(record)) out[key] = record[key];
  return out;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
