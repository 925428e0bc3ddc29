import { afterEach, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/define-bot.js';
import { defineFlow, type FlowDefinitionInput } from '../../src/flows/index.js';
import { createTestConversation, type TestConversation } from '../../src/testing/index.js';
import { scripted, type ScriptedUnderstander } from '../../src/understand/scripted.js';

/** A main flow with global intents (cancel, a person) that runs an address sub-flow. */
const main: FlowDefinitionInput = {
  id: 'main',
  version: 1,
  start: 'menu',
  intents: {
    cancel: { examples: { en: ['cancel my order'] }, goto: 'cancelled' },
    help: { examples: { en: ['help me'] }, goto: 'helping' },
  },
  understand: { handoff: 'agent' },
  states: {
    menu: {
      menu: {
        body: 'Pick one',
        options: [{ id: 'addr', title: 'Address', goto: 'address' }],
      },
    },
    address: { subflow: { use: 'address', output: { street: 'street' }, goto: 'done' } },
    done: { say: 'Saved {{street}}.', final: true },
    cancelled: { say: 'Cancelled.', final: true },
    helping: { say: 'Main help.', final: true },
    agent: { say: 'A person will answer.', handoff: { resume: 'menu' } },
  },
};

/** A sub-flow with intents of its own: `help` here is its own (it wins over main's). */
const withIntents: FlowDefinitionInput = {
  id: 'address',
  version: 1,
  start: 'ask',
  outputs: ['street'],
  intents: { help: { examples: { en: ['help me'] }, goto: 'explain' } },
  states: {
    ask: {
      ask: {
        prompt: 'Your street?',
        var: 'street',
        validate: { kind: 'pattern', pattern: '\\d' },
        goto: 'end',
        retry: 'A street with a number, please.',
      },
    },
    explain: { say: 'Type your street and number.', goto: 'ask' },
    end: { say: 'Got it.', final: true },
  },
};

/** The same sub-flow without any understanding of its own. */
const plain: FlowDefinitionInput = {
  id: 'address',
  version: 1,
  start: 'ask',
  outputs: ['street'],
  states: {
    ask: {
      ask: {
        prompt: 'Your street?',
        var: 'street',
        validate: { kind: 'pattern', pattern: '\\d' },
        goto: 'end',
        retry: 'A street with a number, please.',
      },
    },
    end: { say: 'Got it.', final: true },
  },
};

describe('intents of a calling flow inside a sub-flow', () => {
  let chat: TestConversation;
  let u: ScriptedUnderstander;
  afterEach(async () => chat.close());

  async function inSubflow(sub: FlowDefinitionInput): Promise<void> {
    u = scripted({
      'cancel it all': { intent: 'cancel', confidence: 0.9 },
      'cancel, maybe': { intent: 'cancel', confidence: 0.3 },
      'help me please': { intent: 'help', confidence: 0.9 },
      'a person please': { handoff: true },
      'no idea': {},
    });
    chat = await createTestConversation(defineBot({ flows: [defineFlow(main), defineFlow(sub)] }), {
      understander: u,
    });
    await chat.say('hi');
    await chat.tap('Address');
    expect(chat.turn().map((m) => (m.type === 'text' ? m.text : m.type))).toEqual(['Your street?']);
  }
  const said = (): string[] => chat.turn().map((m) => (m.type === 'text' ? m.text : m.type));

  it.each([
    ['with intents of its own', withIntents],
    ['without understanding', plain],
  ])(
    "should leave a sub-flow %s for the caller's global intent at the threshold",
    async (_name, sub) => {
      await inSubflow(sub);
      await chat.say('cancel it all');
      expect(said()).toEqual(['Cancelled.']);
      expect(await chat.state()).toBe('cancelled');
      // The understander was told the caller's intents, after the sub-flow's own.
      const ids = u.calls.at(-1)?.intents.map((i) => i.id);
      expect(ids).toEqual(sub === plain ? ['cancel', 'help'] : ['help', 'cancel']);
    },
  );

  it("should hand off through the caller's understand.handoff", async () => {
    await inSubflow(plain);
    await chat.say('a person please');
    expect(said()).toEqual(['A person will answer.']);
  });

  it("should let the sub-flow's own intent win over the caller's of the same id", async () => {
    await inSubflow(withIntents);
    await chat.say('help me please');
    expect(said()).toEqual(['Type your street and number.', 'Your street?']);
    expect(u.calls.at(-1)?.intents.filter((i) => i.id === 'help')).toHaveLength(1);
  });

  it('should stay in the sub-flow below the threshold, and let a valid answer win', async () => {
    await inSubflow(plain);
    await chat.say('cancel, maybe');
    expect(said()).toEqual(['A street with a number, please.']);
    const before = u.calls.length;
    await chat.say('5 Main St');
    expect(said()).toEqual(['Got it.', 'Saved 5 Main St.']);
    expect(u.calls.length).toBe(before);
  });

  it('should never ask about a sub-flow whose callers declare no global intents', async () => {
    u = scripted({ 'cancel it all': { intent: 'cancel', confidence: 0.9 } });
    const { intents: _i, understand: _u, ...bare } = main;
    const { menu, address, done } = main.states;
    const states = { menu: menu!, address: address!, done: done! };
    chat = await createTestConversation(
      defineBot({ flows: [defineFlow({ ...bare, states }), defineFlow(plain)] }),
      { understander: u },
    );
    await chat.say('hi');
    await chat.tap('Address');
    chat.turn();
    await chat.say('cancel it all');
    expect(said()).toEqual(['A street with a number, please.']);
    expect(u.calls).toEqual([]);
  });
});
