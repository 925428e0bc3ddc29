/**
 * Corrections: words that say the customer takes back a value already given ("no, make it
 * 3", "actually 2", "sorry, I meant large", "mejor tres", "cambia a grande", "en vez de").
 */
import { fold } from '../text/fold.js';

const MARKERS =
  /(?:^|[^\p{L}])(?:no|nope|actually|sorry|wait|oops|instead|rather|make it|make that|change (?:it|that) to|change to|i meant|i mean|not \S+ but|mejor|perdon|perdona|en realidad|cambia|cambialo|cambiala|cambiar a|cambialos|quise decir|quiero decir|me equivoque|en vez de|en lugar de|corrijo|rectifico|que sean|que sea|mas bien)(?=$|[^\p{L}])/u;

/**
 * Whether `text` reads as a correction of something said before.
 * @example
 * soundsLikeCorrection('no, make it 3'); // true
 */
export function soundsLikeCorrection(text: string): boolean {
  return MARKERS.test(fold(text));
}
