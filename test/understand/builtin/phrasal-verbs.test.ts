import { describe, expect, it } from 'vitest';
import { readPhrases } from '../../../src/understand/text/phrasal-verbs.js';
import type { IntentSpec } from '../../../src/understand/types.js';
import { understandWith } from './understand-with.js';

describe('readPhrases', () => {
  it.each([
    ['call it off', [['cancel'], ['it'], []]],
    ['called off', [['cancel'], []]],
    ['get rid of it', [['cancel'], [], [], ['it']]],
    ['bring my booking forward', [['move'], ['my'], ['booking'], []]],
    ['sign me up', [['enrol'], ['me'], []]],
    ['take me off the list', [['cancel'], ['me'], [], ['the'], ['list']]],
    ['quiero darme de baja', [['quiero'], ['cancelar'], [], []]],
    ['dar de alta', [['inscribir'], [], []]],
    ['me podeis dar hora', [['me'], ['podeis'], ['dar', 'cita'], []]],
    ['i no longer need it', [['i'], ['cancel'], [], [], ['it']]],
    ['ya no lo quiero', [['cancelar'], [], [], []]],
    ['i can not find my card', [['i'], ['can'], ['lost'], [], ['my'], ['card']]],
    ['no encuentro la tarjeta', [['perdido'], [], ['la'], ['tarjeta']]],
    ['any update on my order', [['status'], [], ['on'], ['my'], ['order']]],
    ['seis en vez de cuatro', [['seis'], ['prefiero'], [], [], ['cuatro']]],
  ])('should read "%s" as one verb', (text, expected) => {
    expect(readPhrases(text.split(' '))).toEqual(expected);
  });

  it.each([
    'call me back',
    'call me tomorrow',
    'bring my order',
    'call my office then turn it off',
    'a que hora abris',
    'sign here',
    'no longer than an hour',
    'ya no funciona',
    'update my address',
    'where can i find you',
    'can you take 10 off the bill',
    'can i call during off peak',
  ])('should leave "%s" word for word', (text) => {
    const words = text.split(' ');
    expect(readPhrases(words)).toEqual(words.map((w) => [w]));
  });
});

describe('builtin understander with multi-word verbs', () => {
  const intents: IntentSpec[] = [
    {
      id: 'book',
      examples: {
        en: ['book a table for tonight', 'reserve a table for four'],
        es: ['quiero reservar una mesa', 'quiero pedir cita'],
      },
    },
    {
      id: 'cancel',
      examples: {
        en: ['cancel my booking', 'please cancel the reservation'],
        es: ['cancela mi reserva', 'quiero cancelar la reserva'],
      },
    },
    {
      id: 'reschedule',
      examples: {
        en: [
          'move my booking to another day',
          'can I reschedule my reservation',
          'could we come on sunday instead',
        ],
        es: ['cambiar la reserva a otro día', 'mejor el jueves en vez del martes'],
      },
    },
    {
      id: 'callback',
      examples: {
        en: ['call me back please', 'can someone call me', 'ring me later'],
        es: ['llamadme por favor'],
      },
    },
  ];
  const understand = (text: string, locale = 'en') => understandWith(intents, text, locale);

  it.each([
    ['we have to call off our dinner', 'en', 'cancel'],
    ['get rid of my booking', 'en', 'cancel'],
    ['bring my booking forward an hour', 'en', 'reschedule'],
    ['can we push my booking to friday', 'en', 'reschedule'],
    ['quiero pedir hora para el lunes', 'es', 'book'],
    ['ya no quiero reservar la mesa', 'es', 'cancel'],
    ["I booked for thursday but I'd rather come on friday", 'en', 'reschedule'],
    ['prefiero ir el viernes en lugar del lunes', 'es', 'reschedule'],
  ])('should take "%s" for the plain verb\'s intent', async (text, locale, intent) => {
    const u = await understand(text, locale);
    expect(u.intent?.id).toBe(intent);
    expect(u.intent?.confidence).toBeGreaterThanOrEqual(0.6);
  });
});

describe('builtin understander with "can\'t find" and "any update"', () => {
  const intents: IntentSpec[] = [
    {
      id: 'lost',
      examples: {
        en: ['I lost my card', 'my card is missing'],
        es: ['he perdido la tarjeta', 'perdí mi tarjeta'],
      },
    },
    {
      id: 'declined',
      examples: {
        en: ['my card does not work', 'the card was declined'],
        es: ['la tarjeta no funciona', 'me rechazan la tarjeta'],
      },
    },
    { id: 'status', examples: { en: ["what's the status of my order", 'track my order'] } },
    { id: 'change', examples: { en: ['update my order', 'change my order'] } },
  ];
  const understand = (text: string, locale: string) => understandWith(intents, text, locale);

  it.each([
    ["I can't find my card", 'en', 'lost'],
    ['no encuentro la tarjeta', 'es', 'lost'],
    ['any update on my order?', 'en', 'status'],
  ])('should take "%s" (%s) as %s', async (text, locale, intent) => {
    const u = await understand(text, locale);
    expect(u.intent?.id).toBe(intent);
    expect(u.intent?.confidence).toBeGreaterThanOrEqual(0.6);
  });
});
