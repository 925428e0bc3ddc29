import { defineBot } from 'switchboard';
import type { Handler } from 'switchboard';

/** Free times of the fake calendar, and days that are fully booked. */
const TIMES = ['09:00', '10:30', '14:00', '16:30'];
const FULLY_BOOKED = new Set(['2026-03-15']);

/** Bookings made so far (an in-memory stand-in for a calendar service), by slot id. */
export const bookings = new Map<string, { bookingId: string; phone: string }>();

/** Lists the free times of a day as list rows (`slots` holds them as JSON). */
const findSlots: Handler = ({ input }) => {
  const date = String(input['date']);
  if (FULLY_BOOKED.has(date)) return { outcome: 'none' };
  const rows = TIMES.map((time) => ({ id: `${date}T${time}`, title: time })).filter(
    (row) => !bookings.has(row.id),
  );
  if (rows.length === 0) return { outcome: 'none' };
  return { outcome: 'available', vars: { slots: JSON.stringify(rows) } };
};

/** Books a slot unless someone else took it meanwhile. */
const bookSlot: Handler = ({ input }) => {
  const slot = String(input['slot']);
  if (bookings.has(slot)) return { outcome: 'taken' };
  const bookingId = `BK-${1000 + bookings.size + 1}`;
  bookings.set(slot, { bookingId, phone: String(input['phone']) });
  // The appointment time the flow's reminder is scheduled from (the clinic's clock: UTC).
  return { outcome: 'booked', vars: { bookingId, appointmentAt: `${slot}:00.000Z` } };
};

/**
 * Appointment booking: a date and a phone number asked with validation, free times from
 * a handler as a list, confirmation buttons, and a durable reminder 24 hours before the
 * appointment (`remind:`) that goes out as the approved `appointment_reminder` template
 * once the 24-hour window has closed, then asks the contact to confirm or reschedule.
 */
export const bot = defineBot({
  flows: [new URL('../../flows/appointment-booking.yaml', import.meta.url)],
  handlers: { findSlots, bookSlot },
  templates: [
    {
      name: 'appointment_reminder',
      language: 'en_US',
      components: [
        {
          type: 'body',
          parameters: ['text', 'text', 'text'],
          text: 'Hi {{1}}, a reminder of your appointment on {{2}} at {{3}}.',
        },
      ],
    },
  ],
});
