import { afterEach, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/define-bot.js';
import { defineFlow, type FlowDefinitionInput } from '../../src/flows/index.js';
import { createTestConversation, type TestConversation } from '../../src/testing/index.js';
import { scripted, type ScriptedUnderstander } from '../../src/understand/scripted.js';

/** A debounce state that collects a story, and a menu that debounces typed texts. */
const flow: FlowDefinitionInput = {
  id: 'debounced',
  version: 1,
  start: 'menu',
  intents: {
    track: { examples: { en: ['where is my order'] }, goto: 'tracking' },
    order: { examples: { en: ['I want a pizza'] }, slots: { qty: 'integer' }, goto: 'askQty' },
  },
  states: {
    menu: {
      menu: { body: 'Pick one', options: [{ id: 'story', title: 'Complain', goto: 'story' }] },
      debounce: '3s',
      otherwise: { say: 'Sorry?' },
    },
    story: { ask: { prompt: 'Tell me', var: 'story', goto: 'done' }, debounce: '3s' },
    askQty: {
      ask: {
        prompt: 'How many?',
        var: 'qty',
        validate: { kind: 'number', integer: true },
        goto: 'done',
      },
    },
    tracking: { say: 'Tracking.', final: true },
    done: { say: 'Noted: {{story}} {{qty}}', final: true },
  },
};

describe('understanding in debounce states', () => {
  let chat: TestConversation;
  let u: ScriptedUnderstander;
  afterEach(async () => chat.close());

  async function start(): Promise<void> {
    u = scripted({
      'hello\nwhere is it': { intent: 'track', confidence: 0.9 },
      'my order\nnever came': {},
      'I want pizza\ntwo of them': { intent: 'order', confidence: 0.9, slots: { qty: 2 } },
    });
    chat = await createTestConversation(defineBot({ flows: [defineFlow(flow)] }), {
      understander: u,
    });
    await chat.say('hi');
    chat.turn();
  }
  const said = (): string[] => chat.turn().map((m) => (m.type === 'text' ? m.text : m.type));

  it('should understand the collected texts together when the burst ends, once', async () => {
    await start();
    const before = u.calls.length;
    await chat.say('hello');
    await chat.say('where is it');
    // Nothing is understood while the texts are collected.
    expect(u.calls.length).toBe(before);
    await chat.advance('3s');
    expect(said()).toEqual(['Tracking.']);
    expect(u.calls.map((c) => c.text).slice(before)).toEqual(['hello\nwhere is it']);
    expect(chat.understood().at(-1)?.intent).toBe('track');
  });

  it('should carry slots heard in a burst to the asks they answer', async () => {
    await start();
    await chat.say('I want pizza');
    await chat.say('two of them');
    await chat.advance('3s');
    expect(said()).toEqual(['Noted:  2']);
  });

  it("should let a free-text ask's burst be captured when nothing outranks it", async () => {
    await start();
    await chat.tap('Complain');
    chat.turn();
    await chat.say('my order');
    await chat.say('never came');
    await chat.advance('3s');
    expect(said()).toEqual(['Noted: my order\nnever came ']);
    expect(u.calls.at(-1)?.text).toBe('my order\nnever came');
  });
});
