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
