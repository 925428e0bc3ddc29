import { describe, expect, it } from 'vitest';
import {
  createBuiltinUnderstander,
  DEFAULT_UNDERSTAND_THRESHOLD,
} from '../../../src/understand/builtin/index.js';
import { loadKnowledge } from '../../../src/understand/knowledge/knowledge-base.js';
import type { IntentSpec, UnderstandInput } from '../../../src/understand/types.js';

const intents: IntentSpec[] = [
  {
    id: 'order',
    examples: {
      en: [
        'I want to order a pizza',
        'two large pepperoni please',
        'a small margherita to 3 Mill Lane',
      ],
      es: ['quiero pedir una pizza', 'dos pizzas grandes'],
    },
    slots: [
      { name: 'quantity', kind: 'integer', description: 'How many pizzas' },
      {
        name: 'size',
        kind: 'oneOf',
        choices: [
          { value: 'small', synonyms: ['pequeña'] },
          { value: 'large', synonyms: ['grande', 'big'] },
        ],
      },
      {
        name: 'flavour',
        kind: 'oneOf',
        choices: [{ value: 'pepperoni' }, { value: 'margherita', synonyms: ['margarita'] }],
      },
      { name: 'address', kind: 'text' },
    ],
  },
  {
    id: 'track',
    examples: {
      en: ['where is my order', 'my pizza has not arrived', 'track my delivery'],
      es: ['dónde está mi pedido'],
    },
  },
  {
    id: 'hours',
    examples: {
      en: ['what time do you open', 'are you open on sunday', 'opening hours'],
      es: ['a qué hora abrís'],
    },
  },
];

const NOW = Date.parse('2026-03-04T10:00:00Z'); // a Wednesday

function input(text: string, more: Partial<UnderstandInput> = {}): UnderstandInput {
  return { text, locale: 'en', timezone: 'UTC', now: NOW, intents, slots: [], ...more };
}

