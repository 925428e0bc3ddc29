import { describe, expect, it } from 'vitest';
import { featurise, Vocabulary } from '../../../src/understand/builtin/features.js';
import type { IntentSpec } from '../../../src/understand/types.js';
import { understandWith } from './understand-with.js';

// A word no example uses, whose lexicon meaning an example of the other language says
// ("tarifas" / "rates"), must count as that meaning (issue #30).
const intents: IntentSpec[] = [
  {
    id: 'quote',
    examples: {
      en: ['how much is it to rent a car', 'what are your daily rates'],
      es: ['¿cuánto cuesta alquilar un coche?'],
    },
  },
  {
    id: 'requirements',
    examples: {
      en: ["what's the minimum age to rent", 'do I need a driving licence'],
      es: ['¿qué necesito para alquilar?'],
    },
  },
  {
    id: 'breakdown',
    examples: {
      en: ['the car broke down', 'I have a flat tyre'],
      es: ['el coche se ha averiado'],
    },
  },
];

function understand(text: string, locale = 'es') {
  return understandWith(intents, text, locale);
}

describe('a word no example uses but whose lexicon meaning they do', () => {
  it('should weigh its meaning fully and itself half when the vocabulary does not know it', () => {
    const vocabulary = new Vocabulary();
    vocabulary.add('rates', 'rate');
    const features = featurise('tarifas', { vocabulary, language: 'es' });
    expect(features.get('k:price')).toBe(1);
    expect(features.get('w:tarif')).toBe(0.5);
  });

  it('should keep a known word at full weight and its meaning as a hint', () => {
    const vocabulary = new Vocabulary();
    vocabulary.add('tarifas', 'tarif');
    const features = featurise('tarifas', { vocabulary, language: 'es' });
    expect(features.get('w:tarif')).toBe(1);
    expect(features.get('k:price')).toBe(0.4);
  });

  it('should take "tarifas" as the intent whose examples ask for rates', async () => {
    const u = await understand('tarifas');
    expect(u.intent?.id).toBe('quote');
    expect(u.intent?.confidence ?? 0).toBeGreaterThanOrEqual(0.6);
  });

  it('should score "¿cuál es la edad mínima?" for the intent asking the minimum age', async () => {
    const u = await understand('¿cuál es la edad mínima?');
    expect(u.intent?.id).toBe('requirements');
  });

  it('should still leave a message of words no example uses unmatched', async () => {
    const u = await understand('el partido de fútbol de ayer fue increíble');
    expect(u.intent?.confidence ?? 0).toBeLessThan(0.6);
  });
});
