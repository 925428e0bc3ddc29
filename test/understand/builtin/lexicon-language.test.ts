import { describe, expect, it } from 'vitest';
import { meaningOf } from '../../../src/understand/text/lexicon.js';
import { rootOf } from '../../../src/understand/text/roots.js';

const meaning = (word: string, language: string) => meaningOf(rootOf(word, language), language);

// A lexicon word gives its meaning to text of its own language only: stemmed by the other
// language's stemmer it meets unrelated words (Spanish "calle" → `call` in English).
describe('lexicon lookups by the message language', () => {
  it.each([
    ['call', 'en'],
    ['calls', 'en'],
    ['red', 'en'],
    ['tarifa', 'en'],
    ['rates', 'es'],
    ['tire', 'es'],
  ])('should give "%s" (%s) no meaning from the other language', (word, language) => {
    expect(meaning(word, language)).toBeUndefined();
  });

  it.each([
    ['calle', 'es', 'street', 'en'],
    ['tarifas', 'es', 'rates', 'en'],
    ['red', 'es', 'wifi', 'en'],
    ['neumático', 'es', 'tire', 'en'],
  ])('should still give "%s" (%s) the meaning of "%s" (%s)', (a, la, b, lb) => {
    expect(meaning(a, la)).toBeDefined();
    expect(meaning(a, la)).toBe(meaning(b, lb));
  });

  it.each([
    ['menu', 'menu'],
    ['hotel', 'hotel'],
    ['wifi', 'internet'],
    ['taxi', 'taxi'],
  ])('should give "%s", the same word in both, its meaning in both', (word, id) => {
    expect(meaning(word, 'en')).toBe(id);
    expect(meaning(word, 'es')).toBe(id);
  });

  it('should look a word up on both sides for a language without a stemmer', () => {
    expect(meaningOf(rootOf('cita', 'pt'), 'pt')).toBe('appointment');
    expect(meaningOf(rootOf('appointment', 'pt'), 'pt')).toBe('appointment');
  });
});
