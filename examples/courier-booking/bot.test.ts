import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestConversation, expectSent, type TestConversation } from 'switchboard/testing';
import { bot, quotes } from './bot.js';

describe('courier-booking', () => {
  let chat: TestConversation;
  beforeEach(async () => {
    quotes.length = 0;
    chat = await createTestConversation(bot);
  });
  afterEach(async () => chat.close());

  /** From the first message to the confirmation menu (English, a large parcel). */
  async function toConfirm(): Promise<void> {
    await chat.say('hi');
    await chat.tap('English');
    await chat.sendLocation(52.3731, 4.8922, 'Damrak 1');
    await chat.sendLocation(52.3584, 4.8811);
    await chat.say('3');
    await chat.sendImage('my parcel');
  }

  it('should book in English: two locations through one sub-flow, a photo, a branch and a paced goodbye', async () => {
    await chat.say('hi');
    expectSent(chat).buttons(['English', 'Français']);
    await chat.tap('English');
    expectSent(chat).text("Hi Ada Lovelace! Let's book a courier.");
    expectSent(chat).text('Please share the pickup location (tap 📎, then Location).');
    expect(await chat.state()).toBe('askPlace');
    await chat.say('Damrak 1, Amsterdam');
    expectSent(chat).text(/That is not a location/);
    await chat.sendLocation(52.3731, 4.8922, 'Damrak 1');
    expectSent(chat).text('Please share the drop-off location (tap 📎, then Location).');
    await chat.sendLocation(52.3584, 4.8811);
    expectSent(chat).buttons(['Small', 'Medium', 'Large']);
    await chat.say('3'); // typed number picks the third option
    expectSent(chat).text('Please send a photo of the parcel.');
    await chat.say('it is a box');
    expectSent(chat).text('I need a photo of the parcel (not text).');
    await chat.sendImage('my parcel');
    expect(quotes).toEqual([{ size: 'large', photoType: 'image/jpeg', price: 35 }]);
    expectSent(chat).text('Large parcels travel by van.');
    expectSent(chat).buttons(['Yes, book it', 'No, thanks']);
    const vars = await chat.vars();
    expect(vars).toMatchObject({
      pickupAt: '52.3731,4.8922',
      pickupLat: 52.3731,
      pickupName: 'Damrak 1',
      dropoffAt: '52.3584,4.8811',
      dropoffLat: 52.3584,
      size: 'large',
      price: 35,
      parcelCaption: 'my parcel',
      parcelAvailability: 'ready',
      parcelMimeType: 'image/jpeg',
    });
    expect(vars['parcel']).toMatch(/\w/);
    await chat.tap('Yes, book it');
    expect(chat.turn().map((m) => (m.type === 'text' ? m.text : m.type))).toEqual([
      'Booked! A courier picks it up at 52.3731,4.8922.',
    ]);
    await chat.advance('2s'); // the delay: is a durable timer on the fake clock
    expectSent(chat).text('See you soon.');
    expect(await chat.contactMemory()).toEqual({ locale: 'en', bookings: 1 });
  });

  it('should take a medium parcel straight to the confirmation (the other branch)', async () => {
    await chat.say('hi');
    await chat.tap('English');
    await chat.sendLocation(52.3731, 4.8922);
    await chat.sendLocation(52.3584, 4.8811);
    await chat.say('medium');
    await chat.sendImage();
    expect(chat.turn().map((m) => m.type)).toEqual(['buttons']);
    expectSent(chat).buttons(['Yes, book it', 'No, thanks']);
  });

  it('should greet a returning contact in the language it chose, from contact memory', async () => {
    await chat.say('bonjour');
    await chat.tap('Français');
    expectSent(chat).text('Bonjour Ada Lovelace ! Réservons un coursier.');
    expectSent(chat).text('Merci de partager le lieu (pickup) : touchez 📎, puis Position.');
    await chat.say('annuler');
    expectSent(chat).text('Aucune réservation. Écrivez-nous quand vous voulez.');
    // A new conversation of the same contact: no language question, French at once.
    await chat.say('salut');
    expectSent(chat).text('Bonjour Ada Lovelace ! Réservons un coursier.');
    expect(chat.turn().some((m) => m.type === 'buttons')).toBe(false);
    await chat.sendLocation(48.8566, 2.3522);
    await chat.sendLocation(48.8606, 2.3376);
    expectSent(chat).buttons(['Petit', 'Moyen', 'Grand']);
    await chat.say('grand'); // a translated title, typed
    expectSent(chat).text("Merci d'envoyer une photo du colis.");
  });

  it('should nudge twice when the confirmation gets no answer, then give up', async () => {
    await toConfirm();
    await chat.advance('10m');
    expectSent(chat).text('Still there? Tap Yes to book.');
    await chat.advance('10m');
    expectSent(chat).text('Still there? Tap Yes to book.');
    await chat.advance('10m');
    expectSent(chat).text('No booking made. Write again any time.');
    expect(await chat.state()).toBe('cancelled');
  });

  it('should forget the contact on request: memory and conversation erased', async () => {
    await toConfirm();
    await chat.tap('Yes, book it');
    await chat.advance('2s');
    expect(await chat.contactMemory()).toEqual({ locale: 'en', bookings: 1 });
    await chat.forget();
    expect(await chat.contactMemory()).toEqual({});
    expect(await chat.state()).toBeUndefined();
    await chat.say('hi');
    expectSent(chat).buttons(['English', 'Français']);
  });
});
