/**
 * Requests for a person, read from the words rather than by similarity to phrases: a word
 * for a person (agent, human, someone, reception, customer service, humano, alguien,
 * recepción…) as the object of asking for one (talk to, speak with, connect me with, put
 * me through to, get me, ponme con, hablar con, quiero un agente), a message that is only
 * such a word and courtesy ("Agent please."), or "not a bot / no con una máquina".
 * The handoff phrases (handoff-phrases.ts) miss the many ways of combining a verb and a
 * person ("put me through to the front desk"); a person that is the subject of another
 * verb ("can someone fit the wardrobe doors") is not a request for one.
 */
import { distance } from 'fastest-levenshtein';
import { fold, tokenize } from '../text/fold.js';
import { isSwap } from './features.js';

/** Words for a person one asks to talk to (folded). */
const PERSON = new Set(
  `agent agents human humans person representative rep operator staff reception receptionist
  manager advisor adviser secretary
  humano humana persona agente operador operadora recepcion recepcionista asesor asesora
  encargado encargada empleado empleada gerente`.split(/\s+/),
);

/** Words for anybody: a request only after talking ("talk to someone"), or alone after "get me". */
const ANYBODY = new Set(['someone', 'somebody', 'anyone', 'anybody', 'alguien']);

/** Two-word names of a person to talk to (folded). */
const PERSON_PAIRS = new Set([
  'customer service',
  'customer services',
  'customer support',
  'customer care',
  'front desk',
  'help desk',
  'helpdesk team',
  'al cliente',
  'atencion cliente',
]);

/** Person words a typo of which still names them (5+ letters, so "staff"/"stuff" is not one). */
const TYPO_TOLERANT = [
  'agent',
  'agente',
  'human',
  'humano',
  'person',
  'persona',
  'operator',
  'operador',
  'representative',
  'receptionist',
  'recepcion',
  'asesor',
];

/** Verbs of talking to someone: any person word after them is the one asked for. */
const TALK = new Set(
  `talk speak chat connect transfer through hablar habla hablo pasame pasa pasarme pasadme
  pasas pasais pasan pase pasen ponme poner pon ponerme pones pone poneis ponen ponga pongan
  comunicame comunicar comunicarme atienda atiendan atiende atender atenderme atiendame`.split(
    /\s+/,
  ),
);

/** Verbs of asking for something: a request with a named person ("get me an agent"). */
const ASK = new Set(
  `get give want need like there quiero necesito quisiera busco hay`.split(/\s+/),
);

/** Words that may stand between a verb and the person it asks for. */
const BETWEEN = new Set(
  `me us to with through a an the some your real actual live proper member of please
  con un una el la al los las de verdad real`.split(/\s+/),
);

/** Courtesy and filler that may surround a person word in a message asking only for one. */
const COURTESY = new Set(
  `please pls plz now asap a an the real live i want need just ok okay hi hello
  por favor ya un una el la al quiero necesito hola`.split(/\s+/),
);

/** A machine, in "not a bot" / "no con una máquina". */
const MACHINE = new Set(['bot', 'robot', 'machine', 'maquina', 'chatbot', 'ai']);
const NOT = new Set(['not', 'no']);

/** Whether `word` is `name` or one typo from it, not another word made from it ("personal"). */
function typoOf(word: string, name: string): boolean {
  if (word === name) return true;
  if (word.length < 5 || Math.abs(word.length - name.length) > 1 || word[0] !== name[0])
    return false;
  if (word.length > name.length && word.startsWith(name)) return false;
  return isSwap(word, name) || distance(word, name) <= 1;
}

/** How many words from `i` name a person one asks for (0 when none). */
function personAt(words: readonly string[], i: number, anybody: boolean): number {
  const word = words[i] ?? '';
  if (PERSON_PAIRS.has(`${word} ${words[i + 1] ?? ''}`)) return 2;
  if (word === 'atencion' && words[i + 1] === 'al' && words[i + 2] === 'cliente') return 3;
  if (PERSON.has(word) || TYPO_TOLERANT.some((name) => typoOf(word, name))) return 1;
  return anybody && ANYBODY.has(word) ? 1 : 0;
}

/**
 * Whether a person word follows the verb at `i`, with only {@link BETWEEN} words in
 * between. After talking anybody counts ("talk to someone"); after asking only at the
 * clause's end, right after "me" ("get me someone", not "I need someone to fit it").
 */
function asksAfter(words: readonly string[], i: number, talking: boolean): boolean {
  for (let j = i + 1; j < words.length && j <= i + 5; j++) {
    const n = personAt(words, j, true);
    if (n > 0) {
      if (talking || !ANYBODY.has(words[j] ?? '')) return true;
      return words[i + 1] === 'me' && j + n === words.length;
    }
    if (!BETWEEN.has(words[j] ?? '')) return false;
  }
  return false;
}

/** Whether one clause (folded words) asks for a person. */
function clauseAsks(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (TALK.has(word) && asksAfter(words, i, true)) return true;
    if (ASK.has(word) && asksAfter(words, i, false)) return true;
    if (NOT.has(word) && words.slice(i + 1, i + 4).some((w) => MACHINE.has(w))) return true;
  }
  // Only a person and courtesy: "Agent please.", "un agente por favor", "customer service".
  let person = false;
  for (let i = 0; i < words.length;) {
    const n = personAt(words, i, false);
    if (n > 0) {
      person = true;
      i += n;
    } else if (COURTESY.has(words[i] ?? '')) i += 1;
    else return false;
  }
  return person;
}

/**
 * Whether `text` asks to talk to a person (English or Spanish, typos in the person word
 * tolerated): see the file comment.
 * @example
 * asksForPerson('put me through to the front desk'); // true
 * asksForPerson('This isn't helping. Agent please.'); // true
 * asksForPerson('can someone fit the wardrobe doors'); // false
 */
export function asksForPerson(text: string): boolean {
  return fold(text)
    .split(/[.!?¿¡,;:]+/)
    .some((clause) => {
      const words = tokenize(clause).map((t) => t.word.replace(/['’]/g, ''));
      return words.length > 0 && clauseAsks(words);
    });
}

/** "call me", "ring us back", "phone me at…" (not "call me a taxi"). */
const CALL_ME_EN = /\b(?:call|ring|phone)\s+(?:me|us)\b(?!\s+(?:a|an)\b)/;
/** "llamadme", "llámame", "me podéis llamar", "que me llamen", "llamarme". */
const CALL_ME_ES =
  /\bllam(?:adme|ame|eme|enme|arme|arnos|adnos)\b|\bme\s+(?:\S+\s+)?llam(?:ar|ais|an|en|e|as|eis)\b/;

/**
 * Whether `text` asks to be called back ("call me please", "ring me on 07700…", "me podéis
 * llamar al 612…"): a person is asked for, though the message may be about something else.
 * @example
 * asksForCallback('call me please, I would rather explain on the phone'); // true
 * asksForCallback('call me a taxi'); // false
 */
export function asksForCallback(text: string): boolean {
  const folded = fold(text);
  return CALL_ME_EN.test(folded) || CALL_ME_ES.test(folded);
}
