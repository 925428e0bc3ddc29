/**
 * The `oneOf` slots of a set of intents, so that intent similarity sees "a value of slot
 * size" instead of the word itself: an example with one flavour matches a message with
 * another.
 */
import type { IntentSpec, SlotChoice } from '../types.js';
import { findChoices, type ChoiceMatch } from './entities/choices.js';
import { tokenize } from '../text/fold.js';

/** The oneOf slots of some intents, merged by slot name. */
export class ChoiceSlots {
  readonly #slots: { slot: string; choices: SlotChoice[] }[] = [];

  constructor(intents: readonly IntentSpec[]) {
    const byName = new Map<string, SlotChoice[]>();
    for (const intent of intents) {
      for (const slot of intent.slots ?? []) {
        if (slot.kind !== 'oneOf' || slot.choices === undefined) continue;
        const list = byName.get(slot.name) ?? [];
        list.push(...slot.choices);
        byName.set(slot.name, list);
      }
    }
    for (const [slot, choices] of byName) this.#slots.push({ slot, choices });
  }

  /** Mentions of each slot's values in `folded` text. */
  find(folded: string): { slot: string; matches: ChoiceMatch[] }[] {
    const tokens = tokenize(folded);
    return this.#slots.map(({ slot, choices }) => ({
      slot,
      matches: findChoices(folded, choices, tokens),
    }));
  }
}
