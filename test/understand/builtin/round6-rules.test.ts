/**
 * Issue #30, round 6: the general rules, each shown on a bookshop (a domain no labelled set
 * has), so a test shows the mechanism rather than the fit to a set.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_UNDERSTAND_THRESHOLD } from '../../../src/understand/builtin/index.js';
import { isBotQuestion } from '../../../src/understand/builtin/bot-question.js';
import { withoutOpeningGreeting } from '../../../src/understand/builtin/greeting-only.js';
import { asksForPerson } from '../../../src/understand/builtin/person-request.js';
import { ObjectFit } from '../../../src/understand/builtin/object-fit.js';
import { meaningOf } from '../../../src/understand/text/lexicon.js';
import { readPhrases } from '../../../src/understand/text/phrasal-verbs.js';
import { rootOf } from '../../../src/understand/text/roots.js';
import { BOOKSHOP_WITH_SLOTS } from './bookshop-intents.js';
import { understandWith } from './understand-with.js';

const BOOKSHOP = BOOKSHOP_WITH_SLOTS;

const understand = (text: string, locale = 'en') => understandWith(BOOKSHOP, text, locale);

describe('isBotQuestion: a question about the bot is not a request for a person', () => {
  it.each([
    'are you a real person',
    'Are you a bot?',
    'hi, r u human',
    'is this an automated service',
    'am I talking to a machine?',
    '¿eres una persona de verdad?',
    '¿estoy hablando con un robot?',
  ])('should read %j as a question about the bot', (text) => {
    expect(isBotQuestion(text)).toBe(true);
  });

  it.each([
    'I want a real person',
    'is there a real person there',
    'are you open on Sunday',
    'talk to a human please',
    'quiero hablar con una persona',
  ])('should not read %j as one', (text) => {
    expect(isBotQuestion(text)).toBe(false);
  });

  it('should hand over "I want a real person" and not "are you a real person"', async () => {
    const question = await understand('are you a real person');
    expect(question.handoff).toBeUndefined();
    expect(question.intent?.confidence ?? 0).toBeLessThan(DEFAULT_UNDERSTAND_THRESHOLD);
    const request = await understand('I want a real person');
    expect(request.intent?.id).toBe('agent');
    expect(request.intent?.confidence ?? 0).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
  });
});

describe('ObjectFit: a short unknown word beside a foreign one is part of the foreign thing', () => {
  const fit = new ObjectFit(BOOKSHOP);
  it('should find "cancel my gym membership" does not fit cancel', () => {
    expect([...fit.misfits('cancel my gym membership', 'en')]).toEqual(['cancel']);
  });
  it('should still not judge a short unknown word alone ("cancel my ordr" is a typo)', () => {
    expect([...fit.misfits('cancel my ordr', 'en')]).toEqual([]);
    expect([...fit.misfits('cancel my gym', 'en')]).toEqual([]);
  });
  it('should take "cancel my gym membership" below the threshold and keep "cancel my order"', async () => {
    expect((await understand('cancel my gym membership')).intent?.confidence ?? 0).toBeLessThan(
      DEFAULT_UNDERSTAND_THRESHOLD,
    );
    expect((await understand('cancel my order')).intent?.confidence ?? 0).toBeGreaterThanOrEqual(
      DEFAULT_UNDERSTAND_THRESHOLD,
    );
  });
});

describe('ObjectFit: a word the examples only name as a thing is closed when used as a verb', () => {
  const fit = new ObjectFit(BOOKSHOP);
  it('should find "¿me reserváis un hotel?" does not fit cancel (its examples name a reserva)', () => {
    expect([...fit.misfits('¿me reserváis un hotel en Madrid?', 'es')]).toContain('cancel');
  });
  it('should let the bot’s own thing after it fit ("reservad el libro")', () => {
    expect([...fit.misfits('reservad el libro', 'es')]).toEqual([]);
  });
});

describe('Spanish vosotros forms written without their accent', () => {
  it.each([
    ['traigais', 'traigáis'],
    ['podriais', 'podríais'],
    ['teneis', 'tenéis'],
    ['acercais', 'acercáis'],
    ['haceis', 'hacéis'],
  ])('should give %j the root of %j', (folded, accented) => {
    expect(rootOf(folded, 'es')).not.toBe(folded);
    expect(rootOf(folded, 'es')).toBe(rootOf(accented, 'es'));
  });
  it.each(['seis', 'dieciseis', 'pais'])('should leave %j alone', (word) => {
    expect(rootOf(word, 'es')).toBe(word);
  });
  it('should read "¿me mandais el pedido?" as the delivery its examples say with "mandan"', async () => {
    const u = await understand('¿me mandais el pedido?', 'es');
    expect(u.intent?.id).toBe('deliver');
    expect(u.intent?.confidence ?? 0).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
  });
});

describe('lexicon: domain-neutral customer-service verbs and states', () => {
  it.each([
    ['acercar', 'es', 'deliver'],
    ['billete', 'es', 'receipt'],
    ['ticket', 'en', 'receipt'],
    ['preparado', 'es', 'ready'],
    ['ready', 'en', 'ready'],
    ['done', 'en', 'ready'],
    ['extraviado', 'es', 'missing'],
    ['indemnizacion', 'es', 'refund'],
    ['compensation', 'en', 'refund'],
    ['asiento', 'es', 'table'],
    ['escoger', 'es', 'choose'],
    ['select', 'en', 'choose'],
    ['traigan', 'es', 'deliver'],
    ['meter', 'es', 'add'],
  ])('should give %j (%s) the meaning %j', (word, language, meaning) => {
    expect(meaningOf(rootOf(word, language), language)).toBe(meaning);
  });
});

describe('"check me in": a pronoun between verb and particle', () => {
  it.each([
    ['check me in', [['checkin'], ['me'], []]],
    ['check us out please', [['checkout'], ['us'], [], ['please']]],
  ])('should read %j as one verb', (text, expected) => {
    expect(readPhrases(text.split(' '))).toEqual(expected);
  });
  it('should leave "check the book in stock" word for word', () => {
    const words = 'check the book in stock'.split(' ');
    expect(readPhrases(words)).toEqual(words.map((w) => [w]));
  });
});

describe('text slots end at a comparison, a new clause, or a cue before a taken span', () => {
  it.each([
    ['deliver the book to Leeds, it is a present for my mum', 'en', 'Leeds'],
    ['send it to 14 Park Road, Leeds', 'en', '14 Park Road, Leeds'],
    ["I'd rather you send it to Porto than Lisbon", 'en', 'Porto'],
    ['send the order to York to 9 December', 'en', 'York'],
    ['mejor mandadlo a Sevilla que a Valencia', 'es', 'Sevilla'],
    ['enviad el pedido a Lisboa al 7 de diciembre', 'es', 'Lisboa'],
    ['enviad el libro a Bilbao, mi móvil es 655 123 456', 'es', 'Bilbao'],
  ])('should fill the address of %j (%s) with %j', async (text, locale, value) => {
    const u = await understandWith(
      BOOKSHOP.map((i) =>
        i.id === 'deliver'
          ? { ...i, slots: [...(i.slots ?? []), { name: 'when', kind: 'date' }] }
          : i,
      ),
      text,
      locale,
    );
    expect(u.slots?.['address']?.value).toBe(value);
  });
});

describe('Spanish ways of asking to be attended or put through', () => {
  it.each([
    'necesito que me atienda una persona de verdad',
    '¿me pones con alguien de la librería?',
    '¿me pasáis con un empleado?',
  ])('should read %j as a request for a person', (text) => {
    expect(asksForPerson(text)).toBe(true);
  });
  it.each(['¿me pones la novela en una bolsa?', 'atiende a mi pedido'])(
    'should not read %j as one',
    (text) => {
      expect(asksForPerson(text)).toBe(false);
    },
  );
});

describe('a greeting that opens a request is left out of the intent scores', () => {
  it.each([
    ["Good morning, I'd like to order my books again", "I'd like to order my books again"],
    ['hola buenas, quería encargar un libro', 'quería encargar un libro'],
    ['hi there! cancel my order', 'cancel my order'],
    ['hi cancel my order', 'cancel my order'],
    ['hola buenas', 'hola buenas'],
    ['hello, thanks', 'hello, thanks'],
    ['Highlands delivery', 'Highlands delivery'],
  ])('should read %j as %j', (text, rest) => {
    expect(withoutOpeningGreeting(text)).toBe(rest);
  });
  it('should be as confident with "Good morning, …" as without it', async () => {
    const bare = await understand("I'd like to order the new novel again");
    const greeted = await understand("Good morning, I'd like to order the new novel again");
    expect(greeted.intent?.id).toBe('order');
    expect(greeted.intent?.confidence).toBe(bare.intent?.confidence);
  });
});

describe('fixed customer-service phrases read as their meaning', () => {
  it.each([
    ['i want my money back', [['i'], ['want'], ['my'], ['refund'], []]],
    ['quiero el dinero de vuelta', [['quiero'], ['el'], ['reembolso'], [], []]],
    ['how much longer for my order', [['how'], ['waiting'], [], ['for'], ['my'], ['order']]],
    ['falta mucho para mi pedido', [['esperando'], [], ['para'], ['mi'], ['pedido']]],
    ['hace falta el dni', [['necesito'], [], ['el'], ['dni']]],
  ])('should read %j', (text, expected) => {
    expect(readPhrases(text.split(' '))).toEqual(expected);
  });
  it.each(['how much money do i need', 'falta un libro', 'how much is a longer book'])(
    'should leave %j word for word',
    (text) => {
      const words = text.split(' ');
      expect(readPhrases(words)).toEqual(words.map((w) => [w]));
    },
  );
});
