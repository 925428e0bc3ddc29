import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestConversation, expectSent, type TestConversation } from 'switchboard/testing';
import { bot } from './bot.js';

/**
 * Transcripts of the pizza bot as it runs: the builtin understander reads every sentence
 * (scripted.test.ts shows the same bot with a scripted understander).
 */
describe('pizza-order', () => {
  let chat: TestConversation;
  // The bot names no understander: the default one, the builtin (offline), understands.
  // LLM_BASE_URL is cleared so that a developer's model setting does not change the run.
  beforeEach(() => vi.stubEnv('LLM_BASE_URL', ''));
  afterEach(async () => {
    vi.unstubAllEnvs();
    await chat.close();
  });

  it('should take a whole order in one sentence, correct it and place it (English)', async () => {
    chat = await createTestConversation(bot);
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
    chat = await createTestConversation(bot);
    await chat.say('hi');
    expectSent(chat).buttons(['Order a pizza', 'Talk to a person']);
    await chat.say('do you deliver to Headingley?');
    expect(chat.turn().map((m) => m.type)).toEqual(['text', 'buttons']);
    expect(chat.turn()[0]).toMatchObject({ text: expect.stringContaining('Headingley') as string });
    await chat.say('is there gluten in the base?');
    expect(chat.turn()[0]).toMatchObject({
      text: 'Every base contains wheat (gluten). We do not make gluten-free bases.',
    });
    await chat.say('do you sell sushi?');
    expect(chat.lastSent()).toMatchObject({
      text: "Sorry, I don't know that. What would you like to do?",
    });
    expect(await chat.state()).toBe('unsure');
    expect(chat.understood().map((u) => u.understanding.knowledge?.sources[0]?.heading)).toEqual([
      undefined,
      'Delivery > Areas',
      'Allergens > Gluten',
      undefined,
    ]);
    expect(new Set(chat.understood().map((u) => u.source))).toEqual(new Set(['builtin']));
  });

  it('should hand off when asked, and stay silent while a person has the conversation', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hi');
    await chat.say('I want to talk to a person');
    expectSent(chat).text("I'm getting a person for you.");
    expect(await chat.state()).toBe('agent');
    await chat.say('hello?');
    expect(chat.turn()).toEqual([]);
  });

  it('should take, correct and place an order in Spanish', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hola');
    expectSent(chat).buttons(['Pedir una pizza', 'Hablar con alguien']);
    await chat.say('¿lleváis a Headingley?');
    expect(chat.turn()[0]).toMatchObject({
      text: expect.stringContaining('repartimos en el centro de Leeds') as string,
    });
    await chat.say('¿la base lleva gluten?');
    expect(chat.turn()[0]).toMatchObject({
      text: 'Todas las bases llevan trigo (gluten). No hacemos bases sin gluten.',
    });
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
    chat = await createTestConversation(bot);
    await chat.say('hola');
    await chat.say('quiero hablar con una persona');
    expectSent(chat).text('Te paso con una persona.');
    expect(await chat.humanOwned()).toBe(false);
    expect(await chat.state()).toBe('agent');
  });
});
