import { Writable } from 'node:stream';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadBot } from '../../src/bot/load-bot.js';
import { createLogger } from '../../src/log/logger.js';
import { TRACE_ATTRIBUTES as A } from '../../src/observe/engine-tracing.js';
import { startTracing, type Tracing } from '../../src/observe/tracing.js';
import { startBotHarness, type BotHarness } from '../../src/testing/bot-harness.js';
import { TestClock } from '../../src/testing/test-clock.js';

const PHONE = '+15551230001';

/** One JSON log record as the logger wrote it. */
type LogLine = Record<string, unknown>;

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

describe('tracing (in-memory exporter, real bot)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let harness: BotHarness;
  let logs: LogLine[];

  beforeAll(async () => {
    const started = await startTracing({ exporter, simple: true, env: {} });
    if (started.status !== 'on') throw new Error('tracing did not start');
    tracing = started.tracing;
    const loaded = await loadBot('examples/order-status');
    if (loaded.status !== 'ok') throw new Error(loaded.message);
    logs = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n'))
          if (line.trim() !== '') logs.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    harness = await startBotHarness({
      bot: loaded.bot,
      clock: new TestClock(Date.parse('2026-03-02T09:00:00Z')),
      logger: createLogger({ format: 'json', level: 'debug', stream }),
      tracer: tracing.tracer,
      budgets: false,
    });
  });
  afterAll(async () => {
    await harness.close();
    await tracing.shutdown();
  });
  beforeEach(() => exporter.reset());

  /** Sends a text as the contact and waits for the bot; returns the inbound message id. */
  async function say(text: string): Promise<string> {
    const message = harness.sandbox.control.injectInbound({ from: PHONE, type: 'text', text });
    await harness.settle();
    await tracing.flush();
    return message.id;
  }

  function traceOf(messageId: string): ReadableSpan[] {
    const spans = exporter.getFinishedSpans();
    const ingest = spans.find(
      (s) => s.name === 'ingest inbound' && s.attributes[A.itemId] === `msg:${messageId}`,
    );
    expect(ingest, `an ingest span for msg:${messageId}`).toBeDefined();
    return spans.filter((s) => s.spanContext().traceId === ingest?.spanContext().traceId);
  }

  it('should make one trace per inbound message: ingest → turn → sends', async () => {
    const id = await say('hi');
    const spans = traceOf(id);
    const ingest = spans.find((s) => s.name === 'ingest inbound');
    const turn = spans.find((s) => s.name === 'turn inbound');
    const sends = spans.filter((s) => s.name === 'POST /v1/messages');
    expect(ingest?.attributes[A.source]).toBe('callback');
    expect(ingest?.attributes[A.duplicate]).toBe(false);
    expect(parentOf(ingest!)).toBeUndefined();
    expect(parentOf(turn!)).toBe(ingest?.spanContext().spanId);
    // The greeting and the question: two sends, each a child of the turn.
    expect(sends).toHaveLength(2);
    for (const send of sends) {
      expect(parentOf(send)).toBe(turn?.spanContext().spanId);
      expect(send.attributes[A.sendOutcome]).toBe('accepted');
      expect(send.attributes[A.messageId]).toMatch(/\S/);
      expect(send.attributes[A.contentType]).toBe('text');
    }
    const conversationId = turn?.attributes[A.conversationId];
    expect(conversationId).toMatch(/\S/);
    expect(turn?.attributes[A.flowId]).toBe('order-status');
    expect(turn?.attributes[A.nextFlowState]).toMatch(/\S/);
    expect(turn?.attributes[A.messageType]).toBe('text');
    // No other trace holds work of this message.
    const others = exporter
      .getFinishedSpans()
      .filter((s) => s.spanContext().traceId !== turn?.spanContext().traceId);
    expect(others.filter((s) => s.name.startsWith('turn inbound'))).toEqual([]);
  });

  it('should keep the handler call and the turn of its result in the same trace', async () => {
    await say('hi');
    exporter.reset();
    const id = await say('2345678');
    const spans = traceOf(id);
    const turn = spans.find((s) => s.name === 'turn inbound');
    const handler = spans.find((s) => s.name === 'handler lookupOrder');
    const continuation = spans.find(
      (s) => s.name === 'turn flow' && s.attributes[A.eventType] === 'handler.done',
    );
    expect(parentOf(handler!)).toBe(turn?.spanContext().spanId);
    expect(handler?.attributes).toMatchObject({
      [A.handler]: 'lookupOrder',
      [A.handlerResult]: 'done',
      [A.handlerOutcome]: 'shipped',
    });
    expect(parentOf(continuation!)).toBe(turn?.spanContext().spanId);
    const replies = spans.filter(
      (s) => s.name === 'POST /v1/messages' && parentOf(s) === continuation?.spanContext().spanId,
    );
    expect(replies.length).toBeGreaterThanOrEqual(1);
  });

  it('should put no message text, contact or secret in any attribute', async () => {
    await say('hi');
    await say('2345678');
    const apiKey = harness.sandbox.config.keys[0]?.key ?? 'no-key';
    const forbidden = ['2345678', 'Thursday', 'Ada', 'Lovelace', PHONE, apiKey, 'on its way'];
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(4);
    for (const span of spans)
      for (const [key, value] of Object.entries(span.attributes))
        for (const word of forbidden)
          expect(String(value), `${span.name} ${key}`).not.toContain(word);
  });

  it('should put the trace id and span id in the log lines of that work', async () => {
    logs.length = 0;
    const id = await say('hi');
    const spans = traceOf(id);
    const traceId = spans[0]?.spanContext().traceId;
    const sendLines = logs.filter(
      (l) => l['message'] === 'api call' && l['route'] === 'POST /v1/messages',
    );
    const sendSpans = new Set(
      spans.filter((s) => s.name === 'POST /v1/messages').map((s) => s.spanContext().spanId),
    );
    expect(sendLines.length).toBeGreaterThan(0);
    expect(sendLines).toHaveLength(sendSpans.size);
    for (const line of sendLines) {
      expect(line['trace_id']).toBe(traceId);
      expect(sendSpans.has(String(line['span_id']))).toBe(true);
    }
  });
});
