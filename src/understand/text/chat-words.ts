/**
 * Chat spellings to the words they stand for, so that function words stay function words
 * and content words meet their examples: English contractions ("what's" → what, "don't"
 * → do not) and common chat abbreviations in English and Spanish ("pls", "u", "xq",
 * "tb"). Input and output are folded words.
 */

const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  // English
  u: ['you'],
  ur: ['your'],
  r: ['are'],
  pls: ['please'],
  plz: ['please'],
  plse: ['please'],
  thx: ['thanks'],
  thnx: ['thanks'],
  ty: ['thanks'],
  wanna: ['want', 'to'],
  gonna: ['going', 'to'],
  gotta: ['got', 'to'],
  dunno: ['do', 'not', 'know'],
  cuz: ['because'],
  coz: ['because'],
  cos: ['because'],
  msg: ['message'],
  appt: ['appointment'],
  acct: ['account'],
  addr: ['address'],
  pwd: ['password'],
  hrs: ['hours'],
  hr: ['hour'],
  mins: ['minutes'],
  tmrw: ['tomorrow'],
  tmr: ['tomorrow'],
  tmw: ['tomorrow'],
  // Spanish
  q: ['que'],
  k: ['que'],
  ke: ['que'],
  xq: ['porque'],
  pq: ['porque'],
  porq: ['porque'],
  xk: ['porque'],
  tb: ['tambien'],
  tmb: ['tambien'],
  tbn: ['tambien'],
  d: ['de'],
  x: ['por'],
  xa: ['para'],
  pa: ['para'],
  porfa: ['por', 'favor'],
  porfis: ['por', 'favor'],
  xfa: ['por', 'favor'],
  pf: ['por', 'favor'],
  msj: ['mensaje'],
  nd: ['nada'],
  grax: ['gracias'],
  toy: ['estoy'],
  mñn: ['manana'],
};

const NOT_FORMS: Readonly<Record<string, readonly string[]>> = {
  "won't": ['will', 'not'],
  "can't": ['can', 'not'],
  "ain't": ['is', 'not'],
  "shan't": ['shall', 'not'],
};

/**
 * The words a folded chat word stands for (itself when nothing applies).
 * @example
 * chatWords("what's"); // ['what']
 * chatWords("didn't"); // ['did', 'not']
 * chatWords('xq'); // ['porque']
 */
export function chatWords(word: string): readonly string[] {
  const abbreviation = ABBREVIATIONS[word];
  if (abbreviation !== undefined) return abbreviation;
  const apostrophe = word.search(/['’]/);
  if (apostrophe <= 0) return [word];
  const plain = word.replace('’', "'");
  const not = NOT_FORMS[plain];
  if (not !== undefined) return not;
  const base = plain.slice(0, apostrophe);
  const tail = plain.slice(apostrophe + 1);
  if (tail === 't' && base.endsWith('n')) return [base.slice(0, -1), 'not'];
  // 's, 'm, 're, 've, 'll, 'd: the pronoun or noun is what matters; o'clock, d'Arcy stay.
  if (['s', 'm', 're', 've', 'll', 'd'].includes(tail)) return [base];
  return [word];
}
