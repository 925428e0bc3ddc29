/**
 * Amounts of time: a number and a unit of time ("for 5 days", "2 weeks", "una semana",
 * "3 noches", "half an hour", "media hora", "a fortnight"). A length of time is never a
 * date; "in 3 days" / "dentro de 3 días" also names the day it ends on, so a date slot may
 * take it. Its number goes to a numeric slot about its unit (see assign-numbers.ts).
 */
import { tokenize, type Token } from '../../text/fold.js';
import type { NumberMatch } from '../../text/numbers.js';
import type { Span } from './span.js';

/** Units of time a duration is counted in. */
export type TimeUnit = 'minute' | 'hour' | 'day' | 'night' | 'week' | 'month' | 'year';

/** An amount of time found in the text. */
export interface DurationMatch extends Span {
  /** How many `unit`s ("a fortnight" is 2 weeks, "half an hour" 30 minutes). */
  readonly value: number;
  readonly unit: TimeUnit;
  /** Counted from now ("in 3 days", "dentro de una semana"): it also names a day or time. */
  readonly relative: boolean;
}

/** Folded unit words, English and Spanish, singular and plural → unit and how many. */
const UNIT_WORDS: Readonly<Record<string, readonly [TimeUnit, number]>> = {
  min: ['minute', 1],
  mins: ['minute', 1],
  minute: ['minute', 1],
  minutes: ['minute', 1],
  minuto: ['minute', 1],
  minutos: ['minute', 1],
  hr: ['hour', 1],
  hrs: ['hour', 1],
  hour: ['hour', 1],
  hours: ['hour', 1],
  hora: ['hour', 1],
  horas: ['hour', 1],
  day: ['day', 1],
  days: ['day', 1],
  dia: ['day', 1],
  dias: ['day', 1],
  jornada: ['day', 1],
  jornadas: ['day', 1],
  night: ['night', 1],
  nights: ['night', 1],
  noche: ['night', 1],
  noches: ['night', 1],
  week: ['week', 1],
  weeks: ['week', 1],
  wk: ['week', 1],
  wks: ['week', 1],
  semana: ['week', 1],
  semanas: ['week', 1],
  fortnight: ['week', 2],
  fortnights: ['week', 2],
  quincena: ['day', 15],
  quincenas: ['day', 15],
  month: ['month', 1],
  months: ['month', 1],
  mes: ['month', 1],
  meses: ['month', 1],
  year: ['year', 1],
  years: ['year', 1],
  yr: ['year', 1],
  yrs: ['year', 1],
  ano: ['year', 1],
  anos: ['year', 1],
};

/** Words that stand for one before a unit ("a week", "an hour"); "un"/"una" are numbers. */
const ONE = new Set(['a', 'an', 'one', 'un', 'una', 'uno']);
/** Words between a number and its unit: "a couple of days", "2 more days", "3 full days". */
const BETWEEN = new Set(['of', 'de', 'more', 'extra', 'full', 'whole', 'mas', 'enteros']);
/** Words before an amount that count it from now: "in 2 days", "dentro de 2 días". */
const FROM_NOW = /(?:\bin|\bwithin|\ben|\bdentro\s+de)\s+$/;

/**
 * Every amount of time in `folded` (already folded), given the numbers found in it.
 * @example
 * findDurations('for 5 days', findNumbers('for 5 days')); // [{ value: 5, unit: 'day', … }]
 */
export function findDurations(folded: string, numbers: readonly NumberMatch[]): DurationMatch[] {
  const tokens = tokenize(folded);
  const out: DurationMatch[] = [];
  const at = (start: number): number => tokens.findIndex((t) => t.start >= start);
  const push = (start: number, unitAt: number, value: number): void => {
    const unit = UNIT_WORDS[(tokens[unitAt] as Token).word];
    if (unit === undefined) return;
    const end = (tokens[unitAt] as Token).end;
    if (out.some((d) => d.start < end && start < d.end)) return;
    out.push({
      start,
      end,
      value: value * unit[1],
      unit: unit[0],
      relative: FROM_NOW.test(folded.slice(Math.max(0, start - 16), start)),
    });
  };
  const unitAfter = (i: number): number | undefined => {
    let k = i;
    while (k < tokens.length && k < i + 2 && BETWEEN.has((tokens[k] as Token).word)) k += 1;
    return tokens[k] !== undefined && UNIT_WORDS[(tokens[k] as Token).word] !== undefined
      ? k
      : undefined;
  };
  for (const n of numbers) {
    const i = at(n.end);
    const u = i < 0 ? undefined : unitAfter(i);
    if (u !== undefined) push(n.start, u, n.value);
  }
  tokens.forEach((t, i) => {
    const next = tokens[i + 1]?.word;
    // "half an hour", "media hora"; "a week", "an hour", "one night" (digits are numbers).
    if ((t.word === 'half' && next === 'an') || (t.word === 'half' && next === 'a')) {
      if (tokens[i + 2]?.word === 'hour') push(t.start, i + 2, 0.5);
    } else if (t.word === 'media' && next === 'hora') push(t.start, i + 1, 0.5);
    else if (ONE.has(t.word) && next !== undefined && UNIT_WORDS[next] !== undefined) {
      push(t.start, i + 1, 1);
    } else if (UNIT_WORDS[t.word]?.[1] === 2 && (i === 0 || !ONE.has(tokens[i - 1]?.word ?? ''))) {
      push(t.start, i, 1); // "fortnight" alone
    }
  });
  return out
    .map((d) =>
      d.unit === 'hour' && d.value % 1 !== 0
        ? { ...d, unit: 'minute' as const, value: d.value * 60 }
        : d,
    )
    .sort((a, b) => a.start - b.start);
}
