/**
 * Information questions ("what time is my appointment", "¿a qué hora era mi cita?", "who's
 * playing tonight"): a message that opens by asking what, when, where, who, which, why or
 * how much. An intent none of whose examples asks such a question is an action ("move my
 * appointment", "cancel it"): a question that only shares its words asks for something
 * the bot was not given, so the builtin understander does not take it confidently for
 * that intent. "How do I cancel?" and "when can I come in?" ask for the action itself and
 * are not information questions.
 */
import { fold, tokenize } from '../text/fold.js';

/** Folded words that open an information question (English, and Spanish without accents). */
const ASKING = new Set(
  `what whats which who whos whom whose when whens where wheres why
  cual cuales cuando donde adonde quien quienes cuanto cuanta cuantos cuantas`.split(/\s+/),
);

/** Words after "how" that make it ask for a quantity or a time, not a way ("how do I"). */
const HOW_MUCH = new Set(['much', 'many', 'long', 'late', 'early', 'often', 'far', 'old', 'soon']);

/** Accented interrogatives (Spanish writes "qué", "cómo" only when asking). */
const ACCENTED =
  /(?:^|[^\p{L}])(qué|cuál|cuáles|cuándo|dónde|adónde|quién|quiénes|cuánto|cuánta|cuántos|cuántas)(?![\p{L}])/u;

/** "What do I…", "when can we…": asking what to do, or for the action itself. */
const FIRST_PERSON_AUX = new Set(['do', 'should', 'can', 'could', 'shall', 'must']);
const FIRST_PERSON = new Set(['i', 'we']);
/** A Spanish verb in the first person ("dónde veo", "cuándo puedo", "qué hacemos"). */
const FIRST_PERSON_ES = /^[a-z]{2,}(?:o|mos)$/;

/** Whether the words after a question word ask what to do ("what do I", "dónde veo"). */
function asksWhatToDo(next: string, after: string): boolean {
  return (FIRST_PERSON_AUX.has(next) && FIRST_PERSON.has(after)) || FIRST_PERSON_ES.test(next);
}

/** How many words from the start a question word may come ("a qué hora", "so where is"). */
const OPENING = 3;

/** One word per kind of question: "whats" and "what", "cuántos" and "cuanto" are one. */
const SAME_QUESTION: Readonly<Record<string, string>> = {
  whats: 'what',
  whos: 'who',
  whom: 'who',
  whose: 'who',
  whens: 'when',
  wheres: 'where',
  cuales: 'cual',
  quienes: 'quien',
  cuanta: 'cuanto',
  cuantos: 'cuanto',
  cuantas: 'cuanto',
  adonde: 'donde',
};

const kindOf = (word: string): string => SAME_QUESTION[word] ?? word;

/**
 * The question word `text` opens an information question with (folded, one per kind:
 * `what`, `when`, `where`, `who`, `which`, `why`, `how` for how much/many/long/late…, `que`,
 * `cuando`, `donde`, `quien`, `cuanto`, `cual`), within its first three words, or
 * undefined. "How do I…", "what should I…", "when can we…" and "cómo…" ask for a way to do
 * something, or for the action itself, and are not information questions.
 * @example
 * questionWordOf('what time is my appointment'); // 'what'
 * questionWordOf('¿a qué hora abrís?'); // 'que'
 * questionWordOf('how do I cancel'); // undefined
 */
export function questionWordOf(text: string): string | undefined {
  const words = tokenize(fold(text))
    .slice(0, OPENING + 2)
    .map((t) => t.word.replace(/['’]/g, ''));
  for (let i = 0; i < Math.min(OPENING, words.length); i++) {
    const word = words[i] ?? '';
    if (ASKING.has(word))
      return asksWhatToDo(words[i + 1] ?? '', words[i + 2] ?? '') ? undefined : kindOf(word);
    if (word === 'how' && HOW_MUCH.has(words[i + 1] ?? '')) return 'how';
  }
  const opening = text.toLowerCase().trim().split(/\s+/).slice(0, OPENING).join(' ');
  const accented = ACCENTED.exec(opening)?.[1];
  return accented === undefined ? undefined : kindOf(fold(accented));
}

/**
 * Whether `text` opens with an information question (see {@link questionWordOf}).
 * @example
 * asksForInformation('what time is my appointment'); // true
 * asksForInformation('how do I cancel'); // false
 */
export function asksForInformation(text: string): boolean {
  return questionWordOf(text) !== undefined;
}
