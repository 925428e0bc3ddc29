import { afterEach, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/index.js';
import { defineFlow } from '../../src/flows/index.js';
import {
  createTestConversation,
  expectSent,
  ExpectationError,
  type TestConversation,
} from '../../src/testing/index.js';

const echo = defineFlow({
  id: 'kit',
  version: 1,
  start: 'menu',
  fallback: 'Text only, please.',
  states: {
    menu: {
      menu: {
        body: 'Choose',
        options: [
          { id: 'red', title: 'Red', goto: 'picked' },
          { id: 'blue', title: 'Blue', goto: 'picked' },
        ],
      },
      timeout: { after: '1h', goto: 'late' },
    },
    picked: { say: 'You picked it.', goto: 'ask' },
    ask: { ask: { prompt: 'Your name?', var: 'name', goto: 'done' } },
    done: { say: 'Bye {{name}}', final: true },
    late: { say: 'Too late.', final: true },
  },
});
const bot = defineBot({ flows: [echo] });

describe('createTestConversation', () => {
  let chat: TestConversation;
  afterEach(async () => chat.close());

  it('should tap an option by title or by its flow id and keep variables', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hi');
    expectSent(chat).buttons(['Red', 'Blue'], 'Choose');
    expect(await chat.state()).toBe('menu');
    await chat.tap('blue');
    expectSent(chat).text('You picked it.');
    expect(await chat.state()).toBe('ask');
    await chat.say('Grace');
    expectSent(chat).text('Bye Grace');
    expect(chat.sent().map((m) => m.type)).toEqual(['buttons', 'text', 'text', 'text']);
  });

  it('should fail a tap on an unknown option with the transcript', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hi');
    await expect(chat.tap('Green')).rejects.toThrow(
      /no option with that title or id.*"Red", "Blue"[\s\S]*Transcript:[\s\S]*you hi/,
    );
  });

  it('should fail an expectation with what was sent and the transcript', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hi');
    let error: unknown;
    try {
      expectSent(chat).text('nope');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExpectationError);
    expect(String((error as Error).message)).toMatch(
      /expected the bot to send a text matching "nope" in the last turn; it sent:\n {2}Choose\n {4}\[1\] Red/,
    );
    expect(String((error as Error).message)).toContain('Transcript:');
  });

  it('should send media, locations, contacts and unsupported messages as the contact', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hi');
    for (const send of [
      () => chat.sendImage('cat'),
      () => chat.sendLocation(1, 2),
      () => chat.sendContact(),
      () => chat.sendUnsupported(),
    ]) {
      await send();
      expectSent(chat).text('Text only, please.');
    }
    const inbound = chat.harness.sandbox.control.conversations()[0];
    expect(inbound?.phoneNumber).toBe('+15551230001');
  });

  it('should fire timers when the clock is advanced', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hi');
    await chat.advance('59m');
    expectSent(chat).nothing();
    await chat.advance('2m');
    expectSent(chat).text('Too late.');
    expect(chat.transcript()).toMatch(/clock advanced by 2m[\s\S]*Too late\./);
  });

  it('should keep the bot quiet while a person owns the conversation', async () => {
    chat = await createTestConversation(bot);
    await chat.say('hi');
    await chat.takeOver();
    expect(await chat.humanOwned()).toBe(true);
    await chat.tap('Red');
    expectSent(chat).nothing();
    await chat.release();
    expect(await chat.humanOwned()).toBe(false);
  });

  it('should load a bot from a flow file path', async () => {
    chat = await createTestConversation('test/fixtures/flows/hello.json');
    await chat.say('hi');
    expect(chat.sent().length).toBeGreaterThan(0);
  });
});
