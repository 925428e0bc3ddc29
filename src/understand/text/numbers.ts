/**
 * Numbers written in digits or in words, English and Spanish ("2", "2.5", "two",
 * "twenty one", "a dozen", "dos", "veintidós", "treinta y dos", "media docena", "un par").
 */
import { tokenize, type Token } from './fold.js';

/** A number found in folded text. */
export interface NumberMatch {
  readonly value: number;
  readonly start: number;
  readonly end: number;
  /**
   * An article that may mean one ("un", "una"): used only when nothing better is found.
   */
  readonly weak: boolean;
}

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  cero: 0,
  uno: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  once: 11,
  doce: 12,
  trece: 13,
  catorce: 14,
  quince: 15,
  dieciseis: 16,
  diecisiete: 17,
  dieciocho: 18,
  diecinueve: 19,
  veinte: 20,
  veintiuno: 21,
  veintiun: 21,
  veintiuna: 21,
  veintidos: 22,
  veintitres: 23,
  veinticuatro: 24,
  veinticinco: 25,
  veintiseis: 26,
  veintisiete: 27,
  veintiocho: 28,
  veintinueve: 29,
  treinta: 30,
  cuarenta: 40,
  cincuenta: 50,
  sesenta: 60,
  setenta: 70,
  ochenta: 80,
  noventa: 90,
  cien: 100,
  ciento: 100,
  doscientos: 200,
  doscientas: 200,
  trescientos: 300,
  trescientas: 300,
  cuatrocientos: 400,
  quinientos: 500,
  seiscientos: 600,
  setecientos: 700,
  ochocientos: 800,
  novecientos: 900,
};
const MULTIPLIERS: Record<string, number> = { hundred: 100, thousand: 1000, mil: 1000 };
/** Words joining parts of one number: "treinta y dos", "one hundred and five". */
const JOINERS = new Set(['y', 'and']);
/** Phrases worth a fixed number, longest first. */
const PHRASES: readonly (readonly [readonly string[], number])[] = [
  [['half', 'a', 'dozen'], 6],
  [['media', 'docena'], 6],
  [['a', 'dozen'], 12],
  [['one', 'dozen'], 12],
  [['una', 'docena'], 12],
  [['a', 'couple'], 2],
  [['a', 'pair'], 2],
  [['un', 'par'], 2],
  [['dozen'], 12],
  [['docena'], 12],
];
const WEAK = new Set(['un', 'una']);
const DIGITS = /^\d+(?:[.,]\d+)?$/;

function digitsValue(word: string): number | undefined {
  if (!DIGITS.test(word)) return undefined;
  // "1,000" is a thousands separator; "2,5" a Spanish decimal comma.
  const thousands = /^\d{1,3},\d{3}$/.test(word);
  const n = Number(thousands ? word.replace(',', '') : word.replace(',', '.'));
  return Number.isFinite(n) ? n : undefined;
}

function phraseAt(tokens: readonly Token[], i: number): [number, number] | undefined {
  for (const [words, value] of PHRASES) {
    if (words.every((w, k) => tokens[i + k]?.word === w)) return [value, words.length];
  }
  return undefined;
}

/** Reads a number of words starting at token `i`: [value, tokens used]. */
function wordsAt(tokens: readonly Token[], i: number): [number, number] | undefined {
  let total = 0;
  let current = 0;
  let used = 0;
  let k = i;
  while (k < tokens.length) {
    const word = tokens[k]?.word ?? '';
    const unit = UNITS[word];
    const mult = MULTIPLIERS[word];
    if (unit !== undefined && (used === 0 || current % 10 === 0 || unit >= 100)) {
      current += unit;
    } else if (mult !== undefined && used > 0) {
      current = (current === 0 ? 1 : current) * mult;
      if (mult >= 1000) {
        total += current;
        current = 0;
      }
    } else if (mult === 1000 && used === 0) {
      current = 1000; // "mil" alone
    } else if (JOINERS.has(word) && used > 0 && UNITS[tokens[k + 1]?.word ?? ''] !== undefined) {
      k += 1;
      continue;
    } else break;
    used = k - i + 1;
    k += 1;
  }
  return used === 0 ? undefined : [total + current, used];
}

/**
 * Finds every number in `folded` (already {@link fold}ed), in order of appearance.
 * `language` (`en`, `es`) settles words that are numbers in one language only.
 * @example
 * findNumbers('two large and 3 small').map((n) => n.value); // [2, 3]
 */
export function findNumbers(folded: string, language = ''): NumberMatch[] {
  const tokens = tokenize(folded).filter(
    // "once" is eleven in Spanish only.
    (t) => t.word !== 'once' || language === 'es',
  );
  const out: NumberMatch[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as Token;
    const digits = digitsValue(token.word);
    if (digits !== undefined) {
      out.push({ value: digits, start: token.start, end: token.end, weak: false });
      i += 1;
      continue;
    }
    const found = phraseAt(tokens, i) ?? wordsAt(tokens, i);
    if (found !== undefined) {
      const [value, used] = found;
      const last = tokens[i + used - 1] as Token;
      out.push({ value, start: token.start, end: last.end, weak: false });
      i += used;
      continue;
    }
    if (WEAK.has(token.word)) {
      out.push({ value: 1, start: token.start, end: token.end, weak: true });
    }
    i += 1;
  }
  return out;
}

/** Whether a folded word is (part of) a number: digits or a number word. */
export function isNumberWord(word: string): boolean {
  return DIGITS.test(word) || word in UNITS || word in MULTIPLIERS;
}
