import { describe, expect, it } from 'vitest';
import { createBuiltinUnderstander } from '../../../src/understand/builtin/index.js';
import { asksForCallback, asksForPerson } from '../../../src/understand/builtin/person-request.js';
import type { IntentSpec, UnderstandInput } from '../../../src/understand/types.js';

const assembly: IntentSpec = {
  id: 'assembly',
  examples: {
    en: ['can you assemble my wardrobe', 'I need help putting the bed together'],
    es: ['me montáis el armario'],
  },
};
const agent: IntentSpec = {
  id: 'agent',
  examples: { en: ['talk to a person', 'speak to a human'], es: ['hablar con alguien'] },
};

function input(text: string, intents: IntentSpec[], locale = 'en'): UnderstandInput {
  return { text, locale, timezone: 'UTC', now: 0, intents, slots: [] };
}

describe('asksForPerson', () => {
  it.each([
    "This isn't helping. Agent please.",
    'put me through to the front desk',
    'connect me with customer support',
    'this bot is useless, get me someone',
    'necesito hablar con un humano, no con una maquina',
    'ponme con un agnte por favor',
    'is there a real person there',
    'atención al cliente',
    'I need a human not a bot',
  ])('should read "%s" as a request for a person', (text) => {
    expect(asksForPerson(text)).toBe(true);
  });

  it.each([
    "can someone fit the wardrobe doors, they're really hard",
    'I need someone to assemble my wardrobe',
    'get me someone to fit it',
    '¿eres una persona de verdad?',
    'somos 3 personas',
    'a room for one person',
    'wheres my stuff',
    "i'd like a personal trainer",
  ])('should not read "%s" as one', (text) => {
    expect(asksForPerson(text)).toBe(false);
  });
});

describe('asksForCallback', () => {
  it.each([
    ["call me please, I'd rather explain on the phone", true],
    ['ring me on 07700 900456', true],
    ['me podéis llamar al 612 345 678', true],
    ['llamadme cuando podáis', true],
    ['call me a taxi', false],
    ['I called the shop yesterday', false],
  ])('should read "%s" as asking to be called back: %s', (text, want) => {
    expect(asksForCallback(text)).toBe(want);
  });
});

describe('builtin understander and requests for a person', () => {
  const u = createBuiltinUnderstander();

  it('should hand off a request no built-in phrase is close to', async () => {
    const r = await u.understand(input('put me through to the front desk', [assembly]));
    expect(r.handoff).toBe(true);
    const es = await u.understand(
      input('necesito hablar con un humano, no con una maquina', [assembly], 'es'),
    );
    expect(es.handoff).toBe(true);
  });

  it("should answer it as the bot's own person intent when it has one", async () => {
    const r = await u.understand(input('ponme con un agnte por favor', [assembly, agent], 'es'));
    expect(r.intent?.id).toBe('agent');
    expect(r.intent?.confidence).toBeGreaterThanOrEqual(0.9);
    expect(r.handoff).toBeUndefined();
  });

  it("should find the bot's person intent from examples the words read as asking", async () => {
    const desk: IntentSpec = {
      id: 'desk',
      examples: {
        en: ['front desk please', 'the front desk, now'],
        es: ['recepción por favor'],
      },
    };
    const r = await u.understand(input('Agent please.', [assembly, desk]));
    expect(r.intent?.id).toBe('desk');
    expect(r.handoff).toBeUndefined();
  });

  it('should answer a callback as a person request only when no intent is confident', async () => {
    const damaged: IntentSpec = {
      id: 'damaged',
      examples: {
        en: ['my sofa arrived broken', 'the table is damaged', 'the wardrobe door is broken'],
      },
    };
    const alone = await u.understand(
      input('call me please, I would rather explain', [damaged, agent]),
    );
    expect(alone.intent?.id).toBe('agent');
    const told = await u.understand(
      input('my sofa arrived broken, call me please', [damaged, agent]),
    );
    expect(told.intent?.id).toBe('damaged');
  });

  it('should leave a person doing a service to the intent for that service', async () => {
    const r = await u.understand(input('can someone assemble my wardrobe', [assembly, agent]));
    expect(r.intent?.id).toBe('assembly');
    expect(r.handoff).toBeUndefined();
  });
});
