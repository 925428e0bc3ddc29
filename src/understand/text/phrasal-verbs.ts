/**
 * Verbs of several words ("call off", "get rid of", "bring forward", "dar de baja", "pedir
 * hora"): their meaning is not the meaning of their words ("call" is not cancelling, "baja"
 * is not low), so a message that says one meets an example that says the plain verb ("call
 * off our dinner" / "cancel my booking"), and the words themselves stop pointing elsewhere
 * ("call me back", "bring my order"). General English and Spanish, for no bot in particular;
 * examples and messages go through the same rewriting, so an example that says "sign me up"
 * still meets a message that says it. A few fixed phrases are read the same way ("I no
 * longer need" → cancel, "en vez de" → prefiero, the lexicon's word for instead). Input and
 * output are folded words.
 */

interface Phrase {
  /** Forms of the verb. */
  readonly verb: ReadonlySet<string>;
  /** Words after the verb that make the phrase, in this order (`a|b`: either). */
  readonly particle: readonly string[];
  /** How many words may stand between verb and particle ("call it off", "bring my booking forward"). */
  readonly gap: number;
  /** The only words that may stand there, when not any ("take me off", not "take 20% off"). */
  readonly gapWords?: ReadonlySet<string>;
  /** What the phrase says: replaces the verb (or follows it, with `keepVerb`); the particle is dropped. */
  readonly says: readonly string[];
  readonly keepVerb?: boolean;
}

const forms = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/));

const DAR = forms(
  'dar darme darte darle darnos daros darse doy das da damos dais dan dame deme dadme denme dando',
);

/** What may stand inside "call it off", "put the whole thing off" (not "call during off-peak"). */
const OBJECT_WORDS = forms('it this that them everything the my our whole thing');

