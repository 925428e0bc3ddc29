/**
 * The stored form of a conversation's journal (conversation document format 6): one array
 * per entry, `[kindCode, at, ...fields]`, the fields of each kind in the fixed order of
 * {@link CODECS} (journal-codecs.ts). The entries in memory and on every API stay
 * {@link JournalEntry} objects; only the document holds this form (a quarter to a third of
 * the objects' JSON, bench/RESULTS.md).
 *
 * - `at` is a delta: from the document's `epoch` (the time its first run started, in ms)
 *   for the first entry, from the previous entry's `at` for the others.
 * - An optional field that is absent is `null`, or left out when no field after it is set.
 * - Enumerations are stored as their index; a few free strings with common values (message
 *   and content types, event types, delivery statuses) store a common value as its index
 *   and any other as the string itself.
 * - `flowId` is left out when it is the document's; a `started` entry's `epoch` is a delta
 *   from the document's; a timer's `dueAt` is a delta from the entry's `at`.
 * - An entry the table cannot hold exactly (a damaged entry carried from an older document,
 *   a time that is not a whole number of ms, a field it does not know) is stored as the
 *   object it is, as format 5 stored every entry.
 *
 * The codes and lists of journal-codecs.ts are the stored format: append to them, never
 * reorder or remove.
 */
import { CODECS, type Field } from './journal-codecs.js';
import type { JournalEntry } from './journal-entry.js';

/** What the stored form depends on: the document's flow and epoch. */
export interface JournalBase {
  readonly flowId: string;
  readonly epoch: number;
}

/** The result of {@link decodeJournal}. */
export interface DecodedJournal {
  readonly entries: JournalEntry[];
  /** One message per stored entry that did not decode (left out of `entries`). */
  readonly errors: string[];
}

const CODE_OF = new Map(CODECS.map((codec, code) => [codec.kind, code]));
/** An entry or a value the table cannot hold exactly. */
const NO = Symbol('not encodable');

/**
 * The stored form of a journal.
 * @example
 * encodeJournal([{ kind: 'timer', at: 1_005, action: 'fired', name: 'remind' }], { flowId: 'f', epoch: 1_000 });
 * // [[6, 5, 1, 'remind']]
 */
export function encodeJournal(entries: readonly JournalEntry[], base: JournalBase): unknown[] {
  const stored: unknown[] = [];
  let previous = timeBase(base);
  for (const entry of entries) {
    const tuple = encodeEntry(entry, previous, base);
    stored.push(tuple === NO ? entry : tuple);
    // The next delta is from this entry's time whenever it has a whole one (tuple or not).
    const at: unknown = Reflect.get(Object(entry), 'at');
    if (Number.isSafeInteger(at)) previous = at as number;
  }
  return stored;
}

/**
 * The entries of a stored journal (format 6). An object in it is an entry stored as it is
 * (read as format 5 read it, unchecked: readers check entries one by one); anything else
 * that does not decode is left out, and `errors` says which and why.
 */
export function decodeJournal(stored: readonly unknown[], base: JournalBase): DecodedJournal {
  const entries: JournalEntry[] = [];
  const errors: string[] = [];
  let previous = timeBase(base);
  stored.forEach((item, index) => {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      entries.push(item as JournalEntry);
      const at: unknown = Reflect.get(item, 'at');
      if (Number.isSafeInteger(at)) previous = at as number;
      return;
    }
    if (!Array.isArray(item)) {
      errors.push(`journal entry ${index}: ${JSON.stringify(item)} is not an entry`);
      return;
    }
    const decoded = decodeEntry(item, previous, base);
    if (typeof decoded === 'string') {
      errors.push(`journal entry ${index} ${JSON.stringify(item).slice(0, 80)}: ${decoded}`);
      // Its time, if it reads, still anchors the next entry's delta.
      const delta: unknown = item[1];
      if (Number.isSafeInteger(delta)) previous += delta as number;
      return;
    }
    entries.push(decoded);
    previous = decoded.at;
  });
  return { entries, errors };
}

/** The first entry's time is a delta from the epoch (a time in ms) when it is a whole number. */
function timeBase(base: JournalBase): number {
  return Number.isSafeInteger(base.epoch) ? base.epoch : 0;
}

function encodeEntry(
  entry: JournalEntry,
  previous: number,
  base: JournalBase,
): unknown[] | typeof NO {
  const code = CODE_OF.get(entry.kind);
  const codec = code === undefined ? undefined : CODECS[code];
  if (code === undefined || codec === undefined || !Number.isSafeInteger(entry.at)) return NO;
  const values = entry as unknown as Record<string, unknown>;
  // Every key must be one the codec writes back, or the entry would not read the same.
  for (const key of Object.keys(values)) {
    if (values[key] === undefined || key === 'kind' || key === 'at') continue;
    if (!codec.fields.some((f) => f.name === key)) return NO;
  }
  const tuple: unknown[] = [code, entry.at - previous];
  let last = tuple.length;
  for (const field of codec.fields) {
    const value = values[field.name];
    if (value === undefined) {
      if (field.optional !== true) return NO;
      tuple.push(null);
      continue;
    }
    const encoded = encodeValue(field, value, entry.at, base);
    if (encoded === NO) return NO;
    tuple.push(encoded);
    if (encoded !== null) last = tuple.length;
  }
  tuple.length = last;
  return tuple;
}

