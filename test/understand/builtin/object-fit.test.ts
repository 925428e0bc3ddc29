import { describe, expect, it } from 'vitest';
import {
  createBuiltinUnderstander,
  DEFAULT_UNDERSTAND_THRESHOLD,
} from '../../../src/understand/builtin/index.js';
import { ObjectFit } from '../../../src/understand/builtin/object-fit.js';
import type { IntentSpec } from '../../../src/understand/types.js';

/** A small hotel: cancel and book act on the bot's things (closed); lost names anything (open). */
const HOTEL: IntentSpec[] = [
  {
    id: 'book',
    examples: {
      en: ['I want to book a room', 'book a double room for two nights', 'do you have a room free'],
      es: ['quiero reservar una habitación'],
    },
    slots: [
      {
        name: 'room',
        kind: 'oneOf',
        choices: [{ value: 'double', synonyms: ['doble'] }, { value: 'single' }],
      },
    ],
  },
  {
    id: 'cancel',
    examples: {
      en: ['I want to cancel my booking', 'please cancel the room', 'cancel my reservation'],
      es: ['quiero cancelar mi reserva', 'cancela la habitación'],
    },
  },
  {
    id: 'change',
    examples: { en: ['change my booking to friday', 'can I move my reservation'] },
  },
  {
    id: 'lost',
    examples: {
      en: [
        'I lost my wallet',
        'I left my charger in the room',
        'I think I forgot my glasses',
        'I lost my black jacket',
      ],
      es: ['perdí mi cartera'],
    },
  },
  {
    id: 'damaged',
    examples: { en: ['the lamp in the room is broken', 'the shower does not work'] },
  },
];

describe('ObjectFit', () => {
  const fit = new ObjectFit(HOTEL);

  it.each([
    ['can I cancel my Netflix subscription', 'en', 'cancel'],
    ['I want to cancel my magazine subscription', 'en', 'cancel'],
    ['quiero cancelar mi suscripción de Netflix', 'es', 'cancel'],
    ['can I book a table for dinner', 'en', 'book'],
  ])('should find %j does not fit %s', (text, locale, intent) => {
    // Other intents may misfit too: "book a table" fits cancel and change no better, as
    // their examples only name a booking (round 6), but an open position never misfits.
    expect([...fit.misfits(text, locale)]).toContain(intent);
    expect([...fit.misfits(text, locale)]).not.toContain('lost');
  });

  it.each([
    // The bot's own objects, typos of them, and slot values.
    ['cancel my booking', 'en'],
    ['cancel my bokking please', 'en'],
    ['cancela la reserva', 'es'],
    ['book a singel for tomorrow', 'en'],
    ['book a dubble room for tomorrow', 'en'],
    // An open position: lost names a different thing in every example.
    ['I lost my phone', 'en'],
    ['my son forgot his teddy', 'en'],
    // No article opens the phrase: not an object.
    ['cancel everything', 'en'],
    // The message names the intent's own object too: the foreign phrase is a detail.
    ['cancel the spa treatment on my booking', 'en'],
    // A word no position of the bot's has.
    ['the matress has a stain', 'en'],
  ])('should find %j fits', (text, locale) => {
    expect([...fit.misfits(text, locale)]).toEqual([]);
  });
});

describe('builtin understander with object fit', () => {
  it('should not take a request about a foreign thing confidently, and take the bot’s own', async () => {
    const understander = createBuiltinUnderstander();
    const understand = async (text: string) =>
      (
        await understander.understand({
          text,
          locale: 'en',
          timezone: 'UTC',
          now: Date.UTC(2026, 10, 28),
          intents: HOTEL,
          slots: [],
        })
      ).intent;
    const foreign = await understand('can I cancel my Netflix subscription');
    expect(foreign?.confidence ?? 0).toBeLessThan(DEFAULT_UNDERSTAND_THRESHOLD);
    const own = await understand('can I cancel my reservation');
    expect(own?.id).toBe('cancel');
    expect(own?.confidence).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
  });
});
