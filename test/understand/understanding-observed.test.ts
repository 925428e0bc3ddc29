import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { BotEvents } from '../../src/engine/types.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { describeEvent } from '../../src/studio/session-recorder.js';
import { understandingOutcome } from '../../src/understand/understanding-outcome.js';
import type { Understanding } from '../../src/understand/types.js';

type Listener = (payload: never) => void;

function fakeBot() {
  const listeners = new Map<string, Set<Listener>>();
  return {
    on<K extends keyof BotEvents>(event: K, listener: (payload: BotEvents[K]) => void) {
      const set = listeners.get(event) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(event, set);
      return () => void set.delete(listener);
    },
    emit<K extends keyof BotEvents>(event: K, payload: BotEvents[K]) {
      for (const l of listeners.get(event) ?? []) (l as (p: BotEvents[K]) => void)(payload);
    },
  };
}

const order: Understanding = {
  source: 'builtin',
  intent: { id: 'order', confidence: 0.9 },
  slots: { qty: { value: 2 } },
};

describe('understandingOutcome', () => {
  it('should name what a proposal amounts to at a threshold', () => {
    expect(understandingOutcome(order, 0.6)).toBe('intent');
    expect(understandingOutcome(order, 0.95)).toBe('slots');
    expect(understandingOutcome({ source: 'llm', intent: { id: 'x', confidence: 0.2 } }, 0.6)).toBe(
      'below_threshold',
    );
    expect(understandingOutcome({ source: 'builtin', handoff: true }, 0.6)).toBe('handoff');
    expect(
      understandingOutcome(
        { source: 'builtin', correction: true, slots: { qty: { value: 3 } } },
        0.6,
      ),
    ).toBe('correction');
    expect(
      understandingOutcome(
        { source: 'builtin', knowledge: { text: 'Yes.', confidence: 0.7, sources: [] } },
        0.6,
      ),
    ).toBe('knowledge');
    expect(understandingOutcome({ source: 'builtin' }, 0.6)).toBe('none');
  });
});

describe('createMetrics: understandings', () => {
  it('should count understandings by intent, outcome, source and fallback', async () => {
    const bot = fakeBot();
    const registry = new Registry();
    createMetrics(bot, { registry, processMetrics: false });
    const base = { conversationId: 'c', messageId: 'm', text: 't', state: 'menu', threshold: 0.6 };
    bot.emit('understood', { ...base, understanding: order });
    bot.emit('understood', { ...base, understanding: order });
    bot.emit('understood', {
      ...base,
      understanding: { source: 'builtin', fallback: 'crashed' },
    });
    const metric = registry.getSingleMetric('switchboard_understandings_total');
    const values = (await metric?.get())?.values ?? [];
    expect(values.map((v) => [v.labels, v.value])).toEqual([
      [{ intent: 'order', outcome: 'intent', source: 'builtin', fallback: '' }, 2],
      [{ intent: '', outcome: 'none', source: 'builtin', fallback: 'crashed' }, 1],
    ]);
  });
});

describe('studio timeline: understood texts', () => {
  it('should show intent, confidence, slots and source next to the inbound text', () => {
    const line = describeEvent({
      type: 'inbound.message',
      message: {
        id: 'm',
        conversationId: 'c',
        type: 'text',
        occurredAt: '2026-01-01T00:00:00Z',
        text: 'two please',
        understood: { result: order, threshold: 0.6 },
      },
    });
    expect(line).toBe('inbound "two please" → intent order (0.90), qty=2 [builtin]');
    const low = describeEvent({
      type: 'inbound.message',
      message: {
        id: 'm',
        conversationId: 'c',
        type: 'text',
        occurredAt: '2026-01-01T00:00:00Z',
        text: 'hmm',
        understood: {
          result: {
            source: 'builtin',
            intent: { id: 'order', confidence: 0.3 },
            fallback: 'timeout',
          },
          threshold: 0.6,
        },
      },
    });
    expect(low).toBe('inbound "hmm" → intent order (0.30 < 0.6) [builtin, fallback: timeout]');
  });
});
