import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestConversation, expectSent, type TestConversation } from 'switchboard/testing';
import { bot, handoffRequests } from './bot.js';

const MENU = ['Common questions', 'Talk to a person', 'Nothing, thanks'];

describe('support-desk', () => {
  let chat: TestConversation;
  beforeEach(async () => {
    chat = await createTestConversation(bot);
  });
  afterEach(async () => chat.close());

  it('should greet the contact by name and show the menu as reply buttons', async () => {
    await chat.say('hello');
    expectSent(chat).text('Hi Ada Lovelace!');
    expectSent(chat).buttons(MENU, /How can I help/);
    expect(await chat.state()).toBe('welcome');
  });

  it('should answer a question picked from the FAQ list', async () => {
    await chat.say('hello');
    await chat.tap('Common questions');
    expectSent(chat).list(
      ['Opening hours', 'Shipping times', 'Returns', 'Back to the menu'],
      'Pick a question.',
    );
    await chat.tap('Shipping times');
    expectSent(chat).text(/ship within 1 business day/);
    expectSent(chat).buttons(['Yes, show the menu', 'Talk to a person', "No, that's all"]);
    expect(await chat.state()).toBe('more');
  });

  it('should match typed text to an option', async () => {
    await chat.say('hello');
    await chat.say('faq');
    expectSent(chat).list(['Opening hours', 'Shipping times', 'Returns', 'Back to the menu']);
  });

  it('should hand off to a person, stay silent while they own the chat, and resume on release', async () => {
    await chat.say('hello');
    await chat.tap('Talk to a person');
    expectSent(chat).text(/asking a teammate/);
    expect(handoffRequests.at(-1)).toEqual({ contact: 'Ada Lovelace', phone: '+15551230001' });
    await chat.takeOver();
    expect(await chat.humanOwned()).toBe(true);
    await chat.say('hello? is anyone there');
    expectSent(chat).nothing();
    await chat.release();
    expectSent(chat).text("I'm back. Thanks for your patience!");
    expectSent(chat).buttons(['Yes, show the menu', 'Talk to a person', "No, that's all"]);
  });

  it('should go back to the menu on "menu" and say goodbye on "stop" from any state', async () => {
    await chat.say('hello');
    await chat.tap('Common questions');
    await chat.say('menu');
    expectSent(chat).buttons(MENU);
    await chat.say('stop');
    expectSent(chat).text('Thanks for contacting us, Ada Lovelace. Bye!');
  });

  it('should re-prompt on unclear text and answer non-text messages with the fallback', async () => {
    await chat.say('hello');
    await chat.say('what is the meaning of life');
    expectSent(chat).text(/Please tap one of the options/);
    await chat.sendImage('a photo');
    expectSent(chat).text(/I can only read text here/);
  });

  it('should close the chat after 30 minutes without an answer', async () => {
    await chat.say('hello');
    await chat.advance('31m');
    expectSent(chat).text(/close this chat for now/);
  });
});
