/**
 * Near misses by object: "can I cancel my Netflix subscription" to a hotel bot uses the
 * bot's own request word (cancel) for something the bot has nothing to do with.
 *
 * Per intent, each word of its examples has an object position: the words right after it
 * (only articles and possessives between: cancel → reservation, booking, room, stay). The
 * position is closed when at least half of what the examples put there is the bot's own
 * (a word two intents use, or a slot value): the intent acts on the bot's things. It is
 * open when the examples put words only that intent has there (lost → wallet, charger,
 * teddy): a new object there is normal and costs nothing.
 *
 * A message that puts a foreign noun phrase ("my Netflix subscription", "a rental car")
 * after a word in a closed position does not fit that intent: every word of the phrase
 * is foreign to the whole bot (no example, slot value or synonym has it, typos allowed, and
 * no lexicon meaning the bot's objects use), and an article or possessive opens it.
 */
import type { IntentSpec } from '../types.js';
import type { IntentIndex } from './intent-index.js';
import { baseLanguage, fold } from '../text/fold.js';
import { meaningOf } from '../text/lexicon.js';
import { contentWords, Vocabulary } from './features.js';

/**
 * An intent's confidence is multiplied by this when the message does not fit it: 0.84
 * becomes 0.50, under the default threshold, and a near miss is not taken.
 */
export const MISFIT_FACTOR = 0.6;

/** A position is closed when at least this share of its objects are the bot's own. */
const CLOSED_SHARE = 0.5;
/** A word the bot's own when this many intents use it. */
const OWN_WORD_INTENTS = 2;
/** Words this short are judged foreign only when the lexicon has them: many are typos ("ora" for "hora"). */
const MIN_FOREIGN_LENGTH = 4;

interface Word {
  readonly surface: string;
  readonly root: string;
  /** Capitalised inside its clause (a name or brand: "Netflix", "PC"). */
  readonly name: boolean;
}

/** A content word of a clause and the noun phrase after it, if one follows directly. */
interface Item {
  readonly word: Word;
  /** Content words and names after it with only articles and possessives between. */
  readonly object: readonly Word[];
  /** Whether an article or possessive opens that phrase ("cancel my reservation"). */
  readonly determined: boolean;
}

/** Articles and possessives (folded) that open a noun phrase, per language. */
const DETERMINERS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set('a an the my your our his her their its this that these those'.split(' ')),
  es: new Set(
    'un una unos unas el la los las mi mis tu tus su sus nuestro nuestra nuestros nuestras'.split(
      ' ',
    ),
  ),
};
const ANY_DETERMINER = new Set(Object.values(DETERMINERS).flatMap((d) => [...d]));

/** The clauses of `text` (split at punctuation), each as its words and their objects. */
function clausesOf(text: string, language: string): Item[][] {
  const determiners = DETERMINERS[language] ?? ANY_DETERMINER;
  return text.split(/[.,;:!?¿¡()\n]+/).flatMap((clause) => {
    const words: (Word | 'determiner' | 'other')[] = clause
      .split(/\s+/)
      .filter((piece) => piece !== '')
      .map((piece, i) => {
        if (determiners.has(fold(piece))) return 'determiner';
        if (piece === 'I') return 'other';
        if (i > 0 && /^\p{Lu}/u.test(piece)) {
          const surface = fold(piece).replace(/[^\p{L}\p{N}]/gu, '');
          return surface === '' ? 'other' : { surface, root: surface, name: true };
        }
        const word = contentWords(piece, language)[0];
        return word === undefined ? 'other' : { ...word, name: false };
      });
    const items: Item[] = [];
    words.forEach((word, i) => {
      if (typeof word === 'string' || word.name) return;
      const object: Word[] = [];
      let determined = false;
      for (const next of words.slice(i + 1)) {
        if (next === 'other') break;
        if (next === 'determiner') {
          if (object.length > 0) break;
          determined = true;
          continue;
        }
        object.push(next);
      }
      items.push({ word, object, determined });
    });
    return items.length === 0 ? [] : [items];
  });
}

