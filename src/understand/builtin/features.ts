/**
 * The features of a text for intent similarity: its words (folded, lightly stemmed, typos
 * mapped to a known word), the character trigrams of its content words (so "delivry" and
 * "deliveries" still share most of "delivery"), function words at a low weight, and one
 * feature for any number.
 */
import { distance } from 'fastest-levenshtein';
import { fold, tokenize } from '../text/fold.js';
import { isNumberWord } from '../text/numbers.js';
import { isStopword } from '../text/stopwords.js';
import type { ChoiceSlots } from './choice-slots.js';

/** Feature name → weight (before IDF). */
export type Features = Map<string, number>;

const STOPWORD_WEIGHT = 0.25;
const TRIGRAM_TOTAL = 0.5;
const PREFIX_WEIGHT = 0.5;
const PREFIX_LENGTH = 5;
const NUMBER_FEATURE = 'w:#';
const CHOICE_WEIGHT = 1;

/** Strips plural endings so "pizzas"/"pizza", "parcels"/"parcel", "tamaños"/"tamaño" meet. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('es') && /[sxz]es$|ches$|shes$/.test(word)) {
    return word.slice(0, -2);
  }
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) {
    return word.slice(0, -1);
  }
  return word;
}

/** Known words, bucketed by length, for typo correction. */
export class Vocabulary {
  readonly #byLength = new Map<number, string[]>();
  readonly #words = new Set<string>();

  add(word: string): void {
    if (this.#words.has(word)) return;
    this.#words.add(word);
    const bucket = this.#byLength.get(word.length) ?? [];
    bucket.push(word);
    this.#byLength.set(word.length, bucket);
  }

  has(word: string): boolean {
    return this.#words.has(word);
  }

  /**
   * The known word closest to `word` within a typo's distance (1 edit for 4–8 letters, 2
   * from 9), or undefined. Shorter words are never corrected: too many are real words.
   */
  correct(word: string): string | undefined {
    if (word.length < 4 || this.#words.has(word)) return undefined;
    const max = word.length >= 9 ? 2 : 1;
    let best: string | undefined;
    let bestDistance = max + 1;
    for (let len = word.length - max; len <= word.length + max; len++) {
      for (const candidate of this.#byLength.get(len) ?? []) {
        // Typos rarely change the first letter; requiring it keeps corrections precise.
        if (candidate[0] !== word[0]) continue;
        const d = distance(word, candidate);
        if (d < bestDistance) {
          bestDistance = d;
          best = candidate;
        }
      }
    }
    return best;
  }
}

function trigrams(word: string): string[] {
  const padded = `#${word}#`;
  const out: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) out.push(`t:${padded.slice(i, i + 3)}`);
  return out;
}

function add(features: Features, name: string, weight: number): void {
  features.set(name, (features.get(name) ?? 0) + weight);
}

/**
 * The features of `text`. With a `vocabulary`, unknown words are first mapped to the
 * closest known word (typo correction); without one, words are taken as they are. With
 * `choices`, a mention of any `oneOf` value becomes one feature for its slot, so "a medium
 * vegetarian" meets an example "a small veggie pizza".
 */
export function featurise(text: string, vocabulary?: Vocabulary, choices?: ChoiceSlots): Features {
  const features: Features = new Map();
  const folded = fold(text);
  const taken: { start: number; end: number }[] = [];
  for (const { slot, matches } of choices?.find(folded) ?? []) {
    for (const m of matches) {
      taken.push(m);
      add(features, `c:${slot}`, CHOICE_WEIGHT);
    }
  }
  for (const { word: raw, start } of tokenize(folded)) {
    if (taken.some((t) => start >= t.start && start < t.end)) continue;
    if (isNumberWord(raw)) {
      add(features, NUMBER_FEATURE, 1);
      continue;
    }
    if (isStopword(raw)) {
      add(features, `s:${raw}`, STOPWORD_WEIGHT);
      continue;
    }
    let word = stem(raw);
    if (vocabulary !== undefined && !vocabulary.has(word)) word = vocabulary.correct(word) ?? word;
    add(features, `w:${word}`, 1);
    // A shared beginning catches other forms of a word: allerg(ic|y|ens), entreg(a|ar).
    if (word.length > PREFIX_LENGTH)
      add(features, `p:${word.slice(0, PREFIX_LENGTH)}`, PREFIX_WEIGHT);
    const grams = trigrams(word);
    const weight = TRIGRAM_TOTAL / Math.sqrt(grams.length);
    for (const gram of grams) add(features, gram, weight);
  }
  return features;
}

/** The content words (stemmed) of `text`, for building a {@link Vocabulary}. */
export function contentWords(text: string): string[] {
  return tokenize(fold(text))
    .map((t) => t.word)
    .filter((w) => !isNumberWord(w) && !isStopword(w))
    .map(stem);
}
