/**
 * The `llm` understander behind a running bot (sandbox API, engine, store), against an
 * OpenAI-compatible fake model over HTTP: whatever the model does, the customer gets one
 * answer, the model is called once per message, and the builtin decides when the model
 * cannot, within the model's timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStoredDoc } from '../../../src/engine/stored-doc.js';
import { compileFlow, defineFlow } from '../../../src/flows/index.js';
import type { Logger } from '../../../src/log/logger.js';
import { createBuiltinUnderstander } from '../../../src/understand/builtin/index.js';
import { createLlmUnderstander } from '../../../src/understand/llm/index.js';
import { crashSession } from '../../engine/crash-session.js';
import type { Fault } from '../../engine/faulty-store.js';
import { ADA, startHarness } from '../../engine/harness.js';
import { startFakeModel, type FakeModel, type FakeReply } from './fake-model-server.js';

const flow = compileFlow(
  defineFlow({
    id: 'llm-e2e',
    version: 1,
    start: 'welcome',
    intents: {
      order: {
        examples: { en: ['two pizzas please', 'I want to order pizzas', 'three pizzas'] },
        slots: { qty: 'integer' },
        goto: 'askQty',
      },
      track: { examples: { en: ['where is my order', 'track my order'] }, goto: 'tracking' },
    },
    states: {
      welcome: {
        say: 'Hi!',
        menu: { body: 'Pick one', options: [{ id: 'order', title: 'Order', goto: 'askQty' }] },
      },
      askQty: {
        ask: {
          prompt: 'How many?',
          var: 'qty',
          validate: { kind: 'number', integer: true },
          goto: 'done',
        },
      },
      tracking: { say: 'Tracking.', final: true },
      done: { say: 'Ordering {{qty}}.', final: true },
    },
  }),
);

const KEY = 'sk-e2e-secret-0123456789';
// Well above a loaded machine's round trip to the local fake (300 ms fell back once at load 9),
// well below the 3 s of the slow reply.
const TIMEOUT_MS = 1000;
const content = (o: unknown): FakeReply => ({ content: JSON.stringify(o) });

/** Every line logged, as JSON. */
function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger: Logger = {
    error: (m, meta) => void lines.push(JSON.stringify({ m, meta })),
    warn: (m, meta) => void lines.push(JSON.stringify({ m, meta })),
    info: (m, meta) => void lines.push(JSON.stringify({ m, meta })),
    debug: (m, meta) => void lines.push(JSON.stringify({ m, meta })),
    child: () => logger,
  };
  return { logger, lines };
}

describe('llm understander in a running bot, against a fake model', () => {
  let model: FakeModel;
  beforeAll(async () => {
    model = await startFakeModel();
  });
  afterAll(async () => model.close());

  /** "two pizzas please" from Ada, the model scripted with `reply`, the store failing at `fault`. */
  async function run(reply: FakeReply, fault?: Fault, ownLogger = true) {
    model.script(reply);
    model.calls.length = 0;
    const { logger, lines } = capture();
    const builtin = createBuiltinUnderstander();
    const llm = createLlmUnderstander({
      baseUrl: model.baseUrl,
      model: 'fake-1',
      apiKey: KEY,
      timeoutMs: TIMEOUT_MS,
      fallback: builtin,
      ...(ownLogger ? { logger } : {}),
    });
    const h = await startHarness({
      flows: [flow],
      handlers: {},
      logger,
      understanding: {
        understander: llm,
        fallback: builtin,
        threshold: 0.6,
        timezone: 'UTC',
        knowledge: false,
      },
    });
    try {
      const started = performance.now();
      if (fault === undefined) await h.say(ADA, 'two pizzas please');
      else await (await crashSession(h, fault)).say('two pizzas please');
      await h.bot.idle();
      const ms = performance.now() - started;
      const id = h.sandbox.control.conversations().find((c) => c.phoneNumber === ADA)?.id ?? '';
      const stored = await h.store.getConversation(id);
      const doc = stored === undefined ? undefined : parseStoredDoc(stored.value);
      return {
        sent: h.sentTo(ADA),
        calls: model.calls.length,
        ms,
        lines,
        recorded: doc?.status === 'valid' ? doc.doc.understood : undefined,
      };
    } finally {
      await h.close();
    }
  }

  it("should act on the model's valid answer: one call, one answer", async () => {
    const r = await run(content({ intent: 'order', confidence: 0.95, slots: { qty: 3 } }));
    expect(r.sent).toEqual(['text:Ordering 3.']);
    expect(r.calls).toBe(1);
    expect(r.recorded).toMatchObject({ status: 'done', result: { source: 'llm' } });
    expect(JSON.stringify(model.calls[0]?.body)).toContain('two pizzas please');
  });

  it.each([
    ['malformed JSON', { content: '{"intent": "order", "confi' }, 'invalid'],
    ['an intent the flow does not have', content({ intent: 'refund', confidence: 1 }), 'invalid'],
    ['HTTP 429', { status: 429 }, 'rate_limited'],
    ['HTTP 500', { status: 500 }, 'error'],
    ['slowly (after the timeout)', { content: '{}', delayMs: 3000 }, 'timeout'],
    ['never', { never: true }, 'timeout'],
  ] as const)(
    'should let the builtin decide when the model answers %s, within the timeout',
    async (_name, reply, reason) => {
      const r = await run(reply);
      // The builtin reads "two pizzas please" as `order` with qty 2: one answer, no crash.
      expect(r.sent).toEqual(['text:Ordering 2.']);
      expect(r.calls).toBe(1);
      expect(r.recorded).toMatchObject({
        status: 'done',
        result: { source: 'builtin', fallback: reason },
      });
      expect(r.ms).toBeLessThan(TIMEOUT_MS + 2000);
      // The model's key is never logged, whatever went wrong.
      expect(r.lines.some((l) => l.includes('fell back'))).toBe(true);
      expect(r.lines.join('\n')).not.toContain(KEY);
    },
  );

  it("should log the model's fallback through the bot's logger when the understander has none (the default understander's case)", async () => {
    const r = await run({ status: 500 }, undefined, false);
    expect(r.sent).toEqual(['text:Ordering 2.']);
    const line = r.lines.find((l) => l.includes('fell back'));
    expect(line).toContain('"reason":"error"');
    expect(r.lines.join('\n')).not.toContain(KEY);
  });

  it('should not call the model again for a message whose call was in flight at a crash', async () => {
    // The process "dies" right after "call started" is written (the new conversation's
    // first write, with its contact's list): the retry never calls.
    const r = await run(content({ intent: 'track', confidence: 0.99 }), {
      operation: 'putConversationWith',
      nth: 1,
      when: 'after',
    });
    expect(r.calls).toBe(0);
    expect(r.sent).toEqual(['text:Ordering 2.']);
    expect(r.recorded).toMatchObject({ result: { source: 'builtin', fallback: 'crashed' } });
  });

  it("should keep the model's answer when the crash comes after it was recorded", async () => {
    // The third document write (the first one carries the contact's list).
    const r = await run(content({ intent: 'track', confidence: 0.99 }), {
      operation: 'putConversation',
      nth: 2,
      when: 'before',
    });
    expect(r.calls).toBe(1);
    expect(r.sent).toEqual(['text:Tracking.']);
  });
});
