import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { MemoryLlmBudget } from '../../../src/understand/llm/budget.js';
import { createLlmUnderstander, type LlmLogger } from '../../../src/understand/llm/index.js';
import { loadKnowledge } from '../../../src/understand/knowledge/knowledge-base.js';
import type { IntentSpec, UnderstandInput } from '../../../src/understand/types.js';
import { startFakeModel, type FakeModel } from './fake-model-server.js';

const intents: IntentSpec[] = [
  {
    id: 'order',
    examples: { en: ['I want to order a pizza', 'two large pepperoni'], es: ['quiero una pizza'] },
    slots: [
      { name: 'quantity', kind: 'integer' },
      {
        name: 'size',
        kind: 'oneOf',
        choices: [{ value: 'small' }, { value: 'large', synonyms: ['grande'] }],
      },
      { name: 'phone', kind: 'phone' },
    ],
  },
  { id: 'track', examples: { en: ['where is my order'] } },
];
const NOW = Date.parse('2026-03-04T10:00:00Z');
const input = (text: string, more: Partial<UnderstandInput> = {}): UnderstandInput => ({
  text,
  locale: 'en-GB',
  timezone: 'UTC',
  now: NOW,
  intents,
  slots: [],
  ...more,
});
const reply = (o: unknown): { content: string } => ({ content: JSON.stringify(o) });

