import { afterEach, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/index.js';
import { defineFlow } from '../../src/flows/index.js';
import { createTestConversation, type TestConversation } from '../../src/testing/index.js';
import { parseTestOptions } from '../../src/testing/test-options.js';

const hello = defineFlow({
  id: 'hello',
  version: 1,
  start: 'hi',
  states: { hi: { say: 'Hi {{contact.name}}', final: true } },
});
const bot = defineBot({ flows: [hello] });

describe('parseTestOptions', () => {
  it('should explain that start is a clock time when it is given a flow id', () => {
    expect(() => parseTestOptions({ start: 'welcome' })).toThrow(
      /options\.start: start is the fake clock's start time \(a Date, epoch ms or ISO string.*to choose the flow a new conversation enters, use `flow`/,
    );
  });

  it('should accept every form of start time and keep the default', () => {
    const at = Date.parse('2026-05-01T08:00:00Z');
    expect(parseTestOptions({ start: at }).startMs).toBe(at);
    expect(parseTestOptions({ start: new Date(at) }).startMs).toBe(at);
    expect(parseTestOptions({ start: '2026-05-01T08:00:00Z' }).startMs).toBe(at);
    expect(parseTestOptions({}).startMs).toBe(Date.parse('2026-03-02T09:00:00Z'));
    expect(() => parseTestOptions({ start: new Date(Number.NaN) })).toThrow(/options\.start/);
  });

  it('should name every wrong option by its path', () => {
    let message = '';
    try {
      parseTestOptions({
        flow: 3,
        contact: { phone: '555', locale: 7, memory: { tier: { nested: true } } },
        handlerWaitMs: -1,
        logLevel: 'loud',
        strat: 1,
      });
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/^createTestConversation: invalid options\n/);
    expect(message).toContain('options.flow: flow is the id of a flow of the bot');
    expect(message).toContain('options.contact.phone: phone must be an E.164 number');
    expect(message).toContain('options.contact.locale: ');
    expect(message).toContain(
      'options.contact.memory.tier: a memory value is a string, number, boolean or null',
    );
    expect(message).toContain('options.handlerWaitMs: ');
    expect(message).toContain('options.logLevel: ');
    expect(message).toMatch(/options: Unrecognized key: "strat"/);
  });

  it('should put the locale into the contact memory set up front', () => {
    expect(parseTestOptions({ contact: { locale: 'es', memory: { tier: 'gold' } } })).toMatchObject(
      { contact: { phone: '+15551230001', memory: { tier: 'gold', locale: 'es' } } },
    );
  });
});

describe('createTestConversation options', () => {
  let chat: TestConversation | undefined;
  afterEach(async () => {
    await chat?.close();
    chat = undefined;
  });

  it('should refuse a wrong option before starting anything', async () => {
    await expect(createTestConversation(bot, { start: 'welcome' as never })).rejects.toThrow(
      /options\.start: start is the fake clock's start time/,
    );
  });

  it('should refuse a flow the bot does not have, listing its flows', async () => {
    await expect(createTestConversation(bot, { flow: 'booking' })).rejects.toThrow(
      'options.flow: the bot has no flow "booking" (its flows: hello)',
    );
  });

  it('should start the clock at start and name the contact', async () => {
    chat = await createTestConversation(bot, {
      start: '2026-07-01T12:00:00Z',
      contact: { phone: '+15557654321', name: 'Sofía' },
    });
    expect(chat.harness.clock.now()).toBe(Date.parse('2026-07-01T12:00:00Z'));
    await chat.say('hola');
    expect(chat.lastSent()).toMatchObject({ type: 'text', text: 'Hi Sofía' });
    expect(chat.phone).toBe('+15557654321');
  });
});
