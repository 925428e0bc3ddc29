/**
 * How knowledge text and questions become search terms: folded, split at apostrophes
 * ("i'm" → "i", "m"), function words and single letters out, plurals stripped, then cut
 * to their first {@link TERM_LENGTH} letters (truncation stemming: "allergy" and
 * "allergens", "deliver" and "delivery", "reparto" and "repartimos" meet).
 */
import { fold, tokenize } from '../text/fold.js';
import { isStopword } from '../text/stopwords.js';
import { stem } from '../builtin/features.js';

/** Letters a term keeps (a word's inflections share them, in English and Spanish). */
export const TERM_LENGTH = 6;

/** Words that ask a question ("how long", "which", "cuántos"): they say what kind, not what about. */
const QUESTION =
  `what whats which who whom whose when where why how can could do does did will would
  long many much often que cual cuales quien quienes cuando donde como cuanto cuanta cuantos
  cuantas porque puedo puede pueden`.split(/\s+/);

/** The question words, as terms. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(QUESTION.map((w) => term(w)));

function term(word: string): string {
  return stem(word).slice(0, TERM_LENGTH);
}

/** The search terms of `text`. */
export function knowledgeTerms(text: string): string[] {
  return tokenize(fold(text))
    .flatMap((t) => t.word.split("'"))
    .filter((w) => w.length > 1 && !isStopword(w))
    .map(term);
}
