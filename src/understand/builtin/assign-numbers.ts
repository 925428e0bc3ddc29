/**
 * Which number goes to which numeric slot. A number followed by a word that names a slot
 * (its name, a word of its description, or a unit that says what it measures: "4 kg" →
 * a slot about weight) goes to that slot; the others go to the remaining slots in their
 * order. "un"/"una" count as one only before a word naming the slot ("una pizza" for a
 * slot described "How many pizzas"). An `integer` slot never takes a fraction.
 */
import type { SlotSpec, SlotValue } from '../types.js';
import { fold, tokenize } from '../text/fold.js';
import type { NumberMatch } from '../text/numbers.js';
import { stem } from './features.js';

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
const NIGHTS = ['night', 'noche', 'stay', 'estancia'];
const WEIGHT = ['weight', 'peso', 'kg', 'kilo'];

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

function slotWords(slot: SlotSpec): Set<string> {
  const words = `${slot.name.replace(/[_-]/g, ' ')} ${slot.description ?? ''}`;
  return new Set(tokenize(fold(words)).map((t) => stem(t.word)));
}

function namesSlot(folded: string, n: NumberMatch, words: Set<string>): boolean {
  const next = tokenize(folded.slice(n.end, n.end + 24)).slice(0, 2);
  return next.some((t) => {
    const w = stem(t.word);
    return words.has(w) || (UNITS[w] ?? []).some((u) => words.has(u));
  });
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
  // First: numbers whose next words name a slot.
  for (const slot of slots) {
    const n = numbers.find(
      (m) => !used.has(m) && fits(slot, m) && namesSlot(folded, m, words.get(slot) ?? new Set()),
    );
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

function namesOtherUnit(folded: string, n: NumberMatch): boolean {
  const next = tokenize(folded.slice(n.end, n.end + 12))[0];
  return next !== undefined && UNITS[stem(next.word)] !== undefined;
}
