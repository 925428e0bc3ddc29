import type { Store } from '../../src/store/store.js';

/** Where a {@link faultyStore} fails: the `nth` call of `operation`, before or after it ran. */
export interface Fault {
  readonly operation: keyof Store;
  readonly nth: number;
  /** `after`: the write happened, then the process "died" (the caller sees an error). */
  readonly when: 'before' | 'after';
  /**
   * The process really died: every later call fails too (nothing more is written), instead
   * of the store failing once, like an outage.
   */
  readonly dies?: boolean;
}

/**
 * A store that fails once, at a chosen step, like an outage at that moment (or, with
 * `dies`, from that step on, like a crash).
 */
export interface FaultyStore {
  readonly store: Store;
  /** True once the fault fired. */
  readonly tripped: boolean;
  /** Calls counted per operation (for a baseline run without a fault). */
  readonly calls: ReadonlyMap<string, number>;
}

/** Wraps `inner`; with no fault it only counts calls. */
export function faultyStore(inner: Store, fault?: Fault): FaultyStore {
  const calls = new Map<string, number>();
  let tripped = false;
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]): Promise<unknown> => {
        if (tripped && fault?.dies === true) throw new Error(`injected: the process died`);
        const n = (calls.get(property) ?? 0) + 1;
        calls.set(property, n);
        const hit = !tripped && fault?.operation === property && fault.nth === n;
        if (hit) tripped = true;
        if (hit && fault.when === 'before') throw new Error(`injected: ${property} #${n} before`);
        const result = await method.apply(target, args);
        if (hit) throw new Error(`injected: ${property} #${n} after`);
        return result;
      };
    },
  });
  return {
    store,
    get tripped() {
      return tripped;
    },
    calls,
  };
}