describe('createLlmUnderstander', () => {
  let model: FakeModel;
  const warnings: { message: string; meta?: Record<string, unknown> }[] = [];
  const logger: LlmLogger = {
    warn: (message, meta) =>
      void warnings.push({ message, ...(meta === undefined ? {} : { meta }) }),
  };
  const KEY = 'sk-test-secret-key-123456';
  const make = (more: Partial<Parameters<typeof createLlmUnderstander>[0]> = {}) =>
    createLlmUnderstander({
      baseUrl: model.baseUrl,
      model: 'fake-1',
      apiKey: KEY,
      timeoutMs: 300,
      logger,
      ...more,
    });

  beforeAll(async () => {
    model = await startFakeModel();
  });
  afterAll(async () => {
    await model.close();
  });
  beforeEach(() => {
    model.calls.length = 0;
    warnings.length = 0;
  });

  it('should use a valid scripted answer, checked against the intents and slots', async () => {
    model.script(
      reply({
        intent: 'order',
        confidence: 0.93,
        slots: { quantity: 2, size: 'grande', bogus: 1 },
        alternatives: [{ intent: 'track', confidence: 0.1 }],
      }),
    );
    const u = await make().understand(input('two big ones'));
    expect(u.source).toBe('llm');
    expect(u.intent).toEqual({ id: 'order', confidence: 0.93 });
    expect(u.slots).toEqual({ quantity: { value: 2 }, size: { value: 'large' } });
    expect(u.alternatives).toEqual([{ id: 'track', confidence: 0.1 }]);
    expect(u.fallback).toBeUndefined();
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]?.headers['authorization']).toBe(`Bearer ${KEY}`);
  });

  it('should drop slot values of the wrong kind but keep the rest', async () => {
    model.script(
      reply({ intent: 'order', confidence: 0.9, slots: { quantity: 2.5, size: 'huge' } }),
    );
    const u = await make().understand(input('whatever'));
    expect(u.intent?.id).toBe('order');
    expect(u.slots).toBeUndefined();
  });

  it.each([
    ['malformed JSON', { content: '{"intent": "order", ' }, 'invalid'],
    ['an unknown intent', reply({ intent: 'fly_to_moon', confidence: 1 }), 'invalid'],
    ['the wrong shape', reply({ intent: 42 }), 'invalid'],
    ['HTTP 429', { status: 429 }, 'rate_limited'],
    ['HTTP 500', { status: 500 }, 'error'],
    ['a body that is not a completion', { raw: '<html>oops</html>' }, 'error'],
  ] as const)(
    'should fall back to builtin on %s, after one call',
    async (_name, scripted, reason) => {
      model.script(scripted);
      const u = await make().understand(input('where is my order'));
      expect(u.source).toBe('builtin');
      expect(u.fallback).toBe(reason);
      expect(u.intent?.id).toBe('track');
      expect(model.calls).toHaveLength(1);
      expect(JSON.stringify(warnings)).not.toContain(KEY);
    },
  );

  it('should fall back within the timeout when the model is slow or never answers', async () => {
    for (const scripted of [{ content: '{}', delayMs: 2000 }, { never: true as const }]) {
      model.calls.length = 0;
      model.script(scripted);
      const started = Date.now();
      const u = await make({ timeoutMs: 200 }).understand(input('where is my order'));
      expect(u.fallback).toBe('timeout');
      expect(u.intent?.id).toBe('track');
      expect(Date.now() - started).toBeLessThan(1500);
      expect(model.calls).toHaveLength(1);
    }
  });

  it('should fall back when the model is down', async () => {
    const u = await createLlmUnderstander({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'x',
      timeoutMs: 500,
    }).understand(input('where is my order'));
    expect(u.fallback).toBe('error');
    expect(u.intent?.id).toBe('track');
  });

  it('should not call the model over its per-minute budget', async () => {
    const clock = new ManualClock(NOW);
    model.script(reply({ intent: 'track', confidence: 0.9 }));
    const u = make({ budget: new MemoryLlmBudget(2, clock) });
    expect((await u.understand(input('a'))).source).toBe('llm');
    expect((await u.understand(input('b'))).source).toBe('llm');
    expect((await u.understand(input('where is my order'))).fallback).toBe('budget');
    expect(model.calls).toHaveLength(2);
    clock.advance(60_000);
    expect((await u.understand(input('c'))).source).toBe('llm');
  });

  it('should redact phone numbers, emails and given values from what it sends, and read them locally', async () => {
    model.script(reply({ intent: 'order', confidence: 0.9, slots: { phone: '[phone]' } }));
    const u = await make().understand(
      input('Ana here, call me on 07911 123456 or ana@example.com', {
        redactValues: ['Ana'],
        transcript: [{ role: 'customer', text: 'I am Ana, +44 7911 654321' }],
      }),
    );
    const sent = JSON.stringify(model.calls[0]?.body);
    expect(sent).not.toMatch(/7911|ana@example|Ana/);
    expect(sent).toContain('[phone]');
    expect(sent).toContain('[email]');
    expect(u.slots?.['phone']?.value).toBe('+447911123456');
  });

  it('should send personal data as is when redaction is off', async () => {
    model.script(reply({ intent: 'order', confidence: 0.9 }));
    await make({ redact: false }).understand(input('call me on 07911 123456'));
    expect(JSON.stringify(model.calls[0]?.body)).toContain('07911 123456');
  });

  it('should ground knowledge answers in the sections it sent, and drop uncited ones', async () => {
    const knowledge = loadKnowledge([
      { path: 'faq.md', content: '# Delivery areas\nWe deliver to Headingley and Hyde Park.' },
    ]);
    model.script(
      reply({
        intent: null,
        confidence: 0,
        answer: 'Yes, we deliver to Headingley.',
        sources: [1],
      }),
    );
    const yes = await make({ knowledge }).understand(
      input('do you deliver to Headingley?', { knowledge: true }),
    );
    expect(yes.knowledge).toMatchObject({
      text: 'Yes, we deliver to Headingley.',
      sources: [{ file: 'faq.md', heading: 'Delivery areas' }],
    });
    expect(JSON.stringify(model.calls[0]?.body)).toContain(
      'We deliver to Headingley and Hyde Park.',
    );
    model.script(
      reply({ intent: null, confidence: 0, answer: 'Yes, we deliver to Manchester.', sources: [] }),
    );
    const no = await make({ knowledge }).understand(
      input('do you deliver to Manchester?', { knowledge: true }),
    );
    expect(no.knowledge).toBeUndefined();
  });

  it('should say "I don\'t know" when retrieval finds no section, whatever the model answers', async () => {
    const knowledge = loadKnowledge([
      { path: 'faq.md', content: '# Delivery areas\nWe deliver to Headingley and Hyde Park.' },
    ]);
    // The model invents an answer and cites section 1, but no section was sent.
    model.script(
      reply({ intent: null, confidence: 0, answer: 'We sell beer, yes.', sources: [1] }),
    );
    const u = await make({ knowledge }).understand(input('do you sell beer?', { knowledge: true }));
    expect(u.knowledge).toBeUndefined();
    const sent = JSON.stringify(model.calls[0]?.body);
    expect(sent).not.toContain('We deliver to Headingley');
    expect(model.calls).toHaveLength(1);
  });

  it('should stop at an abort signal without a second call', async () => {
    model.script({ never: true });
    const controller = new AbortController();
    const pending = make({ timeoutMs: 5000 }).understand(
      input('where is my order'),
      controller.signal,
    );
    await new Promise<void>((resolve) => {
      const poll = (): void => (model.calls.length > 0 ? resolve() : void setImmediate(poll));
      poll();
    });
    controller.abort();
    const u = await pending;
    expect(u.fallback).toBe('aborted');
    expect(model.calls).toHaveLength(1);
  });
});
