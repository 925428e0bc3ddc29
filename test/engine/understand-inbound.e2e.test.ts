import { describe, expect, it } from 'vitest';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { scripted } from '../../src/understand/scripted.js';
import type { Understander } from '../../src/understand/types.js';
import { ADA, startHarness } from './harness.js';

/** `order` is global; the `secret` state keeps its texts away from any model. */
const flow = compileFlow(
  defineFlow({
    id: 'nlu-inbound',
    version: 1,
    start: 'welcome',
    intents: { order: { examples: { en: ['order'] }, goto: 'ordered' } },
    states: {
      welcome: {
        menu: { body: 'Pick one', options: [{ id: 's', title: 'Secret', goto: 'secret' }] },
        otherwise: { say: 'Sorry?' },
      },
      secret: {
        ask: {
          prompt: 'Your PIN?',
          var: 'pin',
          validate: { kind: 'pattern', pattern: '^\\d{4}$' },
          goto: 'ordered',
        },
        understand: { model: false },
      },
      ordered: { say: 'Ordered.', final: true },
    },
  }),
);

async function chat(understander: Understander, fallback?: Understander) {
  const h = await startHarness({
    flows: [flow],
    handlers: {},
    understanding: {
      understander,
      ...(fallback === undefined ? {} : { fallback }),
      threshold: 0.6,
      timezone: 'Europe/London',
      knowledge: false,
      timeoutMs: 200,
    },
  });
  const say = async (text: string): Promise<void> => {
    await h.say(ADA, text);
    await h.bot.idle();
  };
  return { h, say };
}

describe('engine: understanding an inbound text', () => {
  it('should keep a state that opts out of the model away from it: the fallback understands', async () => {
    const model = scripted({ 'my pin is one two three four': 'order' }, { name: 'fake-llm' });
    const fallback = scripted({}, { name: 'builtin' });
    const { h, say } = await chat(model, fallback);
    try {
      await say('hi');
      expect(model.calls.map((c) => c.text)).toEqual(['hi']);
      expect(model.calls[0]).toMatchObject({ timezone: 'Europe/London', locale: 'en' });
      await say('x');
      await say('Secret'); // a typed option title: no understanding
      await say('my pin is one two three four');
      expect(model.calls.map((c) => c.text)).toEqual(['hi', 'x']);
      expect(fallback.calls.map((c) => c.text)).toEqual(['my pin is one two three four']);
      expect(h.sentTo(ADA).at(-1)).toBe('text:Your PIN?');
    } finally {
      await h.close();
    }
  });

  it('should treat a failing, slow or nonsense understander as "not understood"', async () => {
    const failing: Understander = {
      name: 'builtin',
      understand: (input, signal) => {
        if (input.text === 'boom') return Promise.reject(new Error('boom'));
        if (input.text === 'slow')
          return new Promise((_, reject) =>
            signal?.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        return Promise.resolve({ source: 'builtin', intent: { id: 'order', confidence: 7 } });
      },
    };
    const { h, say } = await chat(failing);
    const heard: unknown[] = [];
    h.bot.on('understood', (e) => heard.push(e.understanding.fallback));
    try {
      await say('hi');
      await say('boom');
      await say('slow');
      expect(h.sentTo(ADA)).toEqual([
        'button:Pick one',
        'text:Sorry?',
        'button:Pick one',
        'text:Sorry?',
        'button:Pick one',
      ]);
      expect(heard).toEqual(['invalid', 'error', 'timeout']);
    } finally {
      await h.close();
    }
  });
});
