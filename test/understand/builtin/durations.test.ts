import { describe, expect, it } from 'vitest';
import { extractSlots } from '../../../src/understand/builtin/extract-slots.js';
import { createBuiltinUnderstander } from '../../../src/understand/builtin/index.js';
import type { IntentSpec, SlotSpec } from '../../../src/understand/types.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const ctx = (language: string) => ({ language, locale: language, timezone: 'UTC', now: NOW });
const values = (text: string, slots: readonly SlotSpec[], language = 'en') =>
  Object.fromEntries(
    Object.entries(extractSlots(text, slots, ctx(language))).map(([k, v]) => [k, v.value]),
  );

const rental: SlotSpec[] = [
  { name: 'start', kind: 'date' },
  { name: 'days', kind: 'integer', description: 'How many days the car is rented for' },
  { name: 'qty', kind: 'integer', description: 'How many cars' },
];

describe('amounts of time in slot filling', () => {
  it.each([
    ['rent a car for 2 days starting 24 December', 'en', { start: '2026-12-24', days: 2 }],
    ['for 1 week from 2 January', 'en', { start: '2027-01-02', days: 7 }],
    ['price for 4 days', 'en', { days: 4 }],
    ['2 weeks please', 'en', { days: 14 }],
    ['a fortnight', 'en', { days: 14 }],
    ['a couple of days', 'en', { days: 2 }],
    ['2 cars for 5 days', 'en', { days: 5, qty: 2 }],
    ['una semana', 'es', { days: 7 }],
    ['3 días', 'es', { days: 3 }],
    ['presupuesto para 8 días', 'es', { days: 8 }],
    ['un par de días desde el 3 de enero', 'es', { start: '2027-01-03', days: 2 }],
  ] as const)('should read "%s" as a length of time, never a date', (text, language, want) => {
    expect(values(text, rental, language)).toEqual(want);
  });

  it('should let a date slot take an amount counted from now ("in 3 days")', () => {
    expect(values('in 3 days', rental)).toEqual({ start: '2026-12-01' });
    expect(values('dentro de 3 días', rental, 'es')).toEqual({ start: '2026-12-01' });
  });

  it('should give a week to a slot about weeks as weeks, not days', () => {
    const slots: SlotSpec[] = [
      { name: 'days', kind: 'integer' },
      { name: 'weeks', kind: 'integer', description: 'Course length in weeks' },
    ];
    expect(values('2 weeks', slots)).toEqual({ weeks: 2 });
    expect(values('3 semanas', slots, 'es')).toEqual({ weeks: 3 });
  });

  it('should fill nights, minutes and ages by their unit', () => {
    const slots: SlotSpec[] = [
      { name: 'guests', kind: 'integer', description: 'How many people' },
      { name: 'nights', kind: 'integer' },
    ];
    expect(values('3 nights for 2 people', slots)).toEqual({ nights: 3, guests: 2 });
    expect(values('una semana, 2 personas', slots, 'es')).toEqual({ nights: 7, guests: 2 });
    const late: SlotSpec[] = [
      { name: 'minutes', kind: 'number', description: 'How many minutes late' },
      { name: 'at', kind: 'time' },
    ];
    expect(values('half an hour late', late)).toEqual({ minutes: 30 });
    expect(values('for 2 hours at 5pm', late)).toEqual({ at: '17:00', minutes: 120 });
    const age: SlotSpec[] = [{ name: 'age', kind: 'integer', description: "Driver's age" }];
    expect(values("I'm 23 years old", age)).toEqual({ age: 23 });
  });

  it('should not give an amount of time to a count of something else or to a place', () => {
    expect(values('for 5 days', [{ name: 'qty', kind: 'integer' }])).toEqual({});
    expect(values('no signal in Leeds for two days', [{ name: 'area', kind: 'text' }])).toEqual({
      area: 'Leeds',
    });
  });

  it('should keep a choice that contains a unit word ("day pass")', () => {
    const slots: SlotSpec[] = [
      { name: 'pass', kind: 'oneOf', choices: [{ value: 'day pass' }, { value: 'monthly' }] },
      { name: 'days', kind: 'integer' },
    ];
    expect(values('a day pass', slots)).toEqual({ pass: 'day pass' });
  });

  it('should fill the duration through the builtin understander', async () => {
    const intents: IntentSpec[] = [
      {
        id: 'book',
        examples: { en: ['rent a car', 'book a car from Friday'] },
        slots: rental,
      },
    ];
    const u = await createBuiltinUnderstander().understand({
      text: 'rent a car for 5 days starting 24 December',
      locale: 'en',
      timezone: 'UTC',
      now: NOW,
      intents,
      slots: [],
    });
    expect(u.slots?.['days']?.value).toBe(5);
    expect(u.slots?.['start']?.value).toBe('2026-12-24');
  });
});
