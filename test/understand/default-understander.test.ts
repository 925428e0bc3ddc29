import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineBot } from '../../src/bot/define-bot.js';
import { defineFlow, type FlowDefinitionInput } from '../../src/flows/index.js';
import { createTestConversation, type TestConversation } from '../../src/testing/index.js';
import { defaultUnderstander } from '../../src/understand/default-understander.js';
import type { IntentSpec, UnderstandInput } from '../../src/understand/types.js';
import { startFakeModel, type FakeModel } from './llm/fake-model-server.js';

/** A flow with intents and no understander named anywhere. */
const flow: FlowDefinitionInput = {
  id: 'shop',
  version: 1,
  start: 'menu',
  intents: {
    track: {
      title: 'Track an order',
      examples: { en: ['where is my order', 'track my parcel', 'has my order shipped'] },
      goto: 'tracking',
    },
    cancel: {
      title: 'Cancel an order',
      examples: { en: ['cancel it', 'I do not want it anymore', 'stop the purchase'] },
      goto: 'cancelled',
    },
  },
  states: {
    menu: {
      menu: { body: 'Pick one', options: [{ id: 'help', title: 'Help', goto: 'tracking' }] },
      otherwise: { say: 'Sorry?' },
    },
    tracking: { say: 'Tracking.', final: true },
    cancelled: { say: 'Cancelled.', final: true },
  },
};
const texts = (chat: TestConversation): string[] =>
  chat.turn().map((m) => (m.type === 'text' ? m.text : m.type));

describe('defaultUnderstander', () => {
  let chat: TestConversation | undefined;
  let model: FakeModel;
  beforeAll(async () => {
    model = await startFakeModel();
  });
  afterAll(async () => model.close());
  afterEach(async () => {
    vi.unstubAllEnvs();
    await chat?.close();
    chat = undefined;
  });

  async function start(): Promise<TestConversation> {
    chat = await createTestConversation(defineBot({ flows: [defineFlow(flow)] }));
    await chat.say('hi');
    return chat;
  }

  it('should understand a sentence with the builtin when the bot names no understander', async () => {
    vi.stubEnv('LLM_BASE_URL', '');
    const c = await start();
    await c.say('where is my order?');
    expect(texts(c)).toEqual(['Tracking.']);
    expect(c.understood().at(-1)).toMatchObject({ intent: 'track', source: 'builtin' });
  });

  it('should ask the model when LLM_BASE_URL is set', async () => {
    vi.stubEnv('LLM_BASE_URL', model.baseUrl);
    vi.stubEnv('LLM_MODEL', 'fake');
    model.script({ content: JSON.stringify({ intent: 'cancel', confidence: 0.93 }) });
    const before = model.calls.length;
    const c = await start();
    // The builtin would say "track": the model's answer is the one acted on.
    await c.say('where is my order?');
    expect(model.calls.length).toBeGreaterThan(before);
    expect(texts(c)).toEqual(['Cancelled.']);
    expect(c.understood().at(-1)).toMatchObject({ intent: 'cancel', source: 'llm' });
  });

  it('should fall back to the builtin when the model answers 500', async () => {
    vi.stubEnv('LLM_BASE_URL', model.baseUrl);
    vi.stubEnv('LLM_MODEL', 'fake');
    model.script({ status: 500 });
    const before = model.calls.length;
    const c = await start();
    await c.say('where is my order?');
    expect(model.calls.length).toBeGreaterThan(before);
    expect(texts(c)).toEqual(['Tracking.']);
    const u = c.understood().at(-1);
    expect(u).toMatchObject({ intent: 'track', source: 'builtin' });
    expect(u?.understanding.fallback).toBeDefined();
  });

  it('should never ask the model when the bot says model: false', async () => {
    const made = await defaultUnderstander(
      { intents: [], knowledge: [], timezone: 'UTC' },
      { model: false, env: { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'fake' } },
    );
    expect(made.understander.name).toBe('builtin');
    expect(made.fallback).toBeUndefined();
  });

  it('should refuse an LLM_BASE_URL without LLM_MODEL, naming the variable', async () => {
    await expect(
      defaultUnderstander(
        { intents: [], knowledge: [], timezone: 'UTC' },
        { model: true, env: { LLM_BASE_URL: model.baseUrl } },
      ),
    ).rejects.toThrow(/LLM_MODEL/);
  });

  it('should index the knowledge it is given each time it is built (a reload re-indexes)', async () => {
    const intents: IntentSpec[] = [];
    const ask = (text: string): UnderstandInput => ({
      text,
      locale: 'en',
      timezone: 'UTC',
      now: 0,
      intents,
      slots: [],
      knowledge: true,
    });
    const build = (text: string) =>
      defaultUnderstander(
        { intents, knowledge: [{ file: 'faq.md', text }], timezone: 'UTC' },
        { model: false, env: {} },
      );
    const first = await build('# Delivery areas\nWe deliver to Headingley and Hyde Park.');
    const a = await first.understander.understand(ask('do you deliver to Headingley?'));
    expect(a.knowledge?.text).toContain('Headingley');
    const second = await build('# Opening hours\nWe open at noon every day.');
    const b = await second.understander.understand(ask('do you deliver to Headingley?'));
    expect(b.knowledge).toBeUndefined();
    const c = await second.understander.understand(ask('when do you open?'));
    expect(c.knowledge?.text).toContain('noon');
    expect(c.knowledge?.sources[0]?.file).toBe('faq.md');
  });
});
