import { afterEach, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/define-bot.js';
import { defineFlow, type FlowDefinitionInput } from '../../src/flows/index.js';
import { createTestConversation, type TestConversation } from '../../src/testing/index.js';
import { expectSent } from '../../src/testing/expect-sent.js';
import {
  scripted,
  type ScriptedEntry,
  type ScriptedUnderstander,
} from '../../src/understand/scripted.js';

/** A flow with a menu, a validated ask, a free-text ask, global and state intents. */
const flow: FlowDefinitionInput = {
  id: 'precedence',
  version: 1,
  start: 'menu',
  triggers: [{ keywords: ['restart'], goto: 'menu' }],
  intents: {
    order: {
      title: 'Order',
      examples: { en: ['I want to order'] },
      slots: { qty: 'integer', address: 'text' },
      goto: 'askQty',
    },
    track: { title: 'Track an order', examples: { en: ['where is my order'] }, goto: 'tracking' },
    cancel: { examples: { en: ['cancel'] }, goto: 'cancelled' },
    yes: { examples: { en: ['yes please'] } },
  },
  understand: { handoff: 'agent' },
  states: {
    menu: {
      menu: {
        body: 'Pick one',
        options: [
          { id: 'status', title: 'Status', keywords: ['status'], goto: 'tracking' },
          { id: 'order', title: 'Order', goto: 'askQty' },
        ],
      },
      understand: { intents: { yes: 'confirmed' } },
      otherwise: { say: 'Sorry?' },
    },
    askQty: {
      ask: {
        prompt: 'How many?',
        var: 'qty',
        validate: { kind: 'number', integer: true, min: 1, max: 9 },
        goto: 'askAddress',
      },
    },
    askAddress: { ask: { prompt: 'Address?', var: 'address', goto: 'review' } },
    review: {
      menu: {
        body: '{{qty}} to {{address}}?',
        options: [{ id: 'ok', title: 'OK', goto: 'confirmed' }],
      },
    },
    tracking: { say: 'Tracking.', final: true },
    cancelled: { say: 'Cancelled.', final: true },
    confirmed: { say: 'Confirmed.', final: true },
    agent: { say: 'A person will answer.', handoff: { resume: 'menu' } },
  },
};

const RULES: Record<string, ScriptedEntry> = {
  status: 'track',
  restart: 'cancel',
  '3': { intent: 'cancel', confidence: 0.99 },
  'three please': { slots: { qty: 3 } },
  'three to 5 Main St': { slots: { qty: 3, address: '5 Main St' } },
  'no, make it 4': { correction: true, slots: { qty: 4 } },
  '5 Main St': { slots: { address: '5 Main St' } },
  'cancel it': { intent: 'cancel', confidence: 0.9 },
  'cancel maybe': { intent: 'cancel', confidence: 0.4 },
  'yes please': {
    intent: 'yes',
    confidence: 0.9,
    alternatives: [{ id: 'cancel', confidence: 0.7 }],
  },
  'order or track': {
    intent: 'order',
    confidence: 0.8,
    alternatives: [{ id: 'track', confidence: 0.75 }],
  },
  mumble: { intent: 'order', confidence: 0.3 },
  'a person please': { handoff: true },
  'I want to order 2': { intent: 'order', confidence: 0.95, slots: { qty: 2 } },
};

describe('understanding precedence', () => {
  let chat: TestConversation;
  let u: ScriptedUnderstander;
  afterEach(async () => chat.close());

  async function start(def: FlowDefinitionInput = flow): Promise<void> {
    u = scripted(RULES);
    chat = await createTestConversation(defineBot({ flows: [defineFlow(def)] }), {
      understander: u,
    });
  }
  const texts = (): string[] => chat.turn().map((m) => (m.type === 'text' ? m.text : m.type));

  it('should let an option tap win: the understander is not asked', async () => {
    await start();
    await chat.say('hi');
    const before = u.calls.length;
    await chat.tap('Order');
    expect(await chat.state()).toBe('askQty');
    expect(u.calls.length).toBe(before);
  });

  it('should let a typed choice (a keyword) win over an intent', async () => {
    await start();
    await chat.say('hi');
    const before = u.calls.length;
    await chat.say('status');
    expect(texts()).toEqual(['Tracking.']);
    expect(u.calls.length).toBe(before);
  });

  it('should let a trigger keyword win anywhere, even at a free-text ask', async () => {
    await start();
    await chat.say('I want to order 2');
    expect(await chat.state()).toBe('askAddress');
    const before = u.calls.length;
    await chat.say('restart');
    expect(await chat.state()).toBe('menu');
    expect(u.calls.length).toBe(before);
  });

  it('should let a valid answer to a validated ask win over a confident intent', async () => {
    await start();
    await chat.say('hi');
    await chat.tap('Order');
    const before = u.calls.length;
    await chat.say('3');
    expect(await chat.state()).toBe('askAddress');
    expect(await chat.vars()).toMatchObject({ qty: 3 });
    expect(u.calls.length).toBe(before);
  });

  it('should fill a validated ask from understanding when the text is no valid answer', async () => {
    await start();
    await chat.say('hi');
    await chat.tap('Order');
    await chat.say('three please');
    expect(await chat.vars()).toMatchObject({ qty: 3 });
    expect(texts()).toEqual(['Address?']);
  });

  it('should fill several asks at once and skip the questions already answered', async () => {
    await start();
    await chat.say('hi');
    await chat.tap('Order');
    await chat.say('three to 5 Main St');
    expect(texts()).toEqual(['buttons']);
    expect(chat.lastSent()).toMatchObject({ text: '3 to 5 Main St?' });
  });

  it('should let a correction outrank a free-text ask, then ask again', async () => {
    await start();
    await chat.say('I want to order 2');
    expect(texts()).toEqual(['Address?']);
    await chat.say('no, make it 4');
    expect(await chat.vars()).toMatchObject({ qty: 4 });
    expect(texts()).toEqual(['Address?']);
    await chat.say('5 Main St');
    expect(chat.lastSent()).toMatchObject({ text: '4 to 5 Main St?' });
  });

  it('should let a free-text ask take the text when nothing outranks it', async () => {
    await start();
    await chat.say('I want to order 2');
    await chat.say('cancel maybe');
    expect(await chat.vars()).toMatchObject({ address: 'cancel maybe' });
    expect(chat.understood().at(-1)).toMatchObject({ state: 'askAddress', intent: 'cancel' });
  });

  it('should let a confident global intent outrank a free-text ask', async () => {
    await start();
    await chat.say('I want to order 2');
    await chat.say('cancel it');
    expect(texts()).toEqual(['Cancelled.']);
  });

  it('should prefer a state intent to a global one', async () => {
    await start();
    await chat.say('hi');
    await chat.say('yes please');
    expect(texts()).toEqual(['Confirmed.']);
  });

  it('should ask which of two close intents was meant, then act on the tap', async () => {
    await start();
    await chat.say('hi');
    await chat.say('order or track');
    expectSent(chat).buttons(['Order', 'Track an order']);
    expect(chat.lastSent()).toMatchObject({ text: 'Did you mean one of these?' });
    await chat.tap('Track an order');
    expect(texts()).toEqual(['Tracking.']);
  });

  it('should take `otherwise` below the threshold', async () => {
    await start();
    await chat.say('hi');
    await chat.say('mumble');
    expect(texts()).toEqual(['Sorry?', 'buttons']);
    expect(await chat.state()).toBe('menu');
  });

  it('should hand off when the customer asks for a person', async () => {
    await start();
    await chat.say('hi');
    await chat.say('a person please');
    expect(texts()).toEqual(['A person will answer.']);
    expect(await chat.state()).toBe('agent');
  });

  it('should start at a global intent from the first message, with its slots', async () => {
    await start();
    await chat.say('I want to order 2');
    expect(texts()).toEqual(['Address?']);
    expect(chat.understood()).toMatchObject([{ state: null, intent: 'order', slots: { qty: 2 } }]);
  });

  it('should never ask about a flow without intents', async () => {
    await start({
      id: 'plain',
      version: 1,
      start: 'menu',
      states: {
        menu: {
          menu: { body: 'Pick one', options: [{ id: 'a', title: 'A', goto: 'done' }] },
          otherwise: { say: 'Sorry?' },
        },
        done: { say: 'Done.', final: true },
      },
    });
    await chat.say('hi');
    await chat.say('yes please');
    expect(texts()).toEqual(['Sorry?', 'buttons']);
    expect(u.calls).toEqual([]);
  });

  it('should not understand in a state that turns it off', async () => {
    const states = { ...flow.states, menu: { ...flow.states['menu'], understand: false as const } };
    await start({ ...flow, states });
    await chat.say('hi');
    const before = u.calls.length;
    await chat.say('yes please');
    expect(texts()).toEqual(['Sorry?', 'buttons']);
    expect(u.calls.length).toBe(before);
  });
});
