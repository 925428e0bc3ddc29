import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestConversation,
  expectSent,
  scripted,
  type ScriptedUnderstander,
  type TestConversation,
} from 'switchboard/testing';
import { bot } from './bot.js';

/**
 * What an understander proposes for the texts of these transcripts. Scripted while the
 * builtin understander is not part of this build; the flow decides what each proposal does.
 */
function understander(): ScriptedUnderstander {
  return scripted({
    '2 large pepperoni to 5 Main St': {
      intent: 'order',
      confidence: 0.92,
      slots: { qty: 2, size: 'large', pizza: 'pepperoni', address: '5 Main St' },
    },
    'no, make it three': { correction: true, slots: { qty: 3 } },
    'do you deliver to Headingley?': {
      knowledge: {
        text: 'We deliver to Leeds city centre, Headingley, Hyde Park and Chapel Allerton.',
        confidence: 0.81,
        sources: [{ file: 'knowledge/delivery.md', heading: 'Delivery > Areas' }],
      },
    },
    'is there gluten in the base?': {
      knowledge: {
        text: 'Every base contains wheat (gluten). We do not make gluten-free bases.',
        confidence: 0.77,
        sources: [{ file: 'knowledge/allergens.md', heading: 'Allergens > Gluten' }],
      },
    },
    'do you sell sushi?': {},
    'I want to talk to a person': { handoff: true, intent: 'human', confidence: 0.95 },
    'dos pepperoni grandes a Calle Mayor 5': {
      intent: 'order',
      confidence: 0.88,
      slots: { qty: 2, size: 'grande', pizza: 'pepperoni', address: 'Calle Mayor 5' },
    },
    'no, que sean tres': { correction: true, slots: { qty: 3 } },
    '¿lleváis a Headingley?': {
      knowledge: {
        text: 'Repartimos en el centro de Leeds, Headingley, Hyde Park y Chapel Allerton.',
        confidence: 0.7,
        sources: [{ file: 'knowledge/delivery.md', heading: 'Delivery > Areas' }],
      },
    },
    'quiero hablar con una persona': { handoff: true },
  });
}

describe('pizza-order', () => {
  let chat: TestConversation;
  afterEach(async () => chat.close());

  it('should take a whole order in one sentence, correct it and place it (English)', async () => {
    chat = await createTestConversation(bot, { understander: understander() });
    await chat.say('2 large pepperoni to 5 Main St');
    expectSent(chat).buttons(['Yes, place it', 'Start again']);
    expect(chat.lastSent()).toMatchObject({
      text: '2 × large pepperoni to 5 Main St. Shall I place the order?',
    });
    await chat.say('no, make it three');
    expect(chat.lastSent()).toMatchObject({
      text: '3 × large pepperoni to 5 Main St. Shall I place the order?',
    });
    await chat.tap('Yes, place it');
    expectSent(chat).text('Order placed! Your pizza is on its way.');
    expect(chat.understood().map((u) => [u.state, u.intent ?? null, u.slots])).toEqual([
      [null, 'order', { qty: 2, size: 'large', pizza: 'pepperoni', address: '5 Main St' }],
      ['confirm', null, { qty: 3 }],
    ]);
  });

  it('should answer delivery and allergen questions from knowledge, and say it does not know the rest', async () => {
    chat = await createTestConversation(bot, { understander: understander() });
    await chat.say('hi');
    expectSent(chat).buttons(['Order a pizza', 'Talk to a person']);
    await chat.say('do you deliver to Headingley?');
    expect(chat.turn().map((m) => m.type)).toEqual(['text', 'buttons']);
    expect(chat.turn()[0]).toMatchObject({ text: expect.stringContaining('Headingley') as string });
    await chat.say('is there gluten in the base?');
    expect(chat.turn()[0]).toMatchObject({ text: expect.stringContaining('gluten') as string });
    await chat.say('do you sell sushi?');
    expect(chat.lastSent()).toMatchObject({
      text: "Sorry, I don't know that. What would you like to do?",
    });
    expect(await chat.state()).toBe('unsure');
  });

  it('should hand off when asked, and stay silent while a person has the conversation', async () => {
    chat = await createTestConversation(bot, { understander: understander() });
    await chat.say('hi');
    await chat.say('I want to talk to a person');
    expectSent(chat).text("I'm getting a person for you.");
    expect(await chat.state()).toBe('agent');
    await chat.say('hello?');
    expect(chat.turn()).toEqual([]);
  });

  it('should take, correct and place an order in Spanish', async () => {
    chat = await createTestConversation(bot, { understander: understander() });
    await chat.say('hola');
    expectSent(chat).buttons(['Pedir una pizza', 'Hablar con alguien']);
    await chat.say('¿lleváis a Headingley?');
    expect(chat.turn()[0]).toMatchObject({ text: expect.stringContaining('Repartimos') as string });
    await chat.say('dos pepperoni grandes a Calle Mayor 5');
    expect(chat.lastSent()).toMatchObject({
      text: '2 × pepperoni large a Calle Mayor 5. ¿Hago el pedido?',
    });
    await chat.say('no, que sean tres');
    expect(chat.lastSent()).toMatchObject({
      text: '3 × pepperoni large a Calle Mayor 5. ¿Hago el pedido?',
    });
    await chat.tap('Sí, pídela');
    expectSent(chat).text('¡Pedido hecho! Tu pizza va en camino.');
  });

  it('should hand off in Spanish', async () => {
    chat = await createTestConversation(bot, { understander: understander() });
    await chat.say('hola');
    await chat.say('quiero hablar con una persona');
    expectSent(chat).text('Te paso con una persona.');
    expect(await chat.humanOwned()).toBe(false);
    expect(await chat.state()).toBe('agent');
  });
});
