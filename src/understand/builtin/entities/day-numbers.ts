/**
 * What chrono-node leaves out of a date, read around its matches in folded text: the
 * start of a Spanish range ("del 24 al 26 de diciembre" starts on the 24th), a day
 * number after a weekday ("el sábado 5", "Friday the 12th"), a day number alone ("on the
 * 12th", "el día 3": the next such day), and a date the message turns down ("instead of
 * the 14th", "I won't be in on Tuesday, Wednesday works better").
 */

/** "del 24 al " / "desde el 24 hasta el " right before a date: its range starts on the 24th. */
const RANGE_BEFORE = /\b(?:del?|desde el)\s+(\d{1,2})\s+(?:al|hasta el)\s+$/;

/** A day number right after a weekday: " 5", " the 12th", " 5th" (not "5pm", "5:30", "5 de la tarde"). */
const DAY_AFTER =
  /^,?\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?(?![\d:.]|\s*(?:am|pm|h\b|hs\b|de la|por la|o'?clock))\b/;

/** A day number alone: "the 12th", "el dia 3", "el 3 por la manana" is left to chrono. */
const DAY_ALONE = /\b(?:the\s+(\d{1,2})(?:st|nd|rd|th)\b|el dia\s+(\d{1,2})\b)/g;

/** Words that turn down the date after them within a clause (folded). */
const TURNED_DOWN =
  /(?:\binstead of|\brather than|\bnot|n't|\bno|\ben vez del?|\ben lugar del?)\s+(?:[\p{L}']+\s+){0,4}$/u;

/** A clause ends at these. */
const CLAUSE_END = /[.,;!?¿¡]|\b(?:but|pero)\b/g;

/** The start of a range whose end chrono read (`start` is where its match begins), if any. */
export function rangeStart(
  folded: string,
  start: number,
): { readonly start: number; readonly day: number } | undefined {
  const m = RANGE_BEFORE.exec(folded.slice(Math.max(0, start - 32), start));
  if (m === null) return undefined;
  const day = Number(m[1]);
  if (day < 1 || day > 31) return undefined;
  return { start: start - m[0].length, day };
}

/**
 * The next day numbered `day` on or after `from` (midnight), on `weekday` (0 Sunday) when
 * one is within a year: "el sábado 5" said on Saturday 28 November is 5 December.
 */
export function nextDayNumbered(day: number, from: Date, weekday?: number): Date | undefined {
  let first: Date | undefined;
  for (let months = 0; months < 12; months++) {
    const d = new Date(from.getFullYear(), from.getMonth() + months, day);
    if (d.getDate() !== day || d < from) continue;
    first ??= d;
    if (weekday === undefined || d.getDay() === weekday) return d;
  }
  return first;
}

/** The day number right after a weekday (`after` is the folded text after it), if any. */
export function dayAfterWeekday(
  after: string,
): { readonly day: number; readonly length: number } | undefined {
  const m = DAY_AFTER.exec(after);
  if (m === null) return undefined;
  const day = Number(m[1]);
  return day >= 1 && day <= 31 ? { day, length: m[0].length } : undefined;
}

/** Day numbers alone in `folded` ("on the 12th", "el día 3"), with where they are. */
export function daysAlone(folded: string): { day: number; start: number; end: number }[] {
  const out: { day: number; start: number; end: number }[] = [];
  for (const m of folded.matchAll(DAY_ALONE)) {
    const day = Number(m[1] ?? m[2]);
    if (day >= 1 && day <= 31) out.push({ day, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Whether the clause before `start` turns the date there down ("instead of", "not on"). */
export function turnedDown(folded: string, start: number): boolean {
  const before = folded.slice(0, start);
  let clause = 0;
  for (const m of before.matchAll(CLAUSE_END)) clause = m.index + m[0].length;
  return TURNED_DOWN.test(before.slice(clause));
}
