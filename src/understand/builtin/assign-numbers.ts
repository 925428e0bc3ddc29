/**
 * Which number goes to which numeric slot. A number followed by a word that names a slot
 * (its name, a word of its description, or a unit that says what it measures: "4 kg" →
 * a slot about weight) goes to that slot; the others go to the remaining slots in their
 * order. "un"/"una" count as one only before a word naming the slot ("una pizza" for a
 * slot described "How many pizzas"). An `integer` slot never takes a fraction.
 *
 * An amount of time ("for 5 days", "una semana") goes only to a slot about its unit (its
 * name or description says "days", "días", "nights"…); a week also fills a slot about days
 * or nights (7 each) and an hour one about minutes (60) when no slot is about its own unit.
 */
import type { SlotSpec, SlotValue } from '../types.js';
import { fold, tokenize } from '../text/fold.js';
import type { NumberMatch } from '../text/numbers.js';
import type { DurationMatch, TimeUnit } from './entities/durations.js';
import { stem } from './features.js';
import { meaningOf } from '../text/lexicon.js';
import { rootOf } from '../text/roots.js';
import { isStopword } from '../text/stopwords.js';

const PEOPLE = [
  'people',
  'guest',
  'person',
  'persona',
  'party',
  'group',
  'pax',
  'adult',
  'comensal',
  'diner',
  'seat',
  'size',
];
const MINUTES = ['minute', 'minuto', 'min', 'late', 'delay', 'wait', 'retraso', 'duration'];
const NIGHTS = ['night', 'noche', 'noch', 'stay', 'estancia'];
const WEIGHT = ['weight', 'peso', 'kg', 'kilo'];

/** Per unit of time: the words (stemmed) a slot about it would use. */
const TIME_WORDS: Readonly<Record<TimeUnit, readonly string[]>> = {
  minute: MINUTES,
  hour: ['hour', 'hora', 'hr'],
  day: ['day', 'dia', 'daily', 'diario', 'jornada'],
  night: NIGHTS,
  week: ['week', 'semana', 'weekly', 'semanal'],
  month: ['month', 'mes', 'monthly', 'mensual'],
  year: ['year', 'ano', 'age', 'edad', 'old', 'yr'],
};

/** A unit also read as so many of a smaller one, when no slot is about the unit itself. */
const IN_OTHER_UNITS: Readonly<
  Partial<Record<TimeUnit, readonly (readonly [TimeUnit, number])[]>>
> = {
  week: [
    ['day', 7],
    ['night', 7],
  ],
  hour: [['minute', 60]],
};

/** Units and the words a slot about them would use. */
const UNITS: Record<string, readonly string[]> = {
  kg: WEIGHT,
  kgs: WEIGHT,
  kilo: WEIGHT,
  kilogram: WEIGHT,
  kilogramo: WEIGHT,
  g: ['weight', 'peso', 'gram'],
  gram: ['weight', 'peso', 'gram'],
  gramo: ['weight', 'peso', 'gram'],
  lb: ['weight', 'peso', 'lb', 'pound'],
  km: ['distance', 'distancia', 'km'],
  mile: ['distance', 'distancia', 'mile'],
  people: PEOPLE,
  persona: PEOPLE,
  person: PEOPLE,
  guest: PEOPLE,
  adult: PEOPLE,
  pax: PEOPLE,
  comensal: PEOPLE,
  us: PEOPLE,
  minute: MINUTES,
  min: MINUTES,
  minuto: MINUTES,
  night: NIGHTS,
  noche: NIGHTS,
};

/** A word's meaning in the lexicon, in either language ("paquete" and "parcel": parcel). */
function meaningOfWord(word: string): string | undefined {
  return meaningOf(rootOf(word, ''));
}

const slotWordCache = new WeakMap<SlotSpec, Set<string>>();

/** A slot's words (name and description, stemmed) and their meanings, once per slot. */
function slotWords(slot: SlotSpec): Set<string> {
  const known = slotWordCache.get(slot);
  if (known !== undefined) return known;
  const words = tokenize(fold(`${slot.name.replace(/[_-]/g, ' ')} ${slot.description ?? ''}`));
  const out = new Set(words.map((t) => stem(t.word)));
  // The meanings of its nouns too, so "un paquete" names a slot described "How many parcels".
  for (const t of words) {
    const meaning = t.word.length > 3 && !isStopword(t.word) ? meaningOfWord(t.word) : undefined;
    if (meaning !== undefined) out.add(`k:${meaning}`);
  }
  slotWordCache.set(slot, out);
  return out;
}

/**
 * Words after which a number is what follows them, not a count of the next word: "for 2
 * to booking 48213" does not count bookings.
 */
const POINTING = new Set(['to', 'from', 'on', 'at', 'into', 'a', 'al', 'para', 'desde', 'en']);

/** Words that make a number a reference (order, booking, ref, nº, pedido, reserva…), stemmed. */
const REFERENCE = new Set(
  `number num no n ref reference id code order booking reservation confirmation ticket
  pedido reserva numero localizador codigo`
    .split(/\s+/)
    .map(stem),
);

/** Words that only say "number" ("order no. 301442", "pedido nº 5512"), stemmed. */
const NUMBER_MARK = new Set(['number', 'num', 'no', 'n', 'numero', 'nº'].map(stem));

