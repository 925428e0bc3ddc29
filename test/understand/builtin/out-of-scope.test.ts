/**
 * Issue #30: the author's out-of-scope examples (`understand.outOfScope`) as a none class
 * of the builtin understander, shown on a bookshop (a domain no labelled set has).
 */
import { describe, expect, it } from 'vitest';
import {
  createBuiltinUnderstander,
  DEFAULT_UNDERSTAND_THRESHOLD,
} from '../../../src/understand/builtin/index.js';
import {
  OUT_OF_SCOPE_FLOOR,
  OUT_OF_SCOPE_MARGIN,
  takenOutOfScope,
} from '../../../src/understand/builtin/out-of-scope.js';
import type { Understander } from '../../../src/understand/types.js';
import { BOOKSHOP } from './bookshop-intents.js';
import { RULES_NOW } from './understand-with.js';

/** What the bookshop does not do: things customers ask the shops next door. */
const OUT_OF_SCOPE = {
  en: [
    'order me a pizza for dinner',
    'cancel my gym membership',
    'deliver my groceries',
    'I want to buy a new phone',
    'can you fix my laptop',
    'book a table at a restaurant',
  ],
  es: ['quiero pedir una pizza', 'darme de baja del gimnasio', 'arreglar mi portátil'],
};

const ask = (u: Understander, text: string, locale = 'en', outOfScope = true) =>
  u.understand({
    text,
    locale,
    timezone: 'UTC',
    now: RULES_NOW,
    intents: BOOKSHOP,
    slots: [],
    ...(outOfScope ? { outOfScope: OUT_OF_SCOPE } : {}),
  });

describe('builtin understander with out-of-scope examples', () => {
  it.each([
    ['I want to order a pizza to my house', 'en', 'deliver'],
    ['I want to ordr a piza to my house', 'en', 'deliver'],
    ['order a new phone for me', 'en', 'order'],
    ['quiero pedir una pizza a casa', 'es', 'deliver'],
    ['cancela mi pedido de pizza', 'es', 'cancel'],
  ])(
    'should leave %j (%s) not understood, though %s took it without them',
    async (text, locale, id) => {
      const u = createBuiltinUnderstander();
      const without = await ask(u, text, locale, false);
      expect(without.intent?.id).toBe(id);
      expect(without.intent?.confidence).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
      expect(without.outOfScope).toBeUndefined();

      const withThem = await ask(u, text, locale);
      expect(withThem.outOfScope).toBe(true);
      expect(withThem.intent?.confidence ?? 0).toBeLessThan(DEFAULT_UNDERSTAND_THRESHOLD);
    },
  );

  it.each([
    ['I want to order a book', 'en', 'order'],
    ['cancel the novel I ordered', 'en', 'cancel'],
    ['can you send the book to my house', 'en', 'deliver'],
    ['quiero encargar una novela', 'es', 'order'],
    ['cancela mi pedido por favor', 'es', 'cancel'],
  ])('should still understand %j (%s) as %s', async (text, locale, id) => {
    const u = await ask(createBuiltinUnderstander(), text, locale);
    expect(u.outOfScope).toBeUndefined();
    expect(u.intent?.id).toBe(id);
    expect(u.intent?.confidence).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
  });

  it('should let a request for a person win over the out-of-scope class', async () => {
    const u = await ask(createBuiltinUnderstander(), 'talk to a real person about my pizza');
    expect(u.outOfScope).toBeUndefined();
    expect(u.intent?.id).toBe('agent');
  });

  it('should keep an index per set of out-of-scope examples for the same intents', async () => {
    const u = createBuiltinUnderstander();
    expect((await ask(u, 'order a new phone for me')).outOfScope).toBe(true);
    expect((await ask(u, 'order a new phone for me', 'en', false)).intent?.id).toBe('order');
    const other = await u.understand({
      text: 'order a new phone for me',
      locale: 'en',
      timezone: 'UTC',
      now: RULES_NOW,
      intents: BOOKSHOP,
      slots: [],
      outOfScope: { en: ['book a taxi to the airport'] },
    });
    expect(other.outOfScope).toBeUndefined();
    expect(other.intent?.id).toBe('order');
  });
});

describe('takenOutOfScope', () => {
  it('should take a message when the class is at least the best intent less the margin', () => {
    expect(takenOutOfScope(0.7, { id: 'order', confidence: 0.7 + OUT_OF_SCOPE_MARGIN })).toBe(true);
    expect(takenOutOfScope(0.7, { id: 'order', confidence: 0.71 + OUT_OF_SCOPE_MARGIN })).toBe(
      false,
    );
    expect(takenOutOfScope(0.5, undefined)).toBe(true);
  });

  it('should not take a message the class is barely like', () => {
    expect(takenOutOfScope(OUT_OF_SCOPE_FLOOR - 0.01, { id: 'order', confidence: 0.1 })).toBe(
      false,
    );
    expect(takenOutOfScope(OUT_OF_SCOPE_FLOOR - 0.01, undefined)).toBe(false);
  });
});
