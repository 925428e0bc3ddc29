/**
 * Word roots for intent similarity: the Snowball stemmer of the contact's language
 * (`@orama/stemmers`, Porter2 for English, Snowball for Spanish), so "shipped", "shipping"
 * and "ships" meet at `ship`, and "enviar", "envío", "enviado" at `envi`. Languages without
 * a stemmer here keep the plural-stripped word ({@link stem}). Input is folded text.
 */
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as spanish } from '@orama/stemmers/spanish';

const STEMMERS: Readonly<Record<string, (word: string) => string>> = { en: english, es: spanish };

/** Strips plural endings so "pizzas"/"pizza", "parcels"/"parcel", "tamaños"/"tamaño" meet. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('es') && /[sxz]es$|ches$|shes$/.test(word)) {
    return word.slice(0, -2);
  }
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) {
    return word.slice(0, -1);
  }
  return word;
}

/** Languages with a Snowball stemmer here. */
export const ROOT_LANGUAGES: readonly string[] = Object.keys(STEMMERS);

/**
 * A folded Spanish vosotros verb form with its accent back ("traigais" → "traigáis",
 * "podriais" → "podríais", "teneis" → "tenéis"): Snowball finds these endings only
 * accented, and customers write them without, so "¿me lo traigáis?" and "traigan" met only
 * when the accent was typed. Words under six letters ("seis", "pais") and numbers ending
 * in "seis" ("dieciseis") are left alone.
 */
function withVosotrosAccent(word: string): string {
  if (word.length < 6 || word.endsWith('seis')) return word;
  if (word.endsWith('iais')) return `${word.slice(0, -4)}íais`;
  if (word.endsWith('ais')) return `${word.slice(0, -3)}áis`;
  if (word.endsWith('eis')) return `${word.slice(0, -3)}éis`;
  return word;
}

/** Per language: word → root, for the words seen lately. */
const memo = new Map<string, Map<string, string>>();
const MEMO_LIMIT = 50_000;

/**
 * The root of a folded word in `language` (`en`, `es`; others: {@link stem}).
 * @example
 * rootOf('shipping', 'en'); // 'ship'
 * rootOf('enviado', 'es'); // 'envi'
 */
export function rootOf(word: string, language: string): string {
  const stemmer = STEMMERS[language];
  if (stemmer === undefined || word.length < 3) return stem(word);
  let roots = memo.get(language);
  if (roots === undefined) {
    roots = new Map();
    memo.set(language, roots);
  }
  const hit = roots.get(word);
  if (hit !== undefined) return hit;
  const root = stemmer(language === 'es' ? withVosotrosAccent(word) : word);
  if (roots.size >= MEMO_LIMIT) roots.clear();
  roots.set(word, root);
  return root;
}

/** Spanish object pronouns written onto a verb ("anúlala", "bórrame", "mandádmelo"), longest first. */
const CLITICS = [
  'selos',
  'selas',
  'selo',
  'sela',
  'melo',
  'mela',
  'telo',
  'tela',
  'noslo',
  'nosla',
  'los',
  'las',
  'les',
  'nos',
  'me',
  'te',
  'lo',
  'la',
  'le',
  'se',
];

/**
 * A folded Spanish word without the object pronouns written onto it, when it has some and
 * at least four letters stay ("anulala" → "anula", "mandadlo" → "mandad", "borrame" →
 * "borra"); undefined otherwise, and for other languages. The stemmer strips them from
 * infinitives and gerunds ("cancelarla") but not from imperatives, which is how customers
 * write them: the caller decides whether the bare verb is a word it knows.
 * @example
 * withoutClitics('anulala', 'es'); // 'anula'
 */
export function withoutClitics(word: string, language: string): string | undefined {
  if (language !== 'es') return undefined;
  for (const clitic of CLITICS) {
    if (word.endsWith(clitic) && word.length - clitic.length >= 4) {
      return word.slice(0, -clitic.length);
    }
  }
  return undefined;
}