/** A reference number is this long at least ("order 559870", not "2 chairs"). */
const REFERENCE_MIN = 1000;

function isReferenceSlot(words: Set<string>): boolean {
  return [...words].some((w) => REFERENCE.has(w));
}

function namesSlot(folded: string, n: NumberMatch, words: Set<string>): boolean {
  const next = tokenize(folded.slice(n.end, n.end + 24)).slice(0, 2);
  if (POINTING.has(next[0]?.word ?? '')) return false;
  return next.some((t) => {
    const w = stem(t.word);
    if (words.has(w) || (UNITS[w] ?? []).some((u) => words.has(u))) return true;
    const meaning = t.word.length > 3 ? meaningOfWord(t.word) : undefined;
    return meaning !== undefined && words.has(`k:${meaning}`);
  });
}

/**
 * Whether the words right before `n` name the slot ("booking 48213", "order no. 559870",
 * "reserva nº 47321"): the slot's own words, or a reference word for a reference slot.
 */
function namedBefore(folded: string, n: NumberMatch, words: Set<string>): boolean {
  const before = tokenize(folded.slice(Math.max(0, n.start - 32), n.start))
    .slice(-2)
    .map((t) => stem(t.word));
  const reference = isReferenceSlot(words);
  return before.some(
    (w, i) =>
      (i === before.length - 1 || NUMBER_MARK.has(before[before.length - 1] ?? '')) &&
      (words.has(w) || (reference && REFERENCE.has(w) && !NUMBER_MARK.has(w))),
  );
}

/** Numbers given to `slots`, by slot name. */
export function assignNumbers(
  folded: string,
  numbers: readonly NumberMatch[],
  slots: readonly SlotSpec[],
  textOf: (n: NumberMatch) => string,
): Record<string, SlotValue> {
  const out: Record<string, SlotValue> = {};
  const used = new Set<NumberMatch>();
  const fits = (slot: SlotSpec, n: NumberMatch): boolean =>
    slot.kind !== 'integer' || Number.isInteger(n.value);
  const words = new Map(slots.map((s) => [s, slotWords(s)] as const));
  // First: long numbers right after words naming a slot ("booking 48213"), then numbers
  // whose next words name one ("2 nights").
  for (const slot of slots) {
    const n = numbers.find(
      (m) =>
        !used.has(m) &&
        fits(slot, m) &&
        m.value >= REFERENCE_MIN &&
        namedBefore(folded, m, words.get(slot) ?? new Set()),
    );
    if (n === undefined) continue;
    out[slot.name] = { value: n.value, text: textOf(n) };
    used.add(n);
  }
  for (const slot of slots) {
    if (out[slot.name] !== undefined) continue;
    const n = numbers.find(
      (m) => !used.has(m) && fits(slot, m) && namesSlot(folded, m, words.get(slot) ?? new Set()),
    );
    if (n === undefined) continue;
    out[slot.name] = { value: n.value, text: textOf(n) };
    used.add(n);
  }
  // A reference slot left takes a long number left ("cancel one of them (44120)").
  for (const slot of slots) {
    if (out[slot.name] !== undefined || !isReferenceSlot(words.get(slot) ?? new Set())) continue;
    const n = numbers.find((m) => !used.has(m) && fits(slot, m) && m.value >= REFERENCE_MIN);
    if (n === undefined) continue;
    out[slot.name] = { value: n.value, text: textOf(n) };
    used.add(n);
  }
  // Then the strong numbers left, in order, to the slots left, in order. A number that
  // names another kind of thing (a unit no slot is about) is left alone.
  for (const slot of slots) {
    if (out[slot.name] !== undefined) continue;
    const n = numbers.find(
      (m) => !used.has(m) && !m.weak && fits(slot, m) && !namesOtherUnit(folded, m),
    );
    if (n === undefined) continue;
    out[slot.name] = { value: n.value, text: textOf(n) };
    used.add(n);
  }
  return out;
}

/** Amounts of time given to the `slots` about their unit, by slot name. */
export function assignDurations(
  durations: readonly DurationMatch[],
  slots: readonly SlotSpec[],
  textOf: (d: DurationMatch) => string,
): Record<string, SlotValue> {
  const out: Record<string, SlotValue> = {};
  const words = new Map(slots.map((s) => [s, slotWords(s)] as const));
  const about = (unit: TimeUnit, value: number): SlotSpec | undefined =>
    slots.find(
      (s) =>
        out[s.name] === undefined &&
        (s.kind !== 'integer' || Number.isInteger(value)) &&
        TIME_WORDS[unit].some((w) => words.get(s)?.has(w) === true),
    );
  for (const d of durations) {
    const own = about(d.unit, d.value);
    if (own !== undefined) {
      out[own.name] = { value: d.value, text: textOf(d) };
      continue;
    }
    for (const [unit, times] of IN_OTHER_UNITS[d.unit] ?? []) {
      const other = about(unit, d.value * times);
      if (other === undefined) continue;
      out[other.name] = { value: d.value * times, text: textOf(d) };
      break;
    }
  }
  return out;
}

function namesOtherUnit(folded: string, n: NumberMatch): boolean {
  const next = tokenize(folded.slice(n.end, n.end + 12))[0];
  return next !== undefined && UNITS[stem(next.word)] !== undefined;
}
