/**
 * Slot filling: every kind's values are found in the text, then given to the slots that
 * take that kind, each stretch of text used once. Order: emails, phone numbers, amounts,
 * dates and times, `oneOf` choices, free-text places, amounts of time, then plain numbers
 * (so the "5" of "to 5 Main St" or of "at 5pm" is never a quantity, and the "5" of "for 5
 * days" goes only to a slot about days). A length of time ("for 2 days") is never a date.
 */
import type { SlotSpec, SlotValue } from '../types.js';
import { fold, localeRegion } from '../text/fold.js';
import { findNumbers, type NumberMatch } from '../text/numbers.js';
import { findAmounts } from './entities/amount.js';
import { findChoices } from './entities/choices.js';
import { findDates, type DateMatch } from './entities/dates.js';
import { findDurations } from './entities/durations.js';
import { findEmails } from './entities/email.js';
import { findPhones } from './entities/phone.js';
import { Claims, overlaps } from './entities/span.js';
import { findPlaces } from './entities/text-slot.js';
import { assignDurations, assignNumbers } from './assign-numbers.js';

const PHONE_LIKE = /\d[\d\s().-]{4,}\d/;

/** What slot filling needs besides the text and the slots. */
export interface SlotContext {
  readonly language: string;
  readonly locale: string;
  readonly timezone: string;
  readonly now: number;
  /** Country for national phone formats when the locale has no region (ISO 3166 alpha-2). */
  readonly defaultCountry?: string | undefined;
}

/** Slot values by slot name. */
export type SlotValues = Record<string, SlotValue>;

function slotsOf(specs: readonly SlotSpec[], ...kinds: SlotSpec['kind'][]): SlotSpec[] {
  return specs.filter((s) => kinds.includes(s.kind));
}

/**
 * Fills `specs` from `text`; a slot absent from the result was not found.
 * @example
 * extractSlots('2 large to 5 Main St', [{ name: 'quantity', kind: 'integer' }], ctx);
 * // { quantity: { value: 2, text: '2' } }
 */
export function extractSlots(
  text: string,
  specs: readonly SlotSpec[],
  ctx: SlotContext,
): SlotValues {
  const out: SlotValues = {};
  if (specs.length === 0) return out;
  const folded = fold(text);
  const claims = new Claims();
  const give = <T extends { start: number; end: number }>(
    slots: readonly SlotSpec[],
    found: readonly T[],
    value: (f: T, slot: SlotSpec) => SlotValue | undefined,
  ): void => {
    let i = 0;
    for (const slot of slots) {
      while (i < found.length && claims.taken(found[i] as T)) i += 1;
      const f = found[i];
      if (f === undefined) return;
      const v = value(f, slot);
      if (v === undefined) continue;
      out[slot.name] = v;
      claims.claim(f);
      i += 1;
    }
  };
  const at = (s: { start: number; end: number }): string => text.slice(s.start, s.end);

  const emails = findEmails(text);
  give(slotsOf(specs, 'email'), emails, (e) => ({ value: e.value, text: at(e) }));
  emails.forEach((e) => claims.claim(e));

  const country = localeRegion(ctx.locale) ?? ctx.defaultCountry;
  // libphonenumber is the costliest reader: only when the text has a run of digits.
  const phones = PHONE_LIKE.test(text)
    ? findPhones(text, country, ctx.language).filter((p) => !claims.taken(p))
    : [];
  give(slotsOf(specs, 'phone'), phones, (p) => ({ value: p.value, text: at(p) }));
  phones.forEach((p) => claims.claim(p));

  const amounts = findAmounts(folded, ctx.language).filter((a) => !claims.taken(a));
  give(slotsOf(specs, 'amount'), amounts, (a) => ({
    value: a.value,
    unit: a.currency,
    text: at(a),
  }));

  // "for 2 days" is a length of time, not the day two days ahead (chrono reads it so);
  // "in 2 days" is both, and a date slot may take it.
  const durations = findDurations(folded, findNumbers(folded, ctx.language)).filter(
    (d) => !claims.taken(d),
  );
  const lengths = durations.filter((d) => !d.relative);
  const dates = findDates(text, folded, ctx.language, ctx.timezone, ctx.now).filter(
    (d) => !claims.taken(d) && !lengths.some((l) => overlaps(l, d)),
  );
  const taken = new Set<DateMatch>();
  for (const slot of slotsOf(specs, 'date', 'time', 'datetime')) {
    const fits = (m: DateMatch): boolean =>
      slot.kind === 'time' ? m.time !== undefined : m.date !== undefined;
    // A date the message turns down ("instead of the 14th") only when it gives no other.
    const d = dates.find((m) => fits(m) && m.turnedDown !== true) ?? dates.find(fits);
    if (d === undefined) continue;
    const value =
      slot.kind === 'date'
        ? d.date
        : slot.kind === 'time'
          ? d.time
          : `${d.date ?? ''}T${d.time ?? '00:00'}`;
    if (value === undefined) continue;
    out[slot.name] = { value, text: d.text };
    taken.add(d);
  }
  // A date or time is never a quantity, even when no slot took it; an amount of time no
  // date slot took ("in 10 mins", "for 5 days") is read below as a number of its unit.
  dates
    .filter((d) => taken.has(d) || !durations.some((x) => overlaps(x, d)))
    .forEach((d) => claims.claim(d));

  for (const slot of slotsOf(specs, 'oneOf')) {
    const found = findChoices(folded, slot.choices ?? []).filter((c) => !claims.taken(c));
    const first = found[0];
    if (first === undefined) continue;
    out[slot.name] = { value: first.value, text: at(first) };
    found.forEach((c) => claims.claim(c));
  }

  // An amount of time is never a place's words ("in Leeds for two days") nor a count of
  // anything else ("2 cars for 5 days").
  const times = durations.filter((d) => !claims.taken(d));
  times.forEach((d) => claims.claim(d));

  const places = findPlaces(text, claims, ctx.language);
  give(slotsOf(specs, 'text'), places, (p) => ({ value: p.value, text: p.value }));

  const numeric = (): SlotSpec[] =>
    slotsOf(specs, 'number', 'integer', 'amount').filter((s) => out[s.name] === undefined);
  Object.assign(out, assignDurations(times, numeric(), at));

  const numbers = findNumbers(folded, ctx.language).filter((n: NumberMatch) => !claims.taken(n));
  Object.assign(
    out,
    assignNumbers(folded, numbers, numeric(), (n) => at(n)),
  );
  return out;
}
