import { describe, expect, it } from 'vitest';
import { createBuiltinUnderstander } from '../../../src/understand/builtin/index.js';
import { meaningOf } from '../../../src/understand/text/lexicon.js';
import { rootOf } from '../../../src/understand/text/roots.js';
import type { IntentSpec } from '../../../src/understand/types.js';

const meaning = (word: string, language: string) => meaningOf(rootOf(word, language), language);

describe('bilingual lexicon', () => {
  it.each([
    ['duele', 'es', 'pain', 'en'],
    ['dolor', 'es', 'toothache', 'en'],
    ['muela', 'es', 'tooth', 'en'],
    ['encía', 'es', 'gums', 'en'],
    ['sangra', 'es', 'bleeding', 'en'],
    ['inflamada', 'es', 'swollen', 'en'],
    ['póliza', 'es', 'insurance', 'en'],
    ['arranca', 'es', 'working', 'en'],
    ['pinchazo', 'es', 'puncture', 'en'],
    ['carnet', 'es', 'licence', 'en'],
    ['conductor', 'es', 'driver', 'en'],
    ['fontanero', 'es', 'plumber', 'en'],
    ['curso', 'es', 'lessons', 'en'],
    ['hablar', 'es', 'talk', 'en'],
    ['speak', 'en', 'talk', 'en'],
    ['rather', 'en', 'instead', 'en'],
    ['prefiero', 'es', 'prefer', 'en'],
    ['deposit', 'en', 'paid', 'en'],
    ['fianza', 'es', 'pay', 'en'],
    ['pets', 'en', 'dog', 'en'],
    ['mascotas', 'es', 'pet', 'en'],
  ])('should give "%s" (%s) the meaning of "%s" (%s)', (a, la, b, lb) => {
    expect(meaning(a, la)).toBeDefined();
    expect(meaning(a, la)).toBe(meaning(b, lb));
  });

  it.each([
    ['book', 'cancel'],
    ['book', 'reschedule'],
    ['cancel', 'reschedule'],
    ['reservar', 'cancelar'],
    ['reservar', 'aplazar'],
    ['price', 'pay'],
    ['broken', 'missing'],
    ['instead', 'book'],
  ])('should keep "%s" and "%s" apart', (a, b) => {
    for (const language of ['en', 'es']) {
      expect(meaning(a, language)).not.toBe(meaning(b, language) ?? '-');
    }
  });
});

describe('built-in handoff phrases', () => {
  const intents: IntentSpec[] = [
    { id: 'book', examples: { en: ['rent a car', 'book a van for Friday', 'I need a car'] } },
    { id: 'cancel', examples: { en: ['cancel my booking', 'cancel the reservation'] } },
  ];
  it.each([
    ['can I talk to an agent please', 'en'],
    ['talk to an agent', 'en'],
    ['quiero hablar con un agente', 'es'],
  ])(
    'should take "%s" as a request for a person in a bot without a person intent',
    async (text, locale) => {
      const u = await createBuiltinUnderstander().understand({
        text,
        locale,
        timezone: 'UTC',
        now: Date.parse('2026-11-28T12:00:00Z'),
        intents,
        slots: [],
      });
      expect(u.handoff).toBe(true);
    },
  );
});

describe('typos of lexicon words', () => {
  // The bot's examples say "flat tyre"; "puncture" is a word of the same lexicon line that
  // no example uses, so its misspelling "punture" is corrected against the lexicon.
  const intents: IntentSpec[] = [
    {
      id: 'breakdown',
      examples: { en: ['I have a flat tyre', 'the car will not start', 'the battery is dead'] },
    },
    {
      id: 'book',
      examples: { en: ['rent a car for the weekend', 'book a van for Friday', 'I need a car'] },
    },
    { id: 'cancel', examples: { en: ['cancel my booking', 'cancel the reservation'] } },
  ];
  const understand = (text: string) =>
    createBuiltinUnderstander().understand({
      text,
      locale: 'en',
      timezone: 'UTC',
      now: Date.parse('2026-11-28T12:00:00Z'),
      intents,
      slots: [],
    });

  it('should read a misspelt lexicon word no example uses as its meaning', async () => {
    const right = await understand("I've got a puncture");
    const typo = await understand("I've got a punture");
    expect(right.intent?.id).toBe('breakdown');
    expect(right.intent?.confidence).toBeGreaterThan(0.4);
    expect(typo.intent).toEqual(right.intent);
  });

  it('should not correct a word the lexicon has no near spelling of', async () => {
    const u = await understand("I've got a quandary");
    expect(u.intent?.confidence ?? 0).toBeLessThan(0.6);
  });
});
