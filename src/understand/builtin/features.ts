/**
 * The features of a text for intent similarity: its words (folded, lightly stemmed, typos
 * mapped to a known word), the character trigrams of its content words (so "delivry" and
 * "deliveries" still share most of "delivery"), function words at a low weight, and one
 * feature for any number.
 */
import { distance } from 'fastest-levenshtein';
import { fold, tokenize } from '../text/fold.js';
import { isNumberWord } from '../text/numbers.js';
import { isQuestionWord, isStopword } from '../text/stopwords.js';
import { lexiconWords, meaningOf } from '../text/lexicon.js';
import { rootOf, withoutClitics } from '../text/roots.js';
import { chatWords } from '../text/chat-words.js';
import { readPhrases } from '../text/phrasal-verbs.js';
import type { ChoiceSlots } from './choice-slots.js';
import { findDates } from './entities/dates.js';
import { findPhones } from './entities/phone.js';
import { overlaps, type Span } from './entities/span.js';

/**
 * Feature name → weight (before IDF). Names: `w:` word, `p:` word beginning, `t:` trigram,
 * `s:` function word, `q:` question word, `k:` a lexicon meaning, `c:` a value of a oneOf
 * slot, `e:` a date, email,
 * phone number or name, `w:#` any number.
 */
export type Features = Map<string, number>;

/**
 * How much a feature says what the message is about: words, lexicon meanings and oneOf
 * values fully, question words half ("where is it"), the rest (function words, numbers,
 * dates, names) not at all.
 */
export function evidenceOf(name: string): number {
  if (name === NUMBER_FEATURE) return 0;
  if (name.startsWith('q:')) return 0.5;
  return /^[wpck]:/.test(name) ? 1 : 0;
}

const STOPWORD_WEIGHT = 0.25;
const PREFIX_WEIGHT = 0.5;
const PREFIX_LENGTH = 5;
const NUMBER_FEATURE = 'w:#';
const CHOICE_WEIGHT = 1;
const QUESTION_WEIGHT = 0.6;
const MEANING_WEIGHT = 0.4;
/** Weight of a word no example uses whose lexicon meaning stands in for it. */
const UNKNOWN_MEANT_WEIGHT = 0.5;

import { stem } from '../text/roots.js';

export { stem };

/** First letters that sound alike and are swapped in chat ("kiero", "vuscar", "zapato"/"sapato"). */
const SOUND_ALIKE = ['ckq', 'bv', 'szc', 'yi', 'gj'];

/**
 * Typos rarely change the first letter; requiring it keeps corrections precise. Except
 * letters that sound alike, and a dropped silent h ("ola", "acer").
 */
function sameStart(word: string, candidate: string): boolean {
  const a = word[0] ?? '';
  const b = candidate[0] ?? '';
  if (a === b) return true;
  if (b === 'h' && candidate[1] === a) return true;
  return SOUND_ALIKE.some((set) => set.includes(a) && set.includes(b));
}

/**
 * Whether `word` is `candidate` with an ending added ("news"/"new", "added"/"add"): another
 * word or another form, not a typo of it; the stemmer already meets the forms it knows.
 */
function isOtherForm(word: string, candidate: string): boolean {
  return word.length > candidate.length && word.startsWith(candidate);
}

/** Whether `word` is `candidate` with two neighbouring letters swapped ("cancle"). */
export function isSwap(word: string, candidate: string): boolean {
  if (word.length !== candidate.length) return false;
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] !== candidate[i]) {
      return (
        word[i] === candidate[i + 1] &&
        word[i + 1] === candidate[i] &&
        word.slice(i + 2) === candidate.slice(i + 2)
      );
    }
  }
  return false;
}

/**
 * The typo distance of `word` from `candidate`: Levenshtein's, with a swap of neighbours
 * as one edit. A four-letter word is only a typo of a word one letter longer ("ordr",
 * "piza") or of its swap: any other single edit of a short word is as often another real
 * word ("life"/"like").
 */
