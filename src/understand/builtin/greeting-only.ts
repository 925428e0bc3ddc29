/**
 * Messages that only greet, thank or chat ("buenas tardes", "hi there", "thanks, bye",
 * "vale gracias"): no request at all, so no intent may be confident on them, even when
 * one of their words is a slot value ("tarde" is the afternoon of a delivery slot).
 */
import { fold, tokenize } from '../text/fold.js';

/** Folded words of greeting, thanks, farewell and assent (English and Spanish). */
const COURTESY = new Set(
  `hi hello hey hiya there good thanks thank you ty thx cheers bye goodbye ok okay cool great
  nice lovely perfect morning all everyone folks
  hola buenas buenos buen gracias muchas muchisimas vale adios hasta luego perfecto genial
  muy bien guapa guapo saludos que tal`.split(/\s+/),
);

/** Times of day, a greeting only right after good/buenas ("good morning", "buenas tardes"). */
const TIME_OF_DAY = new Set([
  'morning',
  'afternoon',
  'evening',
  'night',
  'day',
  'dias',
  'tardes',
  'noches',
]);
const GOOD = new Set(['good', 'buenas', 'buenos', 'buen']);

/**
 * Whether `text` only greets, thanks or says goodbye (every word one of those, a time of
 * day only after "good"/"buenas").
 * @example
 * isGreetingOnly('buenas tardes'); // true
 * isGreetingOnly('this afternoon'); // false
 */
export function isGreetingOnly(text: string): boolean {
  const words = tokenize(fold(text)).map((t) => t.word);
  if (words.length === 0) return false;
  return words.every((word, i) =>
    TIME_OF_DAY.has(word) ? GOOD.has(words[i - 1] ?? '') : COURTESY.has(word),
  );
}

/**
 * A greeting that opens a message ("Good morning, I'd like…", "hola buenas, quería…"): the
 * words a greeting-only message is made of, then a comma, "!" or ".", or the greeting words
 * alone before a request. Leading greetings name no intent but weigh in a short message's
 * similarity as much as its request, and the chatter phrases share them.
 */
const OPENING_GREETING =
  /^\s*(?:(?:hi|hello|hey|hiya|morning|good\s+(?:morning|afternoon|evening|day)|hola|buenas(?:\s+(?:tardes|noches|dias|días))?|buenos\s+d[ií]as|buen\s+d[ií]a)(?:\s+(?:there|all|everyone|team))?(?:\s*[,!.]+\s*|\s+))+/iu;

/** How many words a message must keep after its greeting for the greeting to be left out. */
const MIN_REST_WORDS = 2;

/**
 * `text` without the greeting it opens with, when a request of at least two words follows;
 * else `text` itself.
 * @example
 * withoutOpeningGreeting("Good morning, I'd like to order my books again"); // "I'd like to order my books again"
 * withoutOpeningGreeting('hola buenas'); // 'hola buenas'
 */
export function withoutOpeningGreeting(text: string): string {
  const m = OPENING_GREETING.exec(text);
  if (m === null) return text;
  const rest = text.slice(m[0].length);
  return rest.split(/\s+/).filter((w) => w !== '').length >= MIN_REST_WORDS ? rest : text;
}
