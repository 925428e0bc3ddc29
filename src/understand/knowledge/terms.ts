/** How knowledge text and questions become search terms: folded, function words out, plurals stripped. */
import { fold, tokenize } from '../text/fold.js';
import { isStopword } from '../text/stopwords.js';
import { stem } from '../builtin/features.js';

/** Question words: they say a question is asked, not what about. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  `what whats which who whom whose when where why how can could do does did will would
  que cual cuales quien quienes cuando donde como cuanto cuanta cuantos cuantas porque puedo puede pueden`.split(
    /\s+/,
  ),
);

/** The search terms of `text`. */
export function knowledgeTerms(text: string): string[] {
  return tokenize(fold(text))
    .map((t) => t.word)
    .filter((w) => !isStopword(w))
    .map(stem);
}