/** A word's key: its lexicon meaning when it has one (booking ~ reservation), else its root. */
function keyOf(word: Word, language: string): string {
  const meaning = meaningOf(word.root, language);
  return meaning === undefined ? `w:${word.root}` : `k:${meaning}`;
}

/** Per intent, which of its words have a closed object position; and the bot's own words. */
export class ObjectFit {
  /** The words of the bot's examples (not the built-in phrases'), for typos of them. */
  readonly #vocabulary = new Vocabulary();
  /** The words of the bot's slot values and synonyms, for typos of them ("dubble"). */
  readonly #values = new Vocabulary();
  /** Lexicon meanings of what the bot's examples put in object positions. */
  readonly #objectMeanings = new Set<string>();
  /** Intent id → roots of its words whose object position is closed. */
  readonly #closed = new Map<string, ReadonlySet<string>>();
  /** Roots whose object position is closed in some intent. */
  readonly #anyClosed = new Set<string>();
  /** Intent id → keys of the objects its examples name. */
  readonly #objects = new Map<string, ReadonlySet<string>>();

  constructor(intents: readonly IntentSpec[]) {
    for (const intent of intents) {
      for (const slot of intent.slots ?? []) {
        for (const choice of slot.choices ?? []) {
          for (const text of [choice.value, ...(choice.synonyms ?? [])]) {
            for (const w of contentWords(text)) this.#values.add(w.surface, w.surface);
          }
        }
      }
    }
    const parsed = intents.map((intent) =>
      Object.entries(intent.examples).flatMap(([locale, phrases]) => {
        const language = baseLanguage(locale);
        for (const phrase of phrases) {
          for (const w of contentWords(phrase, language)) this.#vocabulary.add(w.surface, w.root);
        }
        return phrases.flatMap((p) => clausesOf(p, language).map((items) => ({ language, items })));
      }),
    );
    const intentsOfKey = new Map<string, number>();
    for (const clauses of parsed) {
      const keys = new Set(
        clauses.flatMap(({ language, items }) => items.map((i) => keyOf(i.word, language))),
      );
      for (const k of keys) intentsOfKey.set(k, (intentsOfKey.get(k) ?? 0) + 1);
    }
    const isOwn = (word: Word, language: string): boolean =>
      (intentsOfKey.get(keyOf(word, language)) ?? 0) >= OWN_WORD_INTENTS ||
      this.#values.has(word.surface);
    intents.forEach((intent, i) => {
      const positions = new Map<string, { uses: number; own: number }>();
      const objects = new Set<string>();
      for (const { language, items } of parsed[i] ?? []) {
        for (const { word, object } of items) {
          const head = object[0];
          if (head === undefined) continue;
          const meaning = meaningOf(head.root, language);
          if (meaning !== undefined) this.#objectMeanings.add(meaning);
          objects.add(keyOf(head, language));
          const position = positions.get(word.root) ?? { uses: 0, own: 0 };
          position.uses++;
          if (isOwn(head, language)) position.own++;
          positions.set(word.root, position);
        }
      }
      this.#objects.set(intent.id, objects);
      const closed = [...positions]
        .filter(([, p]) => p.own >= p.uses * CLOSED_SHARE)
        .map(([root]) => root);
      // A word the examples only ever name as a thing ("drop my reservation", "anulad la
      // reserva") and never act with is the bot's object: said as a verb with a foreign
      // object ("¿me reserváis un hotel?") it is closed too.
      const acting = new Set(
        (parsed[i] ?? []).flatMap(({ language, items }) =>
          items.filter((it) => it.object.length > 0).map((it) => keyOf(it.word, language)),
        ),
      );
      for (const { language, items } of parsed[i] ?? []) {
        for (const { object } of items) {
          for (const w of object) {
            if (!acting.has(keyOf(w, language)) && isOwn(w, language)) closed.push(w.root);
          }
        }
      }
      this.#closed.set(intent.id, new Set(closed));
      for (const root of closed) this.#anyClosed.add(root);
    });
  }