function encodeValue(field: Field, value: unknown, at: number, base: JournalBase): unknown {
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return NO;
      const index = field.common?.indexOf(value) ?? -1;
      return index >= 0 ? index : value;
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : NO;
    case 'int':
      return Number.isSafeInteger(value) ? value : NO;
    case 'boolean':
      return typeof value === 'boolean' ? value : NO;
    case 'enum': {
      const index = typeof value === 'string' ? field.values.indexOf(value) : -1;
      return index >= 0 ? index : NO;
    }
    case 'strings':
      return Array.isArray(value) && value.every((s) => typeof s === 'string') ? value : NO;
    case 'scalars':
      return isScalars(value) ? value : NO;
    case 'flow':
      if (typeof value !== 'string') return NO;
      return value === base.flowId ? null : value;
    case 'epoch':
      return Number.isSafeInteger(value) && Number.isSafeInteger(base.epoch)
        ? (value as number) - base.epoch
        : NO;
    case 'time':
      return Number.isSafeInteger(value) ? (value as number) - at : NO;
  }
}

/** The entry of a stored array, or why it does not decode. */
function decodeEntry(
  item: readonly unknown[],
  previous: number,
  base: JournalBase,
): JournalEntry | string {
  const [code, delta] = item;
  const codec = typeof code === 'number' ? CODECS[code] : undefined;
  if (codec === undefined) return `kind code ${JSON.stringify(code)} is unknown`;
  if (!Number.isSafeInteger(delta))
    return `its time delta ${JSON.stringify(delta)} is not an integer`;
  const at = previous + (delta as number);
  if (item.length > codec.fields.length + 2)
    return `${codec.kind} has ${item.length - 2} fields, at most ${codec.fields.length}`;
  const entry: Record<string, unknown> = { kind: codec.kind, at };
  for (let i = 0; i < codec.fields.length; i++) {
    const field = codec.fields[i] as Field;
    const stored = item[i + 2] ?? null;
    if (stored === null) {
      if (field.type === 'flow') entry[field.name] = base.flowId;
      else if (field.optional !== true) return `${codec.kind}.${field.name} is missing`;
      continue;
    }
    const value = decodeValue(field, stored, at, base);
    if (value === NO)
      return `${codec.kind}.${field.name} ${JSON.stringify(stored).slice(0, 40)} is not ${describe(field)}`;
    entry[field.name] = value;
  }
  return entry as JournalEntry;
}

function decodeValue(field: Field, stored: unknown, at: number, base: JournalBase): unknown {
  switch (field.type) {
    case 'string':
      if (typeof stored === 'string') return stored;
      return typeof stored === 'number' ? (field.common?.[stored] ?? NO) : NO;
    case 'number':
      return typeof stored === 'number' ? stored : NO;
    case 'int':
      return Number.isSafeInteger(stored) ? stored : NO;
    case 'boolean':
      return typeof stored === 'boolean' ? stored : NO;
    case 'enum':
      return typeof stored === 'number' ? (field.values[stored] ?? NO) : NO;
    case 'strings':
      return Array.isArray(stored) && stored.every((s) => typeof s === 'string') ? stored : NO;
    case 'scalars':
      return isScalars(stored) ? stored : NO;
    case 'flow':
      return typeof stored === 'string' ? stored : NO;
    case 'epoch':
      return Number.isSafeInteger(stored) ? base.epoch + (stored as number) : NO;
    case 'time':
      return Number.isSafeInteger(stored) ? at + (stored as number) : NO;
  }
}

function describe(field: Field): string {
  switch (field.type) {
    case 'string':
      return field.common === undefined
        ? 'a string'
        : `a string or a code below ${field.common.length}`;
    case 'enum':
      return `a code below ${field.values.length}`;
    case 'strings':
      return 'a list of strings';
    case 'scalars':
      return 'an object of scalars';
    case 'flow':
      return 'a flow id';
    case 'int':
    case 'epoch':
    case 'time':
      return 'an integer';
    default:
      return `a ${field.type}`;
  }
}

function isScalars(value: unknown): value is Record<string, string | number | boolean | null> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const item of Object.values(value as Record<string, unknown>)) {
    if (
      item !== null &&
      typeof item !== 'string' &&
      typeof item !== 'boolean' &&
      !(typeof item === 'number' && Number.isFinite(item))
    )
      return false;
  }
  return true;
}
