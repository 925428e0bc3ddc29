/**
 * Text folding for matching: lower case without accents, the same length as the input so
 * that a match found in the folded text points at the same characters of the original.
 */

const MARKS = /[\u0300-\u036f]/g;

/**
 * Lower-cases `text` and strips accents character by character (`Mañana` → `manana`),
 * keeping its length: index `i` of the result is index `i` of the input.
 * @example
 * fold('Cámbialo a GRANDE'); // 'cambialo a grande'
 */
export function fold(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) {
    const folded = ch.normalize('NFD').replace(MARKS, '').toLowerCase();
    // A character whose folded form has another length (ß, İ, astral symbols) stays as
    // it is (lower-cased only when that keeps its length), so indexes keep matching.
    if (folded.length === ch.length) out += folded;
    else {
      const lower = ch.toLowerCase();
      out += lower.length === ch.length ? lower : ch;
    }
  }
  return out;
}

/** The language part of a locale: `es-MX` → `es`, `pt_BR` → `pt`, `` → ``. */
export function baseLanguage(locale: string): string {
  return (locale.split(/[-_]/)[0] ?? '').toLowerCase();
}

/** The region part of a locale in upper case (`es-MX` → `MX`), if it has one. */
export function localeRegion(locale: string): string | undefined {
  const region = locale.split(/[-_]/)[1];
  return region !== undefined && /^[a-z]{2}$/i.test(region) ? region.toUpperCase() : undefined;
}

/** A word of folded text and where it is. */
export interface Token {
  /** The folded word (letters and digits only). */
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

const WORD = /\p{N}+(?:[.,]\p{N}+)*|\p{L}+(?:['’]\p{L}+)*/gu;

/**
 * Splits folded text into words with their offsets: runs of letters (with an inner
 * apostrophe: `don't`) and runs of digits (with a decimal point or comma: `2.5`, `1,000`),
 * so `4kg` is two words.
 */
export function tokenize(folded: string): Token[] {
  const out: Token[] = [];
  for (const m of folded.matchAll(WORD)) {
    out.push({ word: m[0], start: m.index, end: m.index + m[0].length });
  }
  return out;
}
