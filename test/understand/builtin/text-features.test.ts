import { describe, expect, it } from 'vitest';
import { Vocabulary, featurise } from '../../../src/understand/builtin/features.js';
import { SoftmaxModel } from '../../../src/understand/builtin/softmax.js';
import { chatWords } from '../../../src/understand/text/chat-words.js';
import { rootOf } from '../../../src/understand/text/roots.js';
import { findDates } from '../../../src/understand/builtin/entities/dates.js';
import { findPhones } from '../../../src/understand/builtin/entities/phone.js';
import { extractSlots } from '../../../src/understand/builtin/extract-slots.js';

const vocabulary = (words: readonly string[], language = 'en'): Vocabulary => {
  const v = new Vocabulary();
  for (const w of words) v.add(w, rootOf(w, language));
  return v;
};

describe('word roots', () => {
  it('should meet the forms of a word at one root per language', () => {
    expect(rootOf('shipped', 'en')).toBe(rootOf('shipping', 'en'));
    expect(rootOf('cancelled', 'en')).toBe(rootOf('cancel', 'en'));
    expect(rootOf('enviado', 'es')).toBe(rootOf('enviar', 'es'));
    expect(rootOf('envio', 'es')).toBe(rootOf('enviar', 'es'));
    // A language without a stemmer only loses its plural.
    expect(rootOf('pizzas', 'xx')).toBe('pizza');
  });
});

describe('chat words', () => {
  it('should expand contractions and chat abbreviations', () => {
    expect(chatWords("what's")).toEqual(['what']);
    expect(chatWords("didn't")).toEqual(['did', 'not']);
    expect(chatWords("won't")).toEqual(['will', 'not']);
    expect(chatWords('pls')).toEqual(['please']);
    expect(chatWords('xq')).toEqual(['porque']);
    expect(chatWords("o'clock")).toEqual(["o'clock"]);
    expect(chatWords('parcel')).toEqual(['parcel']);
  });

  it('should make a contraction a question word, not an unknown word', () => {
    expect([...featurise("what's the price").keys()]).toContain('q:what');
  });
});

describe('typo correction', () => {
  const v = vocabulary(['order', 'cancel', 'like', 'new', 'quiero', 'pizza']);

  it('should correct a missing letter, a swap and a sound-alike first letter', () => {
    expect(v.correct('ordr')).toBe(rootOf('order', 'en'));
    expect(v.correct('cancle')).toBe(rootOf('cancel', 'en'));
    expect(v.correct('piza')).toBe(rootOf('pizza', 'en'));
    expect(vocabulary(['quiero'], 'es').correct('kiero')).toBe(rootOf('quiero', 'es'));
  });

  it('should not turn a real short word or another form into a known word', () => {
    expect(v.correct('life')).toBeUndefined(); // not "like"
    expect(v.correct('news')).toBeUndefined(); // not "new"
  });

  it('should judge an inflected word with a short root by that root ("playing" is not "paying")', () => {
    const known = vocabulary(['paying', 'booking']);
    const fix = (word: string): string | undefined => known.correct(word, rootOf(word, 'en'));
    expect(fix('playing')).toBeUndefined();
    expect(fix('bookng')).toBe(rootOf('booking', 'en'));
    expect(fix('payng')).toBe(rootOf('paying', 'en'));
    expect(known.correct('playing')).toBe(rootOf('paying', 'en')); // without its root: the surface rule
  });

  it('should correct an inflected word through a typo of a known root ("asembling")', () => {
    const known = vocabulary(['assemble', 'table']);
    const fix = (word: string): string | undefined => known.correct(word, rootOf(word, 'en'));
    expect(fix('asembling')).toBe(rootOf('assemble', 'en'));
    // Only for a word with an ending: an uninflected one is judged by its surface alone.
    expect(fix('asembl')).toBeUndefined();
    expect(fix('tablet')).toBeUndefined();
  });
});

describe('softmax model', () => {
  const vectors = [
    new Map([['w:cancel', 1]]),
    new Map([
      ['w:cancel', 0.7],
      ['w:order', 0.7],
    ]),
    new Map([['w:track', 1]]),
    new Map([
      ['w:where', 0.7],
      ['w:track', 0.7],
    ]),
  ];
  const labels = [0, 0, 1, 1];

  it('should learn the words that tell classes apart, deterministically', () => {
    const a = new SoftmaxModel(vectors, labels, 2);
    const b = new SoftmaxModel(vectors, labels, 2);
    const p = a.predict(new Map([['w:cancel', 1]]));
    expect(p[0]).toBeGreaterThan(0.9);
    expect([...b.predict(new Map([['w:cancel', 1]]))]).toEqual([...p]);
    expect(a.predict(new Map([['w:track', 1]]))[1]).toBeGreaterThan(0.9);
  });

  it('should give a message of unknown words the same probability for every class', () => {
    const p = new SoftmaxModel(vectors, labels, 2).predict(new Map([['w:weather', 1]]));
    expect(p[0]).toBeCloseTo(0.5, 1);
    expect(p[1]).toBeCloseTo(0.5, 1);
  });
});

describe('entities', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');

  it('should read "now" as no time, and a day without a year as the nearest one', () => {
    expect(findDates('now 9 of us', 'now 9 of us', 'en', 'UTC', now)).toEqual([]);
    const [past] = findDates('charged on 15 november', 'charged on 15 november', 'en', 'UTC', now);
    expect(past?.date).toBe('2026-11-15');
    const [ahead] = findDates('on 5 december', 'on 5 december', 'en', 'UTC', now);
    expect(ahead?.date).toBe('2026-12-05');
    const [next] = findDates('on 20 january', 'on 20 january', 'en', 'UTC', now);
    expect(next?.date).toBe('2027-01-20');
  });

  it("should read national phone numbers in the countries of the contact's language", () => {
    expect(findPhones('llamadme al 612 345 678', undefined, 'es').map((p) => p.value)).toEqual([
      '+34612345678',
    ]);
    expect(findPhones('ring 07911 123456', undefined, 'en').map((p) => p.value)).toEqual([
      '+447911123456',
    ]);
    // The locale's region or the bot's country comes first.
    expect(findPhones('612 345 678', 'GB', 'es')).toEqual([]);
  });

  it('should give a number followed by a unit to the slot about that unit', () => {
    const ctx = { language: 'en', locale: 'en', timezone: 'UTC', now };
    const slots = extractSlots(
      'table for 3 people, running 10 mins late',
      [
        { name: 'party', kind: 'integer' },
        { name: 'minutes', kind: 'integer' },
      ],
      ctx,
    );
    expect(slots['party']?.value).toBe(3);
    expect(slots['minutes']?.value).toBe(10);
  });
});
