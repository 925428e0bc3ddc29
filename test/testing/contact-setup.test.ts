import { afterEach, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/index.js';
import { defineFlow } from '../../src/flows/index.js';
import {
  createTestConversation,
  expectSent,
  type TestConversation,
} from '../../src/testing/index.js';

const shop = defineFlow({
  id: 'shop',
  version: 1,
  start: 'welcome',
  locales: ['en', 'es'],
  contact: { locale: null, tier: 'basic' },
  translations: {
    es: {
      'Welcome, {{contact.tier}} member!': '¡Bienvenido, socio {{contact.tier}}!',
      'Pick a colour': 'Elige un color',
      Red: 'Rojo',
      Blue: 'Azul',
      Español: 'Español',
      'Thanks!': '¡Gracias!',
    },
  },
  states: {
    welcome: {
      say: 'Welcome, {{contact.tier}} member!',
      menu: {
        body: 'Pick a colour',
        options: [
          { id: 'red', title: 'Red', goto: 'done' },
          { id: 'blue', title: 'Blue', goto: 'done' },
          { id: 'es', title: 'Español', set: { 'contact.locale': 'es' }, goto: 'welcome' },
        ],
      },
    },
    done: { say: 'Thanks!', final: true },
  },
});
const bot = defineBot({ flows: [shop] });

describe('createTestConversation contact', () => {
  let chat: TestConversation;
  afterEach(async () => chat.close());

  it('should speak the contact locale set up front from the first message', async () => {
    chat = await createTestConversation(bot, {
      contact: { phone: '+15557000001', name: 'Lucía', locale: 'es', memory: { tier: 'gold' } },
    });
    expect(await chat.contactMemory()).toEqual({ locale: 'es', tier: 'gold' });
    await chat.say('hola');
    expectSent(chat).text('¡Bienvenido, socio gold!');
    expectSent(chat).buttons(['Rojo', 'Azul', 'Español'], 'Elige un color');
    await chat.tap('Azul');
    expectSent(chat).text('¡Gracias!');
  });

  it('should take a region locale (es-MX) as the flow language it starts with', async () => {
    chat = await createTestConversation(bot, { contact: { locale: 'es-MX' } });
    await chat.say('hola');
    expectSent(chat).text('¡Bienvenido, socio basic!');
  });

  it('should speak the first locale without contact setup', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hi');
    expectSent(chat).text('Welcome, basic member!');
  });

  it('should need the translated title to tap after a language switch, and list what is there', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hi');
    await chat.tap('Español');
    expectSent(chat).buttons(['Rojo', 'Azul', 'Español']);
    await expect(chat.tap('Red')).rejects.toThrow(
      /tap\("Red"\): no option with that title or id in the last menu; its titles are "Rojo", "Azul", "Español" \(as sent: in the contact's language after a switch\) and its ids "red", "blue", "es"/,
    );
    await chat.tap('red'); // the flow's option id works in any language
    expectSent(chat).text('¡Gracias!');
    expect(await chat.contactMemory()).toMatchObject({ locale: 'es' });
  });
});