  /**
   * The intents `text` puts a foreign object after a word of theirs in a closed position:
   * "cancel my Netflix subscription" for an intent whose examples cancel bookings only.
   */
  misfits(text: string, locale: string): ReadonlySet<string> {
    const language = baseLanguage(locale);
    const items = clausesOf(text, language).flat();
    const out = new Set<string>();
    const requests = new Set<Item>();
    for (const item of items) {
      const { word, object, determined } = item;
      if (!determined || object.length === 0) continue;
      const root = this.#known(word) ?? word.root;
      if (!this.#anyClosed.has(root)) continue;
      if (!this.#isForeignPhrase(object, language)) continue;
      for (const [id, closed] of this.#closed) {
        if (!closed.has(root)) continue;
        out.add(id);
        requests.add(item);
      }
    }
    if (out.size === 0) return out;
    // A message that also names a slot value or one of the intent's own objects is about
    // the bot's things ("add a coke to my order"): the foreign phrase is a detail.
    const foreign = new Set([...requests].flatMap((i) => i.object.map((w) => w.surface)));
    const others = items
      .filter((i) => !requests.has(i) && !foreign.has(i.word.surface))
      .map((i) => i.word);
    if (others.some((w) => this.#isValue(w))) return new Set();
    const keys = others.map((w) => keyOf({ ...w, root: this.#known(w) ?? w.root }, language));
    return new Set([...out].filter((id) => !keys.some((k) => this.#objects.get(id)?.has(k))));
  }

  /** Whether `word` is (a typo of) a word of the bot's slot values or synonyms. */
  #isValue(word: Word): boolean {
    return this.#values.has(word.surface) || this.#values.correct(word.surface) !== undefined;
  }

  /** The root of the bot's example word that `word` is or is a typo of, if any. */
  #known(word: Word): string | undefined {
    if (this.#vocabulary.has(word.root)) return word.root;
    return (
      this.#vocabulary.correct(word.surface, word.root) ??
      this.#vocabulary.correct(word.surface, word.surface)
    );
  }

  /**
   * Whether a noun phrase is foreign to the bot: no word of it is the bot's and at least one
   * is judged foreign. A short word the lexicon does not know is not judged either way
   * ("gym" in "my gym membership", "ora" for "hora"): alone it is as likely a typo, beside
   * a foreign word it is part of the same foreign thing.
   */
  #isForeignPhrase(phrase: readonly Word[], language: string): boolean {
    const verdicts = phrase.map((w) => this.#verdict(w, language));
    return verdicts.includes('foreign') && !verdicts.includes('own');
  }

  /** Whether an example, slot value or object meaning of the bot has `word` (own), none has it (foreign), or it is too short to tell. */
  #verdict(word: Word, language: string): 'own' | 'foreign' | 'unjudged' {
    const meaning = meaningOf(word.root, language);
    if (this.#known(word) !== undefined || this.#isValue(word)) return 'own';
    if (meaning !== undefined) return this.#objectMeanings.has(meaning) ? 'own' : 'foreign';
    // A short word is judged only when the lexicon knows it ("car"): else it is as likely a typo ("ora").
    return word.name || word.surface.length >= MIN_FOREIGN_LENGTH ? 'foreign' : 'unjudged';
  }
}

const fits = new WeakMap<IntentIndex, ObjectFit>();

/** {@link ObjectFit.misfits} of `text`, with the intents' positions computed once per index. */
export function misfitsOf(
  index: IntentIndex,
  intents: readonly IntentSpec[],
  text: string,
  locale: string,
): ReadonlySet<string> {
  let fit = fits.get(index);
  if (fit === undefined) {
    fit = new ObjectFit(intents);
    fits.set(index, fit);
  }
  return fit.misfits(text, locale);
}
