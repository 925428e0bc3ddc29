/**
 * Serialises a value the store keeps as JSON. A value JSON cannot represent (a function,
 * `undefined`, a bigint, a cycle) is a programming error, so it throws.
 * @example
 * const text = toJson({ state: 'welcome' }, 'conversation c1');
 */
export function toJson(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw new TypeError(`Cannot store ${what}: the value is not JSON-serialisable`, { cause });
  }
  if (text === undefined) {
    throw new TypeError(`Cannot store ${what}: the value is undefined or not JSON (a function?)`);
  }
  return text;
}

/** Parses JSON the store wrote itself (memory store: always valid). */
export function fromJson(text: string): unknown {
  return JSON.parse(text) as unknown;
}

/** Nesting depth past which {@link jsonCopy} leaves the value to JSON (cycles too). */
const COPY_MAX_DEPTH = 64;

/** What {@link copyPlain} answers for a value that needs JSON's own rules. */
const NEEDS_JSON: unique symbol = Symbol('needs JSON');

/**
 * A deep copy of a value, equal to what a JSON round trip of it gives
 * (`JSON.parse(toJson(value, what))`), throwing the same errors as {@link toJson}. Plain
 * objects, arrays, strings, finite numbers, booleans and null are copied directly,
 * several times cheaper than the round trip; anything JSON treats specially (`toJSON`,
 * class instances, non-finite numbers, functions, `__proto__` keys, very deep values or
 * cycles) goes through the round trip.
 * @example
 * const payload = jsonCopy(item.payload, `inbox item ${item.id}`);
 */
export function jsonCopy(value: unknown, what: string): unknown {
  const copy = copyPlain(value, 0);
  return copy === NEEDS_JSON ? (JSON.parse(toJson(value, what)) as unknown) : copy;
}

function copyPlain(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) return NEEDS_JSON;
      return value === 0 ? 0 : value; // JSON writes -0 as 0
    case 'object': {
      if (value === null) return null;
      if (depth >= COPY_MAX_DEPTH) return NEEDS_JSON;
      if (Array.isArray(value)) {
        const out: unknown[] = [];
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          const copy = item === undefined ? null : copyPlain(item, depth + 1);
          if (copy === NEEDS_JSON) return NEEDS_JSON;
          out.push(copy);
        }
        return out;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return NEEDS_JSON;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const item: unknown = (value as Record<string, unknown>)[key];
        if (item === undefined) continue; // JSON leaves the key out
        const copy = key === '__proto__' ? NEEDS_JSON : copyPlain(item, depth + 1);
        if (copy === NEEDS_JSON) return NEEDS_JSON;
        out[key] = copy;
      }
      return out;
    }
    default:
      // undefined, a function, a symbol or a bigint: JSON's own rules (omit, null or throw).
      return NEEDS_JSON;
  }
}

/** Reused encoding buffer of {@link compactString}. */
const scratch = Buffer.allocUnsafeSlow(64 * 1024);

/**
 * Returns a flat, exactly-sized copy of a string. V8 keeps the results of
 * `JSON.stringify` over-allocated and concatenations as rope (cons) strings; the memory
 * store copies what it keeps for long (documents, dedup keys) so 100,000 idle
 * conversations stay small (about 40% less per document).
 */
export function compactString(text: string): string {
  // Worst case 3 bytes per UTF-16 unit: encode into one reused buffer (no allocation).
  if (text.length * 3 > scratch.length) return Buffer.from(text, 'utf8').toString('utf8');
  const bytes = scratch.write(text, 0, 'utf8');
  return scratch.toString('utf8', 0, bytes);
}

/** An inbox sortKey must be a finite number (it is a Redis zset score). */
export function assertSortKey(item: { readonly id: string; readonly sortKey: number }): void {
  if (!Number.isFinite(item.sortKey)) {
    throw new RangeError(`Inbox item ${item.id} has sortKey ${item.sortKey}; it must be finite`);
  }
}
