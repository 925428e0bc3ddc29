import { describe, expect, it } from 'vitest';
import { extractSlots } from '../../../src/understand/builtin/extract-slots.js';
import type { SlotSpec } from '../../../src/understand/types.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const values = (text: string, slots: readonly SlotSpec[], language = 'en') =>
  Object.fromEntries(
    Object.entries(
      extractSlots(text, slots, { language, locale: language, timezone: 'UTC', now: NOW }),
    ).map(([k, v]) => [k, v.value]),
  );

const extras: SlotSpec[] = [
  { name: 'guests', kind: 'integer', description: 'How many guests or people' },
  { name: 'booking', kind: 'integer', description: 'Reservation number' },
];
const returns: SlotSpec[] = [
  { name: 'qty', kind: 'integer', description: 'How many items or pieces of furniture' },
  { name: 'order', kind: 'integer', description: 'Order number' },
];

describe('reference numbers and counts', () => {
  it.each([
    ['can we add breakfast for 2 to booking 48213?', extras, { guests: 2, booking: 48213 }],
    ['add parking for 2 cars to reservation 47733', extras, { guests: 2, booking: 47733 }],
    ['return the 2 chairs from order 559870 please', returns, { qty: 2, order: 559870 }],
    ['order no. 301442, 3 tables', returns, { qty: 3, order: 301442 }],
    ['devolver 2 sillas del pedido 774501', returns, { qty: 2, order: 774501 }],
  ])(
    'should give the long number after a reference word in "%s" to the reference slot',
    (text, slots, want) => {
      expect(values(text, slots, /devolver/.test(text) ? 'es' : 'en')).toEqual(want);
    },
  );

  it('should give a reference slot a long number even with no word before it', () => {
    const cancel: SlotSpec[] = [
      { name: 'booking', kind: 'integer', description: 'Reservation number' },
    ];
    expect(values('I booked twice, please cancel one of them (44120)', cancel)).toEqual({
      booking: 44120,
    });
  });

  it('should still count what follows a number ("2 guests"), and leave short numbers in order', () => {
    expect(values('2 guests, booking 48213', extras)).toEqual({ guests: 2, booking: 48213 });
    expect(values('for 3', extras)).toEqual({ guests: 3 });
  });

  it('should count "un paquete" for a slot described in English by the word\'s meaning', () => {
    const send: SlotSpec[] = [
      { name: 'parcels', kind: 'integer', description: 'How many parcels' },
      { name: 'weight', kind: 'number', description: 'Weight in kg' },
    ];
    expect(values('quiero mandar un paquete a Valencia', send, 'es')).toEqual({ parcels: 1 });
    expect(values('necesito enviar una caja de 7 kilos', send, 'es')).toEqual({
      parcels: 1,
      weight: 7,
    });
    // "una" before a word with no meaning of the slot stays a weak number, not a count.
    expect(values('quiero mandar una cosa', send, 'es')).toEqual({});
  });
});
