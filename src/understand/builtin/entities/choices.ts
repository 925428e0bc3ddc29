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

/** A set of choices' phrases, and a key naming their content (equal for equal choices). */
interface Phrases {
  readonly key: string;
  readonly list: readonly Phrase[];
}

const cache = new WeakMap<readonly SlotChoice[], Phrases>();

function phrases(choices: readonly SlotChoice[]): Phrases {
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
  const key = JSON.stringify(out.map((p) => [p.value, p.written]));
  const made = { key, list: out };
  cache.set(choices, made);
  return made;
}

/**
 * The last text's word forms: every `oneOf` slot of every intent reads the same message.
 * Kept with them, for that text only: the edits from each word to each choice word (a pure
 * function of the two words), and the matches of each set of phrases by content (many
 * slots share their choices, "small"/"large" in every intent).
 */
interface Forms {
  readonly folded: string;
  readonly tokens: readonly Token[];
  readonly stems: readonly string[];
  readonly roots: readonly Roots[];
  readonly edits: Map<string, number | undefined>[];
  readonly found: Map<string, readonly ChoiceMatch[]>;
}

let lastForms: Forms | undefined;

function formsOf(folded: string, given: readonly Token[] | undefined): Forms {
  if (
    lastForms?.folded === folded &&
    (given === undefined || lastForms.tokens.length === given.length)
  )
    return lastForms;
  const tokens = given ?? tokenize(folded);
  lastForms = {
    folded,
    tokens,
    stems: tokens.map((t) => stem(t.word)),
    roots: tokens.map((t) => rootsOf(t.word)),
    edits: tokens.map(() => new Map<string, number | undefined>()),
    found: new Map(),
  };
  return lastForms;
}

/** {@link wordEdits} from the text's word `i` to `phrase`'s word `k`, computed once per text. */
function editsAt(forms: Forms, i: number, phrase: Phrase, k: number): number | undefined {
  const written = phrase.written[k] as string;
  const memo = forms.edits[i] as Map<string, number | undefined>;
  if (memo.has(written)) return memo.get(written);
  const e = wordEdits(
    (forms.tokens[i] as Token).word,
    written,
    forms.stems[i] as string,
    phrase.words[k] as string,
    forms.roots[i] as Roots,
    phrase.roots[k] as Roots,
  );
  memo.set(written, e);
  return e;
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
  tokens?: readonly Token[],
): ChoiceMatch[] {
  const forms = formsOf(folded, tokens);
  const { key, list } = phrases(choices);
  const known = forms.found.get(key);
  if (known !== undefined) return [...known];
  const length = forms.tokens.length;
  const used = new Array<boolean>(length).fill(false);
  const out: ChoiceMatch[] = [];
  for (const phrase of list) {
    for (let i = 0; i + phrase.words.length <= length; i++) {
      let edits = 0;
      let ok = true;
      for (let k = 0; k < phrase.words.length && ok; k++) {
        const e = used[i + k] ? undefined : editsAt(forms, i + k, phrase, k);
        if (e === undefined) ok = false;
        else edits += e;
      }
      if (!ok) continue;
      for (let k = 0; k < phrase.words.length; k++) used[i + k] = true;
      const first = forms.tokens[i] as Token;
      const last = forms.tokens[i + phrase.words.length - 1] as Token;
      out.push({ value: phrase.value, start: first.start, end: last.end, edits });
    }
  }
  out.sort((a, b) => a.start - b.start);
  forms.found.set(key, out);
  return [...out];
}
