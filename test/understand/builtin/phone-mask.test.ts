import { describe, expect, it } from 'vitest';
import { featurise } from '../../../src/understand/builtin/features.js';
import type { IntentSpec } from '../../../src/understand/types.js';
import { understandWith } from './understand-with.js';

describe('featurise with a phone number', () => {
  it.each([
    ['call me on +44 7911 123123', 'en'],
    ['mi móvil es 612 345 678', 'es'],
    ['ring me on 07911 123456', 'en'],
  ])('should make the number in "%s" one placeholder', (text, language) => {
    const features = featurise(text, { language });
    expect(features.get('e:phone')).toBe(1);
    expect(features.has('w:#')).toBe(false);
  });

  it('should leave a date to the date placeholder (a valid Irish number)', () => {
    const features = featurise('book me in for 2026-12-10', { language: 'en' });
    expect(features.get('e:date')).toBe(1);
    expect(features.has('e:phone')).toBe(false);
  });

  it('should not take a short number for a phone number', () => {
    expect(featurise('booking 51876', { language: 'en' }).has('e:phone')).toBe(false);
  });
});

describe('builtin understander with a phone number in the message', () => {
  const intents: IntentSpec[] = [
    {
      id: 'block',
      examples: {
        en: ['block my card', 'my card was stolen', 'I lost my card'],
        es: ['bloquear la tarjeta', 'me han robado la tarjeta', 'he perdido la tarjeta'],
      },
    },
    {
      id: 'limit',
      examples: {
        en: ['what is my card limit', 'raise my limit'],
        es: ['cuál es el límite de la tarjeta', 'subir el límite'],
      },
    },
    {
      id: 'callback',
      examples: { en: ['call me back please', 'can someone phone me'], es: ['llamadme por favor'] },
    },
  ];
  const understand = (text: string, locale: string) => understandWith(intents, text, locale);

  it.each([
    ['me robaron la tarjeta, mi movil es 612 345 678', 'es'],
    ['stolen card - my number is +34 699 111 222', 'en'],
  ])('should understand "%s" as well as without the number', async (text, locale) => {
    const u = await understand(text, locale);
    expect(u.intent?.id).toBe('block');
    expect(u.intent?.confidence).toBeGreaterThanOrEqual(0.6);
  });
});