function typoDistance(word: string, candidate: string): number {
  if (isSwap(word, candidate)) return 1;
  if (word.length === 4 && candidate.length !== 5) return Infinity;
  return distance(word, candidate);
}

/**
 * Known words, for typo correction: each surface word (folded) seen in the examples with
 * its root, bucketed by length.
 */
export class Vocabulary {
  readonly #byLength = new Map<number, string[]>();
  readonly #surfaces = new Map<string, string>();
  readonly #roots = new Set<string>();
  readonly #rootsByLength = new Map<number, string[]>();

  /** Adds a surface word and its root. */
  add(surface: string, root: string): void {
    if (!this.#roots.has(root)) {
      this.#roots.add(root);
      const roots = this.#rootsByLength.get(root.length) ?? [];
      roots.push(root);
      this.#rootsByLength.set(root.length, roots);
    }
    if (this.#surfaces.has(surface)) return;
    this.#surfaces.set(surface, root);
    const bucket = this.#byLength.get(surface.length) ?? [];
    bucket.push(surface);
    this.#byLength.set(surface.length, bucket);
  }

  /** Whether `root` is the root of a known word. */
  has(root: string): boolean {
    return this.#roots.has(root);
  }

  /**
   * The root of the known word closest to `word` within a typo's distance (1 edit for 4–8
   * letters, 2 from 9), or undefined. Shorter words are never corrected: too many are real
   * words. `root` is the word's own root: an inflected word whose root is that short
   * ("playing", root "play") is judged by its root, as a typo there ("paying") is as often
   * another real word.
   */
  correct(word: string, root = word): string | undefined {
    if (word.length < 4 || this.#surfaces.has(word)) return undefined;
    // An ending of two letters or more (-ing, -ed, -es) was stripped from a short root.
    const shortRoot = root.length <= 4 && word.length - root.length >= 2;
    const max = word.length >= 9 ? 2 : 1;
    let best: string | undefined;
    let bestDistance = max + 1;
    for (let len = word.length - max; len <= word.length + max; len++) {
      for (const candidate of this.#byLength.get(len) ?? []) {
        if (!sameStart(word, candidate) || isOtherForm(word, candidate)) continue;
        // Spanish chat writes "qu" as "k": "kiero", "ke", "kieres".
        const spelled = word[0] === 'k' && candidate.startsWith('qu') ? `qu${word.slice(1)}` : word;
        const d = typoDistance(spelled, candidate);
        const spelledRoot = spelled === word ? root : `qu${root.slice(1)}`;
        if (d < bestDistance && (!shortRoot || this.#rootIsTypo(spelledRoot, candidate))) {
          bestDistance = d;
          best = candidate;
        }
      }
    }
    if (best !== undefined) return this.#surfaces.get(best);
    return this.#rootTypo(word, root);
  }

  /**
   * A known root one typo from `root` (5+ letters), for an inflected word no known form is
   * near: "asembling" (root "asembl") is "assembling" though the examples say "assemble".
   */
  #rootTypo(word: string, root: string): string | undefined {
    if (root.length < 5 || word.length - root.length < 2) return undefined;
    for (let len = root.length - 1; len <= root.length + 1; len++) {
      for (const candidate of this.#rootsByLength.get(len) ?? []) {
        if (sameStart(root, candidate) && typoDistance(root, candidate) <= 1) return candidate;
      }
    }
    return undefined;
  }

  /** Whether the short `root` of a word is a typo of the root of the known `candidate`. */
  #rootIsTypo(root: string, candidate: string): boolean {
    const other = this.#surfaces.get(candidate) ?? candidate;
    return root === other || (root.length >= 4 && typoDistance(root, other) <= 1);
  }
}

const lexiconVocabularies = new Map<string, Vocabulary>();

/** The lexicon's words in `language` as a {@link Vocabulary}, for correcting typos of them. */
function lexiconVocabulary(language: string): Vocabulary {
  let vocabulary = lexiconVocabularies.get(language);
  if (vocabulary === undefined) {
    vocabulary = new Vocabulary();
    for (const w of lexiconWords(language)) vocabulary.add(w.surface, w.root);
    lexiconVocabularies.set(language, vocabulary);
  }
  return vocabulary;
}

function add(features: Features, name: string, weight: number): void {
  features.set(name, (features.get(name) ?? 0) + weight);
}

/** What featurising a text needs besides the text. */
export interface FeatureContext {
  /** Known words: unknown ones are mapped to the closest (typo correction); unknown capitalised words are names. */
  readonly vocabulary?: Vocabulary;
  /** The intents' `oneOf` slots: a mention of a value becomes one feature for its slot. */
  readonly choices?: ChoiceSlots;
  /** The contact's language, for the date parser. */
  readonly language?: string;
  /** "Now" and timezone of the message (the same as slot filling's, so dates are parsed once). */
  readonly now?: number;
  readonly timezone?: string;
}

const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/g;
/** Six digits or more, with spaces, dots, dashes or brackets between: what a phone number needs. */
const PHONE_DIGITS = /\d(?:[\s().-]*\d){5}/;
/** Fixed reference for masking dates: only where they are matters, not what day. */
const DATE_REFERENCE = Date.UTC(2026, 0, 1);

/** Stretches of the text that are values (emails, dates, phone numbers, choices), as placeholder features. */
function masks(text: string, folded: string, ctx: FeatureContext, features: Features): Span[] {
  const taken: Span[] = [];
  for (const m of text.matchAll(EMAIL)) {
    taken.push({ start: m.index, end: m.index + m[0].length });
    add(features, 'e:email', 1);
  }
  for (const d of findDates(
    text,
    folded,
    ctx.language ?? '',
    ctx.timezone ?? 'UTC',
    ctx.now ?? DATE_REFERENCE,
  )) {
    if (taken.some((t) => overlaps(t, d))) continue;
    taken.push(d);
    add(features, 'e:date', 1);
  }
  // A phone number is one value, however many groups of digits it is written in ("612 345
  // 678" was three numbers, which outweighed the words around them). Looked for only in a
  // text with that many digits: the parser is the costliest step for a message without.
  // After dates: "2026-12-10" is a valid Irish number.
  const phones = PHONE_DIGITS.test(text) ? findPhones(text, undefined, ctx.language ?? '') : [];
  for (const p of phones) {
    if (taken.some((t) => overlaps(t, p))) continue;
    taken.push(p);
    add(features, 'e:phone', 1);
  }
  for (const { slot, matches } of ctx.choices?.find(folded) ?? []) {
    for (const m of matches) {
      if (taken.some((t) => overlaps(t, m))) continue;
      taken.push(m);
      add(features, `c:${slot}`, CHOICE_WEIGHT);
    }
  }
  return taken;
}

/**
 * Whether the word at `start` is a name: capitalised in the original text, not the first
 * word of a sentence, not "I", and not a known word.
 */
function isName(text: string, start: number, word: string, ctx: FeatureContext): boolean {
  if (!/^\p{Lu}/u.test(text.slice(start, start + 1)) || word === 'i') return false;
  const before = text.slice(0, start).trimEnd();
  if (before === '' || /[.!?¿¡:]$/.test(before)) return false;
  return ctx.vocabulary === undefined || !ctx.vocabulary.has(rootOf(word, ctx.language ?? ''));
}

/**
 * The features of `text`: words (typos corrected against `ctx.vocabulary`), their first
 * letters and trigrams, function words at a low weight, and placeholders for values
 * (any number, date, email, phone number, name, or a value of a `oneOf` slot) so that an example with
 * one value meets a message with another ("a small veggie pizza" / "a medium
 * vegetarian", "to Leeds" / "to Headingley", "on monday" / "tomorrow").
 */
export function featurise(text: string, ctx: FeatureContext = {}): Features {
  const features: Features = new Map();
  const folded = fold(text);
  const taken = masks(text, folded, ctx, features);
  let previousName = -2;
  const words = tokenize(folded).flatMap(({ word: token, start, end }, index) =>
    taken.some((t) => overlaps(t, { start, end }))
      ? []
      : chatWords(token).map((raw) => ({ raw, start, index })),
  );
  const read = readPhrases(words.map((w) => w.raw));
  words.forEach(({ start, index }, i) => {
    for (const raw of read[i] ?? []) addWord(raw, start, index);
  });
  return features;

  function addWord(raw: string, start: number, index: number): void {
    if (isNumberWord(raw)) {
      add(features, NUMBER_FEATURE, 1);
      return;
    }
    if (isStopword(raw)) {
      add(features, `s:${raw}`, STOPWORD_WEIGHT);
      return;
    }
    if (isQuestionWord(raw)) {
      add(features, `q:${raw}`, QUESTION_WEIGHT);
      return;
    }
    if (isName(text, start, raw, ctx)) {
      // A run of capitalised words ("Main St", "Chapel Allerton") is one name.
      if (previousName !== index - 1) add(features, 'e:name', 1);
      previousName = index;
      return;
    }
    const language = ctx.language ?? '';
    let word = rootOf(raw, language);
    if (ctx.vocabulary !== undefined && !ctx.vocabulary.has(word)) {
      // "anúlala", "bórrame": the verb without the pronouns written onto it.
      const bare = withoutClitics(raw, language);
      const root = bare === undefined ? undefined : rootOf(bare, language);
      if (
        root !== undefined &&
        (ctx.vocabulary.has(root) || meaningOf(root, language) !== undefined)
      )
        word = root;
    }
    if (ctx.vocabulary !== undefined && !ctx.vocabulary.has(word)) {
      const corrected = ctx.vocabulary.correct(raw, word);
      if (corrected !== undefined) word = corrected;
    }
    let meaning = meaningOf(word, language);
    // A typo of a lexicon word no example uses ("punture") still says its meaning.
    if (meaning === undefined && ctx.vocabulary !== undefined && !ctx.vocabulary.has(word)) {
      const lexical = lexiconVocabulary(language).correct(raw, word);
      if (lexical !== undefined) meaning = meaningOf(lexical, language);
    }
    // A word no example uses ("tarifas") but whose meaning they do ("rates") says that
    // meaning in full; the word itself, unknown, weighs half (it still tells a message
    // about something else). At its full weight, unknown, it drowned its meaning: a
    // message of one such word scored nothing.
    if (meaning !== undefined && ctx.vocabulary !== undefined && !ctx.vocabulary.has(word)) {
      add(features, `k:${meaning}`, 1);
      add(features, `w:${word}`, UNKNOWN_MEANT_WEIGHT);
      return;
    }
    add(features, `w:${word}`, 1);
    if (meaning !== undefined) add(features, `k:${meaning}`, MEANING_WEIGHT);
    // A shared beginning catches other forms of a word: allerg(ic|y|ens), entreg(a|ar).
    if (word.length > PREFIX_LENGTH) {
      add(features, `p:${word.slice(0, PREFIX_LENGTH)}`, PREFIX_WEIGHT);
    }
  }
}

/**
 * The content words of `text` (folded) with their roots, for building a {@link Vocabulary}:
 * names (capitalised words inside a sentence) are left out, as {@link featurise} masks them.
 */
export function contentWords(text: string, language = ''): { surface: string; root: string }[] {
  const words = tokenize(fold(text)).flatMap((t) =>
    chatWords(t.word).map((word) => ({ word, start: t.start })),
  );
  const read = readPhrases(words.map((w) => w.word));
  return words
    .flatMap((w, i) => (read[i] ?? []).map((word) => ({ word, start: w.start })))
    .filter(
      (t) =>
        !isNumberWord(t.word) &&
        !isStopword(t.word) &&
        !isQuestionWord(t.word) &&
        !isName(text, t.start, t.word, {}),
    )
    .map((t) => ({ surface: t.word, root: rootOf(t.word, language) }));
}
