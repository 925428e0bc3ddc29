/**
 * Function words (articles, prepositions, pronouns, auxiliaries, politeness) of the
 * languages the builtin understander knows, folded (no accents). They weigh little in
 * intent similarity. Question words and negations are deliberately NOT here: "where is
 * my parcel" and "cancel my parcel" differ by them.
 */

const EN = `a an the to of in on at for from by with about into onto as and or but so
i me my mine we us our you your he she it its they them their this that these those
is am are was were be been being do does did have has had will would shall should can could may might
please pls thanks thank hi hello hey ok okay just some any also there here then than too very really
get got let lets`;

const ES = `el la los las lo un una unos unas al del de a en con por para sin sobre entre hasta desde
y e o u pero que se me mi mis te tu tus su sus nos nuestro nuestra le les yo vos usted ustedes
es son soy eres era fue ser estar esta este esto estos estas ese esa eso estoy estan esta
he ha han hay habia tengo tiene tienen tener
por favor gracias hola buenas buenos dias tardes noches vale ok pues ya tambien muy`;

const LISTS: Record<string, ReadonlySet<string>> = {
  en: new Set(EN.split(/\s+/)),
  es: new Set(ES.split(/\s+/)),
};

const ALL = new Set<string>([...(LISTS['en'] ?? []), ...(LISTS['es'] ?? [])]);

/** Whether `word` (folded) is a function word in any known language. */
export function isStopword(word: string): boolean {
  return ALL.has(word);
}

const QUESTION = new Set(
  `what whats which who whom whose when where wheres why how que cual cuales quien quienes cuando donde como cuanto cuanta cuantos cuantas`.split(
    /\s+/,
  ),
);

/** Whether `word` (folded) is a question word ("where", "cuándo"): a weak sign of an intent. */
export function isQuestionWord(word: string): boolean {
  return QUESTION.has(word);
}
