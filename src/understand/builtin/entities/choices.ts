/**
 * `oneOf` values in free text: each value and its synonyms matched word by word, folded
 * (case and accents ignored); a value of several words matches only in full, each word by
 * its root (plurals and other endings: "check-ups" for "check-up", "limpiezas" for
 * "limpieza") or with one typo per word of 4+ letters (two from 8 letters) by Levenshtein
 * distance (fastest-levenshtein).
 */
import { distance } from 'fastest-levenshtein';
import type { SlotChoice } from '../../types.js';
import { tokenize, fold, type Token } from '../../text/fold.js';
import { isSwap, stem } from '../features.js';
import { rootOf } from '../../text/roots.js';
import type { Span } from './span.js';

/** A choice found in the text. */
export interface ChoiceMatch extends Span {
  /** The choice's `value` (never a synonym). */
  readonly value: string;
  /** Edits needed to match (0 = exact). */
  readonly edits: number;
}

/** A word's roots in English and Spanish (empty when shorter than 3 letters: never compared). */
interface Roots {
  readonly en: string;
  readonly es: string;
}

function rootsOf(word: string): Roots {
  const en = rootOf(word, 'en');
  const es = rootOf(word, 'es');
  return { en: en.length >= 3 ? en : '', es: es.length >= 3 ? es : '' };
}

/** Whether two words have one root in English or Spanish ("dries"/"dry", "cortarme"/"cortar"). */
function sameRoot(a: Roots, b: Roots): boolean {
  return (a.en !== '' && a.en === b.en) || (a.es !== '' && a.es === b.es);
}

/**
 * Whether `a` is `b` with a plural ending, for the short words roots leave out: the "ups"
 * of "check-ups" is the "up" of "check-up", "bbqs" is "bbq".
 */
function pluralOf(a: string, b: string): boolean {
  return b.length >= 2 && (a === `${b}s` || a === `${b}es`);
}

/** Typo edits from `a` to `b` within `max`, a swap of neighbours as one, or undefined. */
function typoEdits(a: string, b: string): number | undefined {
  const shortest = Math.min(a.length, b.length);
  if (shortest < 4) return undefined;
  const max = shortest >= 8 ? 2 : 1;
  if (Math.abs(a.length - b.length) > max) return undefined;
  const d = isSwap(a, b) ? 1 : distance(a, b);
  return d <= max ? d : undefined;
}

/**
 * Edits between two words (written `wa`/`wb`, stemmed `sa`/`sb`, roots `a`/`b`), when
 * within a typo's reach: the stems alone miss a typo the stemmer cut differently
 * ("mattres" → "mattre", "mattress" kept whole).
 */
function wordEdits(
  wa: string,
  wb: string,
  sa: string,
  sb: string,
  a: Roots,
  b: Roots,
): number | undefined {
  if (sa === sb || sameRoot(a, b) || pluralOf(sa, sb) || pluralOf(sb, sa)) return 0;
  const stems = typoEdits(sa, sb);
  if (stems !== undefined || (wa === sa && wb === sb) || wa[0] !== wb[0]) return stems;
  return typoEdits(wa, wb);
}

interface Phrase {
  readonly value: string;
  /** Folded words as written. */
  readonly written: readonly string[];
  /** Stemmed words. */
  readonly words: readonly string[];
  /** The words' roots. */
  readonly roots: readonly Roots[];
}

const cache = new WeakMap<readonly SlotChoice[], Phrase[]>();

function phrases(choices: readonly SlotChoice[]): Phrase[] {
  const hit = cache.get(choices);
  if (hit !== undefined) return hit;
  const out: Phrase[] = [];
  for (const c of choices) {
    for (const p of [c.value, ...(c.synonyms ?? [])]) {
      const folded = tokenize(fold(p)).map((t) => t.word);
      if (folded.length > 0)
        out.push({
          value: c.value,
          written: folded,
          words: folded.map(stem),
          roots: folded.map(rootsOf),
        });
    }
  }
  // Longer phrases first: "four cheese" before a "cheese" synonym elsewhere.
  out.sort((a, b) => b.words.length - a.words.length);
  cache.set(choices, out);
  return out;
}

/** The last text's word forms: every `oneOf` slot of every intent reads the same message. */
let lastForms:
  { folded: string; tokens: readonly Token[]; stems: string[]; roots: Roots[] } | undefined;

function formsOf(folded: string, tokens: readonly Token[]): { stems: string[]; roots: Roots[] } {
  if (lastForms?.folded === folded && lastForms.tokens.length === tokens.length) return lastForms;
  lastForms = {
    folded,
    tokens,
    stems: tokens.map((t) => stem(t.word)),
    roots: tokens.map((t) => rootsOf(t.word)),
  };
  return lastForms;
}

/**
 * Every non-overlapping mention of `choices` in `folded` text, in order of appearance.
 * @example
 * findChoices('dos pizzas grandes', [{ value: 'large', synonyms: ['grande'] }]);
 * // [{ value: 'large', start: 11, end: 18, edits: 0 }]
 */
export function findChoices(
  folded: string,
  choices: readonly SlotChoice[],
  tokens: readonly Token[] = tokenize(folded),
): ChoiceMatch[] {
  const { stems, roots } = formsOf(folded, tokens);
  const used = new Array<boolean>(tokens.length).fill(false);
  const out: ChoiceMatch[] = [];
  for (const phrase of phrases(choices)) {
    for (let i = 0; i + phrase.words.length <= tokens.length; i++) {
      let edits = 0;
      let ok = true;
      for (let k = 0; k < phrase.words.length && ok; k++) {
        const e = used[i + k]
          ? undefined
          : wordEdits(
              (tokens[i + k] as Token).word,
              phrase.written[k] as string,
              stems[i + k] as string,
              phrase.words[k] as string,
              roots[i + k] as Roots,
              phrase.roots[k] as Roots,
            );
        if (e === undefined) ok = false;
        else edits += e;
      }
      if (!ok) continue;
      for (let k = 0; k < phrase.words.length; k++) used[i + k] = true;
      const first = tokens[i] as Token;
      const last = tokens[i + phrase.words.length - 1] as Token;
      out.push({ value: phrase.value, start: first.start, end: last.end, edits });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
