import { afterEach, expect, it } from 'vitest';
import { createTestConversation, expectSent, type TestConversation } from 'switchboard/testing';
import { bot } from './bot.js';

let chat: TestConversation;
afterEach(() => chat?.close());

it('should greet with a lucky number', async () => {
  chat = await createTestConversation(bot);
  await chat.say('hello');
  expectSent(chat).text("Hi! What's your name?");
  await chat.say('Ada');
  expectSent(chat).text('Nice to meet you, Ada. Your lucky number is 21.');
  expect(await chat.vars()).toMatchObject({ name: 'Ada', number: 21 });
});
