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

const HANDOFF: IntentSpec = { id: HANDOFF_ID, examples: HANDOFF_PHRASES };
const CHATTER: IntentSpec = { id: CHATTER_ID, examples: CHATTER_PHRASES };
const MAX_SETS = 64;

/** Caches one {@link IntentIndex} per set of intents (the handoff and chatter phrases included). */
export class IndexCache {
  readonly #byArray = new WeakMap<readonly IntentSpec[], IntentIndex>();
  readonly #byIds = new Map<string, IntentIndex>();

  /** The index of `intents`, built on first use. */
  get(intents: readonly IntentSpec[]): IntentIndex {
    const hit = this.#byArray.get(intents);
    if (hit !== undefined) return hit;
    const key = intents.map((i) => i.id).join('\u0000');
    const same = this.#byIds.get(key);
    // The handoff and chatter pseudo-intents are the last ones; the others must be the very same objects.
    if (same !== undefined && intents.every((intent, i) => same.intents[i] === intent)) {
      this.#byIds.delete(key);
      this.#byIds.set(key, same);
      this.#byArray.set(intents, same);
      return same;
    }
    const index = new IntentIndex(
      [...intents, HANDOFF, CHATTER],
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