describe('createBuiltinUnderstander', () => {
  const u = createBuiltinUnderstander({ defaultCountry: 'GB' });

  it('should find the intent despite case, accents, typos and word order', async () => {
    for (const text of [
      'WHERE IS MY ORDER',
      'wher is my ordr',
      'my order, where is it',
      'dónde está mi pedido',
      'donde esta mi pedido',
    ]) {
      const r = await u.understand(input(text, { locale: text.includes('nde') ? 'es' : 'en' }));
      expect(r.intent?.id, text).toBe('track');
      expect(r.intent?.confidence ?? 0, text).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
    }
  });

  it('should give out-of-scope chatter a confidence below the threshold', async () => {
    for (const text of ['tell me a joke', 'what is the capital of France', 'asdfgh', 'lol']) {
      const r = await u.understand(input(text));
      expect(r.intent?.confidence ?? 0, text).toBeLessThan(DEFAULT_UNDERSTAND_THRESHOLD);
      expect(r.handoff, text).toBeUndefined();
    }
  });

  it('should not take an information question for an intent that asks none when another asks it', async () => {
    const bot: IntentSpec[] = [
      {
        id: 'reschedule',
        examples: {
          en: [
            'can I move my appointment',
            'change the time of my appointment',
            'another time please',
          ],
          es: ['quiero cambiar la hora de mi cita'],
        },
      },
      {
        id: 'hours',
        examples: {
          en: ['what time do you open', 'opening hours'],
          es: ['horario', 'a qué hora abrís'],
        },
      },
    ];
    const asked = await u.understand(input('what time is my appointment', { intents: bot }));
    expect(asked.intent?.confidence ?? 0).toBeLessThan(DEFAULT_UNDERSTAND_THRESHOLD);
    const askedEs = await u.understand(
      input('a qué hora era mi cita', { intents: bot, locale: 'es' }),
    );
    expect(askedEs.intent?.confidence ?? 0).toBeLessThan(DEFAULT_UNDERSTAND_THRESHOLD);
    // The same words as a request, or a question the intent's examples ask, stay confident.
    for (const text of [
      'move my appointment to another time',
      'can I change my appointment time',
    ]) {
      const r = await u.understand(input(text, { intents: bot }));
      expect(r.intent?.id, text).toBe('reschedule');
      expect(r.intent?.confidence ?? 0, text).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
    }
    const hours = await u.understand(input('what time do you close', { intents: bot }));
    expect(hours.intent?.id).toBe('hours');
    // With no intent asking "what…", the bot never answers such questions: left as it was.
    const actionsOnly = bot.filter((i) => i.id !== 'hours');
    const alone = await u.understand(
      input('what time is my appointment', { intents: actionsOnly }),
    );
    expect(alone.intent?.id).toBe('reschedule');
    expect(alone.intent?.confidence ?? 0).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
  });

  it('should be deterministic and list the next best intents as alternatives', async () => {
    const a = await u.understand(input('what time is my order arriving'));
    const b = await u.understand(input('what time is my order arriving'));
    expect({ ...a, ms: 0 }).toEqual({ ...b, ms: 0 });
    expect(a.alternatives?.length).toBeGreaterThan(0);
    expect(a.alternatives?.[0]?.confidence).toBeLessThanOrEqual(a.intent?.confidence ?? 0);
  });

  it('should fill several slots of the scored intent at once', async () => {
    const r = await u.understand(input('2 large pepperoni to 5 Main St'));
    expect(r.intent?.id).toBe('order');
    expect(r.slots).toMatchObject({
      quantity: { value: 2 },
      size: { value: 'large' },
      flavour: { value: 'pepperoni' },
      address: { value: '5 Main St' },
    });
  });

  it('should read number words, synonyms with typos and accents in Spanish', async () => {
    const r = await u.understand(input('quiero tres margaritas pequeñas', { locale: 'es' }));
    expect(r.slots).toMatchObject({
      quantity: { value: 3 },
      flavour: { value: 'margherita' },
      size: { value: 'small' },
    });
    const typo = await u.understand(input('a dozen peperoni pizzas, grnde'));
    expect(typo.slots).toMatchObject({
      quantity: { value: 12 },
      flavour: { value: 'pepperoni' },
      size: { value: 'large' },
    });
  });

  it('should resolve relative dates and times in the given timezone', async () => {
    const slots = [
      { name: 'day', kind: 'date' as const },
      { name: 'at', kind: 'time' as const },
    ];
    const r = await u.understand(input('tomorrow at 5pm', { slots }));
    expect(r.slots).toMatchObject({ day: { value: '2026-03-05' }, at: { value: '17:00' } });
    // 23:30 in New York on the 3rd is already the 4th in UTC: "tomorrow" there is the 4th.
    const ny = await u.understand(
      input('tomorrow', {
        slots,
        timezone: 'America/New_York',
        now: Date.parse('2026-03-04T04:30:00Z'),
      }),
    );
    expect(ny.slots?.['day']?.value).toBe('2026-03-04');
    const es = await u.understand(input('el viernes a las 7 de la tarde', { slots, locale: 'es' }));
    expect(es.slots).toMatchObject({ day: { value: '2026-03-06' }, at: { value: '19:00' } });
  });

  it('should read emails, phone numbers as E.164 and amounts with their currency', async () => {
    const slots = [
      { name: 'email', kind: 'email' as const },
      { name: 'phone', kind: 'phone' as const },
      { name: 'tip', kind: 'amount' as const },
    ];
    const r = await u.understand(
      input('I am Jo@Example.com, call 07911 123456, tip £2.50', { slots }),
    );
    expect(r.slots).toMatchObject({
      email: { value: 'jo@example.com' },
      phone: { value: '+447911123456' },
      tip: { value: 2.5, unit: 'GBP' },
    });
    const es = await u.understand(input('mi número es 612 345 678', { slots, locale: 'es-ES' }));
    expect(es.slots?.['phone']?.value).toBe('+34612345678');
  });

  it('should detect a correction of a value already filled', async () => {
    const filled = { quantity: 2, size: 'small' };
    const three = await u.understand(input('no, make it 3', { filled }));
    expect(three.correction).toBe(true);
    expect(three.slots?.['quantity']?.value).toBe(3);
    const grande = await u.understand(input('mejor cambia a grande', { filled, locale: 'es' }));
    expect(grande.correction).toBe(true);
    expect(grande.slots?.['size']?.value).toBe('large');
    const actually = await u.understand(input('actually two', { filled: { quantity: 4 } }));
    expect(actually.slots?.['quantity']?.value).toBe(2);
    const plain = await u.understand(input('3', { filled }));
    expect(plain.correction).toBeUndefined();
  });

  it('should detect a request for a person in English and Spanish', async () => {
    for (const [text, locale] of [
      ['can I talk to a person', 'en'],
      ['I want to speak to a human please', 'en'],
      ['quiero hablar con una persona', 'es'],
    ] as const) {
      expect((await u.understand(input(text, { locale }))).handoff, text).toBe(true);
    }
    expect(
      (await u.understand(input('necesito un taxi', { locale: 'es' }))).handoff,
    ).toBeUndefined();
  });

  it('should let an intent of the bot outrank the built-in handoff phrases', async () => {
    const agent: IntentSpec = {
      id: 'agent',
      examples: { en: ['talk to a person', 'speak to a human'] },
    };
    const r = await u.understand(input('talk to a person', { intents: [...intents, agent] }));
    expect(r.intent?.id).toBe('agent');
    expect(r.handoff).toBeUndefined();
  });

  it('should answer from knowledge only when no intent is confident and the docs answer', async () => {
    const knowledge = loadKnowledge([
      {
        path: 'faq.md',
        content:
          '# Delivery\n## Areas\nWe deliver to Headingley, Hyde Park and Meanwood.\n# Allergens\nOur dough contains gluten.',
      },
    ]);
    const k = createBuiltinUnderstander({ knowledge });
    const hoursOnly = { intents: intents.filter((i) => i.id === 'hours'), knowledge: true };
    const yes = await k.understand(input('do you deliver to Headingley?', hoursOnly));
    expect(yes.knowledge?.sources).toEqual([{ file: 'faq.md', heading: 'Delivery > Areas' }]);
    expect(yes.knowledge?.text).toContain('Headingley');
    const no = await k.understand(input('do you deliver to Manchester?', hoursOnly));
    expect(no.knowledge).toBeUndefined();
    const off = await k.understand(
      input('do you deliver to Headingley?', { ...hoursOnly, knowledge: false }),
    );
    expect(off.knowledge).toBeUndefined();
    // A confident intent wins over knowledge.
    const hours = await k.understand(input('what time do you open', hoursOnly));
    expect(hours.intent?.id).toBe('hours');
    expect(hours.knowledge).toBeUndefined();
  });

  it('should answer a question from knowledge rather than an intent sharing a word with it', async () => {
    const knowledge = loadKnowledge([
      {
        path: 'faq.md',
        content: '# Delivery\n## Areas\nWe deliver to Headingley, Hyde Park and Meanwood.',
      },
    ]);
    const k = createBuiltinUnderstander({ knowledge });
    const order: IntentSpec = {
      id: 'order',
      examples: {
        en: ['deliver a pizza to my house', 'I want a pizza delivered', 'send two pizzas to Leeds'],
      },
      slots: [{ name: 'address', kind: 'text' }],
    };
    const asked = await k.understand(
      input('do you deliver to Headingley?', { intents: [order], knowledge: true }),
    );
    expect(asked.knowledge?.sources).toEqual([{ file: 'faq.md', heading: 'Delivery > Areas' }]);
    expect(asked.intent).toBeUndefined();
    expect(asked.alternatives ?? []).not.toContainEqual(expect.objectContaining({ id: 'order' }));
    const told = await k.understand(
      input('deliver a pizza to Headingley', { intents: [order], knowledge: true }),
    );
    expect(told.intent?.id).toBe('order');
    expect(told.knowledge).toBeUndefined();
  });

  it("should answer a request for a person as the bot's own person intent", async () => {
    const human: IntentSpec = {
      id: 'human',
      examples: { en: ['talk to a person', 'I want a human'], es: ['hablar con alguien'] },
    };
    const r = await u.understand(
      input('let me talk to a real person', { intents: [...intents, human] }),
    );
    expect(r.intent?.id).toBe('human');
    expect(r.intent?.confidence).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
    expect(r.handoff).toBeUndefined();
    // Without such an intent it is the built-in handoff.
    expect((await u.understand(input('let me talk to a real person'))).handoff).toBe(true);
  });

  it('should read a place after in, near and en, up to since/desde', async () => {
    const area: IntentSpec = {
      id: 'signal',
      examples: { en: ['no signal at home'], es: ['no tengo cobertura'] },
      slots: [{ name: 'area', kind: 'text' }],
    };
    const en = await u.understand(
      input('no signal in Brixton since yesterday', { intents: [area] }),
    );
    expect(en.slots?.['area']?.value).toBe('Brixton');
    const es = await u.understand(
      input('no tengo cobertura en Vallecas desde ayer', { intents: [area], locale: 'es' }),
    );
    expect(es.slots?.['area']?.value).toBe('Vallecas');
  });

  it('should reuse the index when the same intents come in a new array', async () => {
    const fresh = createBuiltinUnderstander();
    await fresh.understand(input('where is my order'));
    const again = await fresh.understand(input('where is my order', { intents: [...intents] }));
    expect(again.intent?.id).toBe('track');
    expect(again.ms).toBeLessThan(50);
  });
});
