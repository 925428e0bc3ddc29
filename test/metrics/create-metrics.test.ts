import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { BotEvents } from '../../src/engine/types.js';
import type { Effect, FlowEvent } from '../../src/flows/contract.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';

type Listener = (payload: never) => void;

/** A stand-in for a bot's `on`: records listeners and emits to them. */
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
    count: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}

const send: Effect = { kind: 'send', seq: 1, content: { type: 'text', text: { body: 'hi' } } };
const inbound = (type: 'text' | 'image', id: string): FlowEvent => ({
  type: 'inbound.message',
  message: { id, conversationId: 'conv_1', type, occurredAt: '2025-01-01T00:00:00Z' },
});

/** The value of one sample of `name` with exactly `labels`, or undefined. */
async function value(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return undefined;
  const { values } = await metric.get();
  const hit = values.find(
    (v) =>
      Object.keys(labels).length === Object.keys(v.labels).length &&
      Object.entries(labels).every(([k, l]) => v.labels[k] === l),
  );
  return hit?.value;
}

describe('createMetrics', () => {
  it('should count inbound messages and flow events by type', async () => {
    const bot = fakeBot();
    const { registry } = createMetrics(bot, { processMetrics: false });
    bot.emit('event', { conversationId: 'conv_1', event: inbound('text', 'm1') });
    bot.emit('event', { conversationId: 'conv_1', event: inbound('text', 'm2') });
    bot.emit('event', { conversationId: 'conv_2', event: inbound('image', 'm3') });
    bot.emit('event', { conversationId: 'conv_2', event: { type: 'timer.fired', name: 't' } });
    expect(await value(registry, 'switchboard_inbound_messages_total', { type: 'text' })).toBe(2);
    expect(await value(registry, 'switchboard_inbound_messages_total', { type: 'image' })).toBe(1);
    expect(
      await value(registry, 'switchboard_flow_events_total', { type: 'inbound.message' }),
    ).toBe(3);
    expect(await value(registry, 'switchboard_flow_events_total', { type: 'timer.fired' })).toBe(1);
  });

  it('should count sends by outcome and rejections by code', async () => {
    const bot = fakeBot();
    const { registry } = createMetrics(bot, { processMetrics: false });
    for (const outcome of [
      'accepted',
      'accepted',
      'rejected:contact_opted_out',
      'owned_by_human',
      'unknown',
      'suppressed_human_owned',
      'template_fallback:accepted',
      'rejected:made_up_code',
    ])
      bot.emit('effect', { conversationId: 'conv_1', effect: send, outcome });
    expect(await value(registry, 'switchboard_sends_total', { outcome: 'accepted' })).toBe(3);
    expect(await value(registry, 'switchboard_sends_total', { outcome: 'rejected' })).toBe(3);
    expect(await value(registry, 'switchboard_sends_total', { outcome: 'unknown' })).toBe(1);
    expect(
      await value(registry, 'switchboard_sends_total', { outcome: 'suppressed_human_owned' }),
    ).toBe(1);
    expect(
      await value(registry, 'switchboard_send_rejections_total', { code: 'contact_opted_out' }),
    ).toBe(1);
    expect(
      await value(registry, 'switchboard_send_rejections_total', {
        code: 'conversation_owned_by_human',
      }),
    ).toBe(1);
    expect(await value(registry, 'switchboard_send_rejections_total', { code: 'other' })).toBe(1);
    expect(await value(registry, 'switchboard_template_fallbacks_total')).toBe(1);
    expect(
      await value(registry, 'switchboard_effects_total', { kind: 'send', outcome: 'accepted' }),
    ).toBe(3);
  });

  it('should count handler calls by handler, result and outcome', async () => {
    const bot = fakeBot();
    const { registry } = createMetrics(bot, { processMetrics: false });
    const base = { requestId: 'r1', handler: 'lookupOrder' };
    bot.emit('event', {
      conversationId: 'c',
      event: { type: 'handler.done', ...base, outcome: 'found' },
    });
    bot.emit('event', {
      conversationId: 'c',
      event: { type: 'handler.error', ...base, reason: 'timeout', message: 'slow' },
    });
    expect(
      await value(registry, 'switchboard_handler_calls_total', {
        handler: 'lookupOrder',
        result: 'done',
        outcome: 'found',
      }),
    ).toBe(1);
    expect(
      await value(registry, 'switchboard_handler_calls_total', {
        handler: 'lookupOrder',
        result: 'timeout',
        outcome: '',
      }),
    ).toBe(1);
  });

  it('should keep labels bounded and free of conversation ids and phone numbers', async () => {
    const bot = fakeBot();
    const { registry } = createMetrics(bot, { processMetrics: false });
    for (let i = 0; i < 300; i++) {
      bot.emit('event', {
        conversationId: `conv_${i}`,
        event: { type: 'handler.done', requestId: `r${i}`, handler: 'h', outcome: `+1555${i}` },
      });
      bot.emit('error', { conversationId: `conv_${i}`, error: new RangeError(`bad ${i}`) });
    }
    const text = await registry.metrics();
    expect(text).not.toContain('conv_');
    const { values } = await registry.getSingleMetric('switchboard_handler_calls_total')!.get();
    expect(values.length).toBeLessThanOrEqual(201);
    expect(values.find((v) => v.labels['outcome'] === 'other')?.value).toBe(100);
    expect(await value(registry, 'switchboard_errors_total', { name: 'RangeError' })).toBe(300);
  });

  it('should read the poll leadership gauge at scrape time', async () => {
    const bot = fakeBot();
    let leading = false;
    const { registry } = createMetrics(bot, { processMetrics: false, isPollLeader: () => leading });
    expect(await value(registry, 'switchboard_poll_leader')).toBe(0);
    leading = true;
    expect(await value(registry, 'switchboard_poll_leader')).toBe(1);
  });

  it('should use its own registry with process metrics, never the global one, and dispose cleanly', async () => {
    const bot = fakeBot();
    const registry = new Registry();
    const metrics = createMetrics(bot, { registry });
    expect(metrics.registry).toBe(registry);
    expect(await registry.metrics()).toContain('process_cpu_user_seconds_total');
    expect(bot.count()).toBe(4);
    metrics.dispose();
    expect(bot.count()).toBe(0);
    expect(registry.getSingleMetric('switchboard_sends_total')).toBeUndefined();
  });
});

describe('createMetrics storeOperations', () => {
  it('should serve store operation counts by operation and kind at scrape time', async () => {
    const counts = new Map<string, number>([['putConversation', 3]]);
    const metrics = createMetrics(fakeBot(), { processMetrics: false, storeOperations: counts });
    const name = 'switchboard_store_operations_total';
    expect(
      await value(metrics.registry, name, { operation: 'putConversation', kind: 'write' }),
    ).toBe(3);
    counts.set('getConversation', 2);
    counts.set('putConversation', 5);
    expect(
      await value(metrics.registry, name, { operation: 'putConversation', kind: 'write' }),
    ).toBe(5);
    expect(
      await value(metrics.registry, name, { operation: 'getConversation', kind: 'read' }),
    ).toBe(2);
    metrics.dispose();
    expect(metrics.registry.getSingleMetric(name)).toBeUndefined();
  });
});
