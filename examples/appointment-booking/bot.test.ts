import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestConversation, expectSent, type TestConversation } from 'switchboard/testing';
import { bookings, bot } from './bot.js';

describe('appointment-booking', () => {
  let chat: TestConversation;
  beforeEach(async () => {
    bookings.clear();
    chat = await createTestConversation(bot);
  });
  afterEach(async () => chat.close());

  async function bookUntilConfirm(): Promise<void> {
    await chat.say('hi');
    await chat.tap('Book a visit');
    await chat.say('2026-03-14');
    await chat.tap('10:30');
    await chat.say('+1 415 555 0123');
  }

  it('should ask for a date and reject one that is not YYYY-MM-DD', async () => {
    await chat.say('hi');
    expectSent(chat).buttons(['Book a visit', 'Not now']);
    await chat.tap('Book a visit');
    expectSent(chat).text(/YYYY-MM-DD/);
    await chat.say('next tuesday');
    expectSent(chat).text(
      "That doesn't look like a date. Please write it as YYYY-MM-DD, for example 2026-03-14.",
    );
    await chat.say('2026-02-30');
    expectSent(chat).text(/doesn't look like a date/);
    expect(await chat.state()).toBe('askDate');
  });

  it('should list the free times from the handler and ask for an E.164 phone', async () => {
    await chat.say('hi');
    await chat.tap('Book a visit');
    await chat.say('2026-03-14');
    expectSent(chat).text('Let me check the free times on 2026-03-14.');
    expectSent(chat).list(
      ['09:00', '10:30', '14:00', '16:30', 'Another day'],
      /free on 2026-03-14/,
    );
    await chat.tap('10:30');
    expect(await chat.vars()).toMatchObject({
      date: '2026-03-14',
      slot: '2026-03-14T10:30',
      slotTitle: '10:30',
    });
    await chat.say('0123');
    expectSent(chat).text(/with \+ and the country code/);
    await chat.say('+1 415 555 0123');
    expectSent(chat).buttons(
      ['Confirm', 'Change the time', 'Cancel'],
      "Book 10:30 on 2026-03-14? We'll call +14155550123 if anything changes.",
    );
  });

  it('should say so when a day has no free times and ask again', async () => {
    await chat.say('hi');
    await chat.tap('Book a visit');
    await chat.say('2026-03-15');
    expectSent(chat).text('Sorry, there are no free times on 2026-03-15.');
    expectSent(chat).text(/Which day suits you/);
  });

  it('should book on Confirm and send the reminder as a template 24 h before', async () => {
    await bookUntilConfirm();
    await chat.tap('Confirm');
    expectSent(chat).text(
      "You're booked for 10:30 on 2026-03-14 (booking BK-1001). I'll send you a reminder the day before.",
    );
    expect(bookings.get('2026-03-14T10:30')).toEqual({
      bookingId: 'BK-1001',
      phone: '+14155550123',
    });
    expect(await chat.vars()).toMatchObject({ appointmentAt: '2026-03-14T10:30:00.000Z' });
    // The test clock starts on 2026-03-02 09:00 UTC; the reminder is due 2026-03-13 10:30.
    await chat.advance('11d');
    expectSent(chat).nothing();
    await chat.advance('2h');
    expectSent(chat).template('appointment_reminder', ['Ada Lovelace', '2026-03-14', '10:30']);
    expect(chat.turn().some((m) => m.type === 'text')).toBe(false);
    // The contact answers: the held question goes out first, then the answer is handled.
    await chat.say('yes');
    expectSent(chat).text('Thank you, see you on 2026-03-14 at 10:30!');
    expect(await chat.state()).toBe('attending');
  });

  it('should cancel the reminder when the booking is cancelled', async () => {
    await bookUntilConfirm();
    await chat.tap('Confirm');
    await chat.tap('Cancel booking');
    expectSent(chat).text('No problem. Write to us any time to book a visit.');
    await chat.advance('14d');
    expectSent(chat).nothing();
  });

  it('should go back to the date on "Change the time" and stop on Cancel', async () => {
    await bookUntilConfirm();
    await chat.tap('Change the time');
    expectSent(chat).text(/Which day suits you/);
    await chat.say('stop');
    expectSent(chat).text('No problem. Write to us any time to book a visit.');
    expect(bookings.size).toBe(0);
  });
});
