/**
 * The flow every benchmark runs: a loop that asks for a message and answers it. Each
 * inbound text is one machine event producing one send ("got …") plus the next prompt.
 */
import { compileFlow, defineFlow } from '../src/flows/index.js';
import type { RunnableFlow } from '../src/flows/index.js';

/** Builds the benchmark's echo flow (kept tiny so the engine, not the flow, is measured). */
export function benchFlow(): RunnableFlow {
  return compileFlow(
    defineFlow({
      id: 'bench-echo',
      version: 1,
      start: 'listen',
      states: {
        listen: { ask: { prompt: 'Say something.', var: 'text', goto: 'reply' } },
        reply: { say: 'got {{text}}', goto: 'listen' },
      },
    }),
  );
}

/**
 * The flow of the polling benchmark: one answer per inbound text (two asks taking
 * turns), so a steady stream of messages stays inside the send budget of one number.
 */
export function pollingFlow(): RunnableFlow {
  return compileFlow(
    defineFlow({
      id: 'bench-poll',
      version: 1,
      start: 'listen',
      states: {
        listen: { ask: { prompt: 'Say something.', var: 'text', goto: 'again' } },
        again: { ask: { prompt: 'Noted: {{text}}. More?', var: 'text', goto: 'listen' } },
      },
    }),
  );
}

/**
 * The echo flow with understanding on (the webhook bench's "understanding on" variant):
 * eight global intents of ten examples each, and the free-text ask of {@link benchFlow},
 * so every inbound text is understood by the builtin before the ask takes it (row 6 of
 * the precedence table: no intent reaches the threshold for "hello n").
 */
export function benchUnderstandFlow(): RunnableFlow {
  const topics = ['order', 'track', 'cancel', 'refund', 'hours', 'menu', 'address', 'agent'];
  const intents = Object.fromEntries(
    topics.map((topic) => [
      topic,
      {
        examples: {
          en: Array.from({ length: 10 }, (_, i) =>
            [`I want to ${topic} please`, `can you help me ${topic}`, `${topic} number ${i}`][
              i % 3
            ]!.concat(i < 3 ? '' : ` ${i}`),
          ),
        },
        goto: 'reply',
      },
    ]),
  );
  return compileFlow(
    defineFlow({
      id: 'bench-echo-nlu',
      version: 1,
      start: 'listen',
      intents,
      states: {
        listen: { ask: { prompt: 'Say something.', var: 'text', goto: 'reply' } },
        reply: { say: 'got {{text}}', goto: 'listen' },
      },
    }),
  );
}
