import { afterEach, describe, expect, it } from 'vitest';
import { compileFlow, defineFlow, type FlowDefinitionInput } from '../../src/flows/index.js';
import { fromApiMessage } from '../../src/ingest/normalize.js';
import { faultyStore } from './faulty-store.js';
import { ADA, startHarness, type Harness } from './harness.js';

const welcome = (tee: string, mug: string) => ({
  menu: {
    body: 'Hi! What would you like?',
    options: [
      { id: 'tee', title: 'A T-shirt', goto: tee },
      { id: 'mug', title: 'A mug', goto: mug },
    ],
  },
});

const v1: FlowDefinitionInput = {
  id: 'shop',
  version: 1,
  start: 'welcome',
  states: {
    welcome: welcome('askSize', 'pickColour'),
    askSize: { ask: { prompt: 'Size?', var: 'size', goto: 'done' } },
    pickColour: {
      menu: {
        body: 'Which colour?',
        options: [
          { id: 'red', title: 'Red', set: { colour: 'red' }, goto: 'done' },
          { id: 'blue', title: 'Blue', set: { colour: 'blue' }, goto: 'done' },
        ],
      },
    },
    done: { say: 'Got {{size}}{{colour}}', final: true },
  },
  vars: { size: '', colour: '' },
};

/** v2: askSize renamed chooseSize, pickColour renamed colour; the texts changed too. */
const v2: FlowDefinitionInput = {
  ...v1,
  version: 2,
  migrate: { askSize: 'chooseSize', pickColour: 'colour' },
  triggers: [{ keywords: ['menu'], goto: 'welcome' }],
  stale: 'That menu is old; here it is again.',
  states: {
    welcome: welcome('chooseSize', 'colour'),
    chooseSize: {
      say: 'Sizes are new this week!',
      ask: { prompt: 'Which size (S, M, L)?', var: 'size', goto: 'done' },
    },
    colour: {
      menu: {
        body: 'Pick a colour',
        options: [
          { id: 'red', title: 'Red', set: { colour: 'red' }, goto: 'done' },
          { id: 'blue', title: 'Blue', set: { colour: 'blue' }, goto: 'done' },
        ],
      },
    },
    done: { say: 'Got {{size}}{{colour}}', final: true },
  },
};

/** v3: askSize removed without a migrate entry: its conversations start over. */
const v3: FlowDefinitionInput = {
  ...v1,
  version: 3,
  states: { welcome: welcome('done', 'done'), done: v1.states.done ?? {} },
};

const flow = (def: FlowDefinitionInput) => compileFlow(defineFlow(def));