const PHRASES: readonly Phrase[] = [
  {
    verb: forms('call calls called calling'),
    particle: ['off'],
    gap: 2,
    gapWords: OBJECT_WORDS,
    says: ['cancel'],
  },
  { verb: forms('get gets got getting gotten'), particle: ['rid', 'of'], gap: 0, says: ['cancel'] },
  {
    verb: forms('put puts putting'),
    particle: ['off'],
    gap: 2,
    gapWords: OBJECT_WORDS,
    says: ['postpone'],
  },
  { verb: forms('push pushes pushed pushing'), particle: ['back'], gap: 3, says: ['postpone'] },
  {
    verb: forms('take takes took taking taken'),
    particle: ['off'],
    gap: 1,
    gapWords: forms('me us him her it them'),
    says: ['cancel'],
  },
  { verb: forms('bring brings brought bringing'), particle: ['forward'], gap: 3, says: ['move'] },
  { verb: forms('sign signs signed signing'), particle: ['up'], gap: 1, says: ['enrol'] },
  {
    verb: forms('sign signs signed signing log logs logged logging'),
    particle: ['in'],
    gap: 0,
    says: ['login'],
  },
  { verb: forms('sort sorts sorted sorting'), particle: ['out'], gap: 2, says: ['fix'] },
  { verb: forms('top tops topped topping'), particle: ['up'], gap: 2, says: ['topup'] },
  { verb: forms('pick picks picked picking'), particle: ['up'], gap: 2, says: ['collect'] },
  // "check me in", "check us out": a pronoun may stand between verb and particle.
  {
    verb: forms('check checks checked checking'),
    particle: ['in'],
    gap: 1,
    gapWords: forms('me us him her them'),
    says: ['checkin'],
  },
  {
    verb: forms('check checks checked checking'),
    particle: ['out'],
    gap: 1,
    gapWords: forms('me us him her them'),
    says: ['checkout'],
  },
  // "I no longer need the car", "ya no quiero el paquete": what was asked for is called off.
  {
    verb: forms('no'),
    particle: ['longer', 'need|needs|want|wants|require'],
    gap: 0,
    says: ['cancel'],
  },
  {
    verb: forms('ya'),
    particle: ['no', 'quiero|queremos|necesito|necesitamos|quisiera'],
    gap: 0,
    says: ['cancelar'],
  },
  {
    verb: forms('ya'),
    particle: ['no', 'lo|la|los|las', 'quiero|queremos|necesito|necesitamos|quisiera'],
    gap: 0,
    says: ['cancelar'],
  },
  // "can't find my card", "no encuentro la tarjeta": lost.
  { verb: forms('not cannot'), particle: ['find|locate'], gap: 0, says: ['lost'] },
  {
    verb: forms('no'),
    particle: ['encuentro|encuentra|encontramos|encuentran|encuentras|encontre|encontraba'],
    gap: 0,
    says: ['perdido'],
  },
  // "my money back", "el dinero de vuelta": a refund, not a balance.
  { verb: forms('money'), particle: ['back'], gap: 0, says: ['refund'] },
  { verb: forms('dinero'), particle: ['de', 'vuelta'], gap: 0, says: ['reembolso'] },
  // "how much longer", "¿falta mucho?": still waiting, not a price or something missing.
  { verb: forms('much'), particle: ['longer'], gap: 0, says: ['waiting'] },
  {
    verb: forms('falta faltan queda quedan'),
    particle: ['mucho|poco'],
    gap: 0,
    says: ['esperando'],
  },
  // "¿hace falta el carnet?": is it needed, not missing.
  { verb: forms('hace hacen'), particle: ['falta'], gap: 0, says: ['necesito'] },
  // "any update on my order": news of it, not a change to it.
  { verb: forms('any an'), particle: ['update|updates'], gap: 0, says: ['status'] },
  // "en vez de", "en lugar de": instead of.
  { verb: forms('en'), particle: ['vez|lugar', 'de'], gap: 0, says: ['prefiero'] },
  { verb: DAR, particle: ['de', 'baja'], gap: 0, says: ['cancelar'] },
  { verb: DAR, particle: ['de', 'alta'], gap: 0, says: ['inscribir'] },
  // "dar hora", "pedir hora": an appointment, not an hour ("¿me podéis dar hora?").
  {
    verb: forms('pedir pido pide piden pedimos pedi coger cojo ' + [...DAR].join(' ')),
    particle: ['hora'],
    gap: 0,
    says: ['cita'],
    keepVerb: true,
  },
];

const BY_VERB = new Map<string, Phrase[]>();
for (const phrase of PHRASES) {
  for (const v of phrase.verb) BY_VERB.set(v, [...(BY_VERB.get(v) ?? []), phrase]);
}

/**
 * Per word of `words` (folded), what it stands for once multi-word verbs are read as one:
 * the verb's position holds the phrase's meaning, the particle's holds nothing, every other
 * word itself.
 * @example
 * readPhrases(['call', 'it', 'off']); // [['cancel'], ['it'], []]
 * readPhrases(['dar', 'de', 'baja']); // [['cancelar'], [], []]
 */
export function readPhrases(words: readonly string[]): string[][] {
  const out = words.map((w) => [w]);
  for (let i = 0; i < words.length; i++) {
    for (const phrase of BY_VERB.get(words[i] ?? '') ?? []) {
      const at = particleAt(words, i + 1, phrase);
      if (at === undefined) continue;
      out[i] = phrase.keepVerb === true ? [words[i] ?? '', ...phrase.says] : [...phrase.says];
      for (let k = 0; k < phrase.particle.length; k++) out[at + k] = [];
      break;
    }
  }
  return out;
}

/** Where `phrase`'s particle starts, from `from` on within its gap, or undefined. */
function particleAt(words: readonly string[], from: number, phrase: Phrase): number | undefined {
  for (let at = from; at <= from + phrase.gap; at++) {
    if (phrase.particle.every((p, k) => p.split('|').includes(words[at + k] ?? ''))) return at;
    if (phrase.gapWords !== undefined && !phrase.gapWords.has(words[at] ?? '')) return undefined;
  }
  return undefined;
}
