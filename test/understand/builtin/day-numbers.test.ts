import { describe, expect, it } from 'vitest';
import { extractSlots } from '../../../src/understand/builtin/extract-slots.js';
import type { SlotSpec } from '../../../src/understand/types.js';

// A Saturday.
const NOW = Date.parse('2026-11-28T12:00:00Z');
const date: SlotSpec[] = [{ name: 'date', kind: 'date' }];
const dateOf = (text: string, language: string) =>
  extractSlots(text, date, { language, locale: language, timezone: 'UTC', now: NOW })['date']
    ?.value;

describe('dates chrono leaves out', () => {
  it.each([
    ['¿Tenéis una suite libre del 24 al 26 de diciembre?', 'es', '2026-12-24'],
    ['desde el 30 hasta el 2 de enero', 'es', '2026-12-30'],
    ['necesito modificar la reserva, llegaremos el sábado 5', 'es', '2026-12-05'],
    ['Friday the 11th works', 'en', '2026-12-11'],
    ['please reschedule order 301442 to the 9th in the morning', 'en', '2026-12-09'],
    ['¿me montáis el armario el día 3?', 'es', '2026-12-03'],
    ['any rooms on the 28th?', 'en', '2026-11-28'],
    ["we'll arrive on 15 December instead of the 14th", 'en', '2026-12-15'],
    ['rather than the 3rd, can we do the 5th', 'en', '2026-12-05'],
    ["I won't be in on Tuesday, Wednesday afternoon works better", 'en', '2026-12-02'],
    ['no puedo el lunes, mejor el martes', 'es', '2026-12-01'],
  ])('should read "%s" (%s) as %s', (text, language, want) => {
    expect(dateOf(text, language)).toBe(want);
  });

  it('should keep a turned-down date when it is the only one, and a weekday with a time as is', () => {
    expect(dateOf('not on Tuesday', 'en')).toBe('2026-12-01');
    expect(dateOf('el sábado 5 de la tarde', 'es')).toBe('2026-11-28');
  });
});
