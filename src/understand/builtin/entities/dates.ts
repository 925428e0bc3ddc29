/**
 * Dates and times in free text through chrono-node's English and Spanish parsers,
 * resolved against "now" as a wall clock in the bot's timezone, and normalised to
 * `YYYY-MM-DD` and `HH:MM` (24 h). A bare weekday means the next one ("el viernes").
 * What chrono leaves out (a Spanish range's start, "el sábado 5", "on the 12th", a date
 * turned down) is read around its matches (day-numbers.ts).
 */
import * as chrono from 'chrono-node';
import {
  dayAfterWeekday,
  daysAlone,
  nextDayNumbered,
  rangeStart,
  turnedDown,
} from './day-numbers.js';
import type { Span } from './span.js';

/** A date and/or time found in the text. */
export interface DateMatch extends Span {
  /** `YYYY-MM-DD`, when the text names a day. */
  readonly date?: string;
  /** `HH:MM`, when the text names an hour. */
  readonly time?: string;
  readonly text: string;
  /** The message turns this date down ("instead of the 14th", "not on Tuesday"). */
  readonly turnedDown?: true;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Wall-clock parts of `now` in `timeZone`, as a Date in the process's local time. */
const formats = new Map<string, Intl.DateTimeFormat>();

let last: { now: number; timeZone: string; wall: number } | undefined;

function wallClock(now: number, timeZone: string): Date {
  if (last !== undefined && last.now === now && last.timeZone === timeZone)
    return new Date(last.wall);
  // Building an Intl.DateTimeFormat costs far more than using one: one per timezone.
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(now));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = new Date(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  last = { now, timeZone, wall: wall.getTime() };
  return wall;
}

function parserFor(language: string): chrono.Chrono[] {
  // Only the contact's language: the other parser reads noise ("a 20 kg box" is "a las
  // 20" in Spanish). A language without a parser gets both.
  if (language === 'es') return [chrono.es.casual];
  if (language === 'en') return [chrono.en.casual];
  return [chrono.en.casual, chrono.es.casual];
}

/** A time with no day must look like one: "at 7", "7pm", "19:30", "a las 7", "tonight". */
const TIME_CUE =
  /\d[:.h]\d|\d\s*(?:am|pm|a\.m|p\.m|h\b|hs\b)|\b(?:at|las|la|noon|midnight|mediodia|medianoche|tonight|morning|evening|afternoon|tarde|noche|manana)\b/;

const PM_AFTER = /^\s*(?:de la|por la) (?:tarde|noche)\b/;
const AM_AFTER = /^\s*(?:de la|por la) manana\b/;
const PASADO_BEFORE = /pasado\s+$/;
/** A digit, or a word of a date or time in English or Spanish (folded), as chrono reads them. */
const DATE_HINT = new RegExp(
  '\\d|\\b(?:' +
    [
      'today|tonight|tomorrow|tmrw|yesterday|now|noon|midnight|morning|afternoon|evening|night',
      'week|weekend|month|year|day|days|hour|hours|minutes?|mins?|ago|later|next|last',
      'mon|monday|tue|tues|tuesday|wed|wednesday|thu|thur|thurs|thursday|fri|friday|sat|saturday|sun|sunday',
      'jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august',
      'sep|sept|september|oct|october|nov|november|dec|december',
      'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|quarter',
      'hoy|manana|ayer|pasado|ahora|mediodia|medianoche|tarde|noche|dia|dias|semana|finde|mes|ano',
      'hora|horas|minutos?|dentro|proximo|proxima|siguiente|lunes|martes|miercoles|jueves|viernes|sabado|domingo',
      'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre',
      'una|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|media|cuarto',
    ].join('|') +
    ')\\b',
);
const NOW_WORDS = /^(?:right\s+)?now$|^ahora(?:\s+mismo)?$/;
const HALF_YEAR_MS = 183 * 24 * 3_600_000;

/**
 * A day and month without a year is the nearest such day: "on 5 December" is ahead,
 * "charged on 15 November" (said on 28 November) is behind, "20 January" (said in
 * November) is next year. chrono's forward dating alone would put every one ahead.
 */
function nearestYear(day: Date, yearless: boolean, reference: Date): Date {
  if (!yearless) return day;
  const behind = new Date(day);
  behind.setFullYear(day.getFullYear() - 1);
  return reference.getTime() - behind.getTime() < HALF_YEAR_MS ? behind : day;
}

/**
 * Every date or time in `text` (`folded` is the same text folded, for the Spanish fixes),
 * in order.
 * @example
 * findDates('tomorrow at 5pm', 'tomorrow at 5pm', 'en', 'UTC', Date.parse('2026-03-04T10:00:00Z'));
 * // [{ date: '2026-03-05', time: '17:00', … }]
 */
export function findDates(
  text: string,
  folded: string,
  language: string,
  timeZone: string,
  now: number,
): DateMatch[] {
  // Intent scoring and slot filling both read the dates of one message: parse it once.
  // chrono is the costliest reader: a text with no digit and no word a date or time is
  // made of has none ("hello", "where is my parcel").
  if (!DATE_HINT.test(folded)) return [];
  const key = `${language}\u0000${timeZone}\u0000${now}\u0000${text}`;
  if (memo?.key === key) return memo.found;
  const found = parseDates(text, folded, language, timeZone, now);
  memo = { key, found };
  return found;
}

let memo: { key: string; found: DateMatch[] } | undefined;

/** The start of the day `d` is in. */
function midnight(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

function parseDates(
  text: string,
  folded: string,
  language: string,
  timeZone: string,
  now: number,
): DateMatch[] {
  const reference = wallClock(now, timeZone);
  for (const parser of parserFor(language)) {
    const results = parser.parse(text, reference, { forwardDate: true });
    const out: DateMatch[] = [];
    for (const r of results) {
      const s = r.start;
      const hasDay = s.isCertain('day') || s.isCertain('weekday');
      const hasTime = s.isCertain('hour');
      if (!hasDay && !hasTime) continue; // "tarde" alone, "noche": a part of day, not a date
      // "now", "ahora": the moment of writing, not a date or time the customer gives.
      if (NOW_WORDS.test(folded.slice(r.index, r.index + r.text.length))) continue;
      if (!hasDay && !TIME_CUE.test(folded.slice(r.index, r.index + r.text.length))) continue;
      let start = r.index;
      let end = r.index + r.text.length;
      let day = nearestYear(
        new Date(s.get('year') ?? 0, (s.get('month') ?? 1) - 1, s.get('day') ?? 1),
        s.isCertain('day') && s.isCertain('month') && !s.isCertain('year'),
        reference,
      );
      const numbered = s.isCertain('day') ? undefined : dayAfterWeekday(folded.slice(end));
      if (numbered !== undefined && !hasTime) {
        // "el sábado 5": chrono reads the weekday alone.
        day =
          nextDayNumbered(numbered.day, midnight(reference), s.get('weekday') ?? undefined) ?? day;
        end += numbered.length;
      }
      const range = s.isCertain('day') ? rangeStart(folded, start) : undefined;
      if (range !== undefined) {
        // "del 24 al 26 de diciembre": chrono reads the end alone.
        const first = new Date(day.getFullYear(), day.getMonth(), range.day);
        if (range.day > day.getDate()) first.setMonth(first.getMonth() - 1);
        day = first;
        start = range.start;
      }
      if (PASADO_BEFORE.test(folded.slice(0, start)) && /^manana/.test(folded.slice(start))) {
        // chrono reads "pasado mañana" (the day after tomorrow) as "mañana".
        day.setDate(day.getDate() + 1);
        start = folded.slice(0, start).search(PASADO_BEFORE);
      }
      let hour = s.get('hour') ?? 0;
      const after = folded.slice(end);
      const pm = PM_AFTER.exec(after);
      const am = AM_AFTER.exec(after);
      if (hasTime && pm !== null) {
        if (hour < 12) hour += 12;
        end += pm[0].length;
      } else if (hasTime && am !== null) end += am[0].length;
      out.push({
        start,
        end,
        text: text.slice(start, end),
        ...(hasDay
          ? { date: `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}` }
          : {}),
        ...(hasTime ? { time: `${pad(hour)}:${pad(s.get('minute') ?? 0)}` } : {}),
        ...(turnedDown(folded, start) ? { turnedDown: true as const } : {}),
      });
    }
    // "on the 12th", "el día 3": the next such day.
    for (const alone of daysAlone(folded)) {
      if (out.some((d) => d.start < alone.end && alone.start < d.end)) continue;
      const day = nextDayNumbered(alone.day, midnight(reference));
      if (day === undefined) continue;
      out.push({
        start: alone.start,
        end: alone.end,
        text: text.slice(alone.start, alone.end),
        date: `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`,
        ...(turnedDown(folded, alone.start) ? { turnedDown: true as const } : {}),
      });
    }
    out.sort((a, b) => a.start - b.start);
    if (out.length > 0) return out;
  }
  return [];
}
