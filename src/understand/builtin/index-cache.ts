/**
 * Built intent indexes, reused across messages: by the intents array itself, or by the
 * same IntentSpec objects in a new array (an engine that concatenates a state's and the
 * bot's intents for each message still hits). A few sets are kept, least recently used
 * dropped first.
 */
import type { IntentSpec } from '../types.js';
import { CHATTER_ID, CHATTER_PHRASES } from './chatter-phrases.js';
import { HANDOFF_ID, HANDOFF_PHRASES } from './handoff-phrases.js';
import { IntentIndex } from './intent-index.js';
import { OUT_OF_SCOPE_ID } from './out-of-scope.js';

const HANDOFF: IntentSpec = { id: HANDOFF_ID, examples: HANDOFF_PHRASES };
const CHATTER: IntentSpec = { id: CHATTER_ID, examples: CHATTER_PHRASES };
const MAX_SETS = 64;

type Examples = Readonly<Record<string, readonly string[]>>;

/**
 * Caches one {@link IntentIndex} per set of intents (the handoff and chatter phrases
 * included), and per set of out-of-scope examples (the same object: a flow's own).
 */
export class IndexCache {
  readonly #byArray = new WeakMap<readonly IntentSpec[], IntentIndex>();
  readonly #byIds = new Map<string, IntentIndex>();
  /** The out-of-scope pseudo-intent these indexes carry (undefined: none). */
  readonly #outOfScope: IntentSpec | undefined;
  readonly #withOutOfScope = new WeakMap<Examples, IndexCache>();

  constructor(outOfScope?: Examples) {
    this.#outOfScope =
      outOfScope === undefined ? undefined : { id: OUT_OF_SCOPE_ID, examples: outOfScope };
  }

  /** The index of `intents` (with the out-of-scope class of `outOfScope`), built on first use. */
  get(intents: readonly IntentSpec[], outOfScope?: Examples): IntentIndex {
    if (outOfScope !== undefined && this.#outOfScope === undefined) {
      let nested = this.#withOutOfScope.get(outOfScope);
      if (nested === undefined)
        this.#withOutOfScope.set(outOfScope, (nested = new IndexCache(outOfScope)));
      return nested.get(intents);
    }
    const hit = this.#byArray.get(intents);
    if (hit !== undefined) return hit;
    const key = intents.map((i) => i.id).join('\u0000');
    const same = this.#byIds.get(key);
    // The out-of-scope, handoff and chatter pseudo-intents are the last ones; the others must be the very same objects.
    if (same !== undefined && intents.every((intent, i) => same.intents[i] === intent)) {
      this.#byIds.delete(key);
      this.#byIds.set(key, same);
      this.#byArray.set(intents, same);
      return same;
    }
    const index = new IntentIndex(
      [...intents, ...(this.#outOfScope === undefined ? [] : [this.#outOfScope]), HANDOFF, CHATTER],
      [HANDOFF_ID, CHATTER_ID],
      CHATTER_ID,
    );
    this.#byIds.set(key, index);
    if (this.#byIds.size > MAX_SETS) {
      const oldest = this.#byIds.keys().next().value;
      if (oldest !== undefined) this.#byIds.delete(oldest);
    }
    this.#byArray.set(intents, index);
    return index;
  }
}