describe('flow migration with the message that moves the conversation', () => {
  let h: Harness;
  afterEach(async () => h.close());

  /** Ada is left waiting in askSize under v1. */
  const waitInAskSize = async (): Promise<void> => {
    h = await startHarness({ flows: [flow(v1)] });
    await h.say(ADA, 'hello');
    await h.say(ADA, { type: 'text', text: 'A T-shirt' });
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('text:Size?');
  };

  it('should take the message as the answer of a renamed state, without re-asking', async () => {
    await waitInAskSize();
    const before = h.sentTo(ADA).length;
    expect(h.bot.reloadFlows([flow(v2)])).toMatchObject({ status: 'ok' });
    await h.say(ADA, 'L');
    await h.bot.idle();
    // Neither the target's say nor its prompt: the answer is taken at once.
    expect(h.sentTo(ADA).slice(before)).toEqual(['text:Got L']);
    const id = h.sandbox.control.conversations()[0]?.id ?? '';
    expect(await h.bot.inspect(id)).toMatchObject({ flowVersion: 2, state: 'done', ended: true });
  });

  it('should apply an answer that does not fit in the landed state like any answer there', async () => {
    h = await startHarness({
      flows: [
        flow({
          ...v1,
          states: {
            ...v1.states,
            askSize: {
              ask: { prompt: 'Size?', var: 'size', validate: { kind: 'number' }, goto: 'done' },
            },
          },
        }),
      ],
    });
    await h.say(ADA, 'hello');
    await h.say(ADA, 'A T-shirt');
    await h.bot.idle();
    const before = h.sentTo(ADA).length;
    h.bot.reloadFlows([
      flow({
        ...v2,
        states: {
          ...v2.states,
          chooseSize: {
            ask: {
              prompt: 'Which size number?',
              retry: 'A number, please.',
              var: 'size',
              validate: { kind: 'number' },
              goto: 'done',
            },
          },
        },
      }),
    ]);
    await h.say(ADA, 'large');
    await h.bot.idle();
    expect(h.sentTo(ADA).slice(before)).toEqual(['text:A number, please.']);
    await h.say(ADA, '42');
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('text:Got 42');
  });

  it('should take a typed menu choice in the migrate target of a removed state', async () => {
    h = await startHarness({ flows: [flow(v1)] });
    await h.say(ADA, 'hello');
    await h.say(ADA, 'A mug');
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('button:Which colour?');
    const before = h.sentTo(ADA).length;
    h.bot.reloadFlows([flow(v2)]);
    await h.say(ADA, 'blue');
    await h.bot.idle();
    expect(h.sentTo(ADA).slice(before)).toEqual(['text:Got blue']);
  });

  it('should treat a tap on the old version menu as stale and show the new menu', async () => {
    h = await startHarness({ flows: [flow(v1)] });
    await h.say(ADA, 'hello');
    await h.say(ADA, 'A mug');
    await h.bot.idle();
    const before = h.sentTo(ADA).length;
    h.bot.reloadFlows([flow(v2)]);
    // The option id carries v1.pickColour: from another version, so stale (documented).
    await h.say(ADA, {
      type: 'interactive',
      optionId: 'v1.pickColour.red',
      label: 'Red',
      mode: 'BUTTON',
    });
    await h.bot.idle();
    expect(h.sentTo(ADA).slice(before)).toEqual([
      'text:That menu is old; here it is again.',
      'button:Pick a colour',
    ]);
    await h.say(ADA, {
      type: 'interactive',
      optionId: 'v2.colour.red',
      label: 'Red',
      mode: 'BUTTON',
    });
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('text:Got red');
  });

  it('should follow a trigger keyword rather than take it as the answer', async () => {
    await waitInAskSize();
    const before = h.sentTo(ADA).length;
    h.bot.reloadFlows([flow(v2)]);
    await h.say(ADA, 'menu');
    await h.bot.idle();
    expect(h.sentTo(ADA).slice(before)).toEqual(['button:Hi! What would you like?']);
  });

  it('should handle the message as a first message when the state was removed with no migrate', async () => {
    await waitInAskSize();
    const before = h.sentTo(ADA).length;
    h.bot.reloadFlows([flow(v3)]);
    await h.say(ADA, 'L');
    await h.bot.idle();
    // As a new conversation's first message: it enters start, whose menu is sent.
    expect(h.sentTo(ADA).slice(before)).toEqual(['button:Hi! What would you like?']);
    await h.say(ADA, 'A T-shirt');
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('text:Got ');
  });

  for (const when of ['before', 'after'] as const) {
    it(`should apply the migrated answer exactly once when its write fails ${when} it`, async () => {
      await waitInAskSize();
      // v2 is deployed on a store whose first conversation write fails: the one write that
      // records the migration and the answer together.
      const faulty = faultyStore(h.store, { operation: 'putConversation', nth: 1, when });
      await h.restart({ store: faulty.store, flows: [flow(v2)] });
      const before = h.sentTo(ADA).length;
      const message = h.sandbox.control.injectInbound({ type: 'text', text: 'L', from: ADA });
      const conversation = h.sandbox.control.conversations()[0];
      const event = conversation === undefined ? undefined : fromApiMessage(message, conversation);
      if (event === undefined) throw new Error('no event');
      await h.bot.handle(event);
      await h.bot.idle();
      expect(faulty.tripped).toBe(true);
      // Killed and restarted on the same data; the API redelivers the message.
      await h.restart({ store: h.store, flows: [flow(v2)] });
      await h.bot.handle(event);
      await h.bot.idle();
      expect(h.sentTo(ADA).slice(before)).toEqual(['text:Got L']);
      expect(await h.bot.inspect(conversation?.id ?? '')).toMatchObject({
        flowVersion: 2,
        state: 'done',
      });
    });
  }
});
