import { describe, expect, it } from 'vitest';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { scripted, type ScriptedUnderstander } from '../../src/understand/scripted.js';
import { parseStoredDoc } from '../../src/engine/stored-doc.js';
import { crashSession } from './crash-session.js';
import type { Fault } from './faulty-store.js';
import { ADA, startHarness } from './harness.js';

/** A flow whose global intent `order` takes the whole order from the first message. */
const flow = compileFlow(
  defineFlow({
    id: 'nlu-once',
    version: 1,
    start: 'welcome',
    intents: {
      order: {
        examples: { en: ['two pizzas please'] },
        slots: { qty: 'integer' },
        goto: 'askQty',
      },
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
      done: { say: 'Ordering {{qty}}.', final: true },
    },
  }),
);

/** What the customer gets when the model's answer is used, and when the builtin stands in. */
const MODEL_BRANCH = ['text:Ordering 2.'];
const FALLBACK_BRANCH = ['text:Hi!', 'button:Pick one'];

interface Run {
  readonly sent: string[];
  readonly modelCalls: number;
  readonly fallbackCalls: number;
  readonly tripped: boolean;
  readonly recorded: unknown;
}

/** "two pizzas please" to a bot whose understander is a (fake) model, failing at `fault`. */
async function run(fault: Fault | undefined): Promise<Run> {
  const model: ScriptedUnderstander = scripted(
    { 'two pizzas please': { intent: 'order', confidence: 0.9, slots: { qty: 2 } } },
    { name: 'fake-llm' },
  );
  const fallback: ScriptedUnderstander = scripted({}, { name: 'builtin' });
  const h = await startHarness({
    flows: [flow],
    handlers: {},
    understanding: {
      understander: model,
      fallback,
      threshold: 0.6,
      timezone: 'UTC',
      knowledge: false,
    },
  });
  try {
    const { faulty, say } = await crashSession(h, fault);
    await say('two pizzas please');
    const id = h.sandbox.control.conversations().find((c) => c.phoneNumber === ADA)?.id ?? '';
    const stored = await h.store.getConversation(id);
    const doc = stored === undefined ? undefined : parseStoredDoc(stored.value);
    return {
      sent: h.sentTo(ADA),
      modelCalls: model.calls.length,
      fallbackCalls: fallback.calls.length,
      tripped: faulty.tripped,
      recorded: doc?.status === 'valid' ? doc.doc.understood : undefined,
    };
  } finally {
    await h.close();
  }
}

describe('engine: understanding exactly once', () => {
  it('should call the model once and record its answer before any effect (baseline)', async () => {
    const r = await run(undefined);
    expect(r.sent).toEqual(MODEL_BRANCH);
    expect(r.modelCalls).toBe(1);
    expect(r.fallbackCalls).toBe(0);
    expect(r.recorded).toMatchObject({
      status: 'done',
      threshold: 0.6,
      result: { source: 'scripted', intent: { id: 'order', confidence: 0.9 } },
    });
  });

  it('should never call the model twice nor answer twice, whatever write fails when', async () => {
    const baseline = await run(undefined);
    expect(baseline.tripped).toBe(false);
    const failures: string[] = [];
    const branches = { model: 0, fallback: 0 };
    for (const operation of [
      'putConversationWith',
      'putConversation',
      'enqueue',
      'ackAndRelease',
      'putSend',
    ] as const) {
      for (let nth = 1; nth <= 5; nth++) {
        for (const when of ['before', 'after'] as const) {
          const r = await run({ operation, nth, when });
          if (!r.tripped) continue;
          const where = `${operation} #${nth} ${when}`;
          if (r.modelCalls > 1) failures.push(`${where}: model called ${r.modelCalls} times`);
          const sent = JSON.stringify(r.sent);
          // A crash right after the answer's intent, before its POST: never sent again (the
          // POST may have left; the flow gets send.unknown). The model was still asked once.
          const beforePost = operation === 'putSend' && when === 'after' && nth === 1;
          if (beforePost && sent === '[]' && r.modelCalls === 1) continue;
          if (sent === JSON.stringify(MODEL_BRANCH)) branches.model++;
          else if (sent === JSON.stringify(FALLBACK_BRANCH)) {
            branches.fallback++;
            // Only a call recorded as started and never finished falls back.
            if (r.fallbackCalls !== 1)
              failures.push(`${where}: fallback called ${r.fallbackCalls}`);
            expect(r.recorded).toMatchObject({ status: 'done', result: { fallback: 'crashed' } });
          } else failures.push(`${where}: sent ${sent}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Both ways happen: a crash after "started" falls back, any other crash keeps the model's.
    expect(branches.model).toBeGreaterThan(3);
    expect(branches.fallback).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('should fall back the same way on every retry after a crash during the model call', async () => {
    // Crash right after "started" is written (the new conversation's first write, with its
    // contact's list), then again right after the fallback's record.
    const first = await run({ operation: 'putConversationWith', nth: 1, when: 'after' });
    expect(first.sent).toEqual(FALLBACK_BRANCH);
    expect(first.modelCalls).toBe(0);
    const second = await run({ operation: 'putConversation', nth: 1, when: 'before' });
    expect(second.sent).toEqual(FALLBACK_BRANCH);
    expect(second.modelCalls).toBe(1);
  });
});
