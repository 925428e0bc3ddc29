import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createBot } from '../../src/engine/create-bot.js';
import { createLogger } from '../../src/log/logger.js';
import { startTracing, tracingDecision } from '../../src/observe/tracing.js';
import {
  contextFromTraceparent,
  itemTraceparent,
  toTraceparent,
  withTraceparent,
} from '../../src/observe/trace-context.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { trace } from '@opentelemetry/api';
import { acceptingClient } from '../engine/accepting-client.js';
import { echoFlow } from '../engine/echo-machine.js';

describe('tracingDecision', () => {
  const cases: [string, Record<string, string>, unknown][] = [
    ['nothing set', {}, { status: 'off' }],
    [
      'an OTLP endpoint',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' },
      { status: 'on', exporters: ['otlp'], url: 'http://collector:4318/v1/traces' },
    ],
    [
      'a traces endpoint (taken as is)',
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example/api/traces' },
      { status: 'on', exporters: ['otlp'], url: 'https://c.example/api/traces' },
    ],
    [
      'OTEL_TRACES_EXPORTER=otlp alone (the SDK default endpoint)',
      { OTEL_TRACES_EXPORTER: 'otlp' },
      { status: 'on', exporters: ['otlp'], url: 'http://localhost:4318/v1/traces' },
    ],
    ['console', { OTEL_TRACES_EXPORTER: 'console' }, { status: 'on', exporters: ['console'] }],
    [
      'none, even with an endpoint',
      { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' },
      { status: 'off' },
    ],
    [
      'OTEL_SDK_DISABLED=true wins',
      { OTEL_SDK_DISABLED: 'TRUE', OTEL_TRACES_EXPORTER: 'otlp' },
      { status: 'off', reason: 'OTEL_SDK_DISABLED=true' },
    ],
    [
      'OTEL_SDK_DISABLED=false does not disable',
      { OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'console' },
      { status: 'on' },
    ],
    ['an unknown exporter', { OTEL_TRACES_EXPORTER: 'otlp,zipkin' }, { status: 'invalid' }],
    [
      'a protocol other than http/json',
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      { status: 'invalid' },
    ],
    [
      'a traces endpoint that is no URL',
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' },
      { status: 'invalid' },
    ],
  ];
  it.each(cases)('should decide for %s', (_name, env, expected) => {
    expect(tracingDecision(env)).toMatchObject(expected as object);
  });

  it('should name the variable and the fix in its refusals', () => {
    expect(tracingDecision({ OTEL_TRACES_EXPORTER: 'jaeger' })).toEqual({
      status: 'invalid',
      message: 'OTEL_TRACES_EXPORTER=jaeger: "jaeger" is not supported; use otlp, console or none',
    });
    const protocol = tracingDecision({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    });
    expect(protocol.status === 'invalid' && protocol.message).toMatch(
      /^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http\/protobuf is not supported.*http\/json/,
    );
  });

  it('should start nothing when off', async () => {
    expect(await startTracing({ env: { OTEL_SDK_DISABLED: 'true' } })).toEqual({
      status: 'off',
      reason: 'OTEL_SDK_DISABLED=true',
    });
  });
});

describe('trace context in inbox items', () => {
  const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

  it('should round-trip a traceparent through an item payload', () => {
    const item = withTraceparent({ id: 'msg:1', sortKey: 1, payload: { kind: 'inbound' } }, parent);
    expect(item.payload).toEqual({ kind: 'inbound', trace: parent });
    expect(itemTraceparent(JSON.parse(JSON.stringify(item)) as typeof item)).toBe(parent);
    const context = trace.getSpanContext(contextFromTraceparent(parent));
    expect(context).toMatchObject({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
    });
    expect(toTraceparent(context!)).toBe(parent);
  });

  it('should ignore a malformed or absent traceparent', () => {
    for (const bad of ['00-xyz', '01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 42]) {
      const item = { id: 'x', sortKey: 0, payload: { kind: 'flow', trace: bad } };
      expect(itemTraceparent(item)).toBeUndefined();
    }
    expect(trace.getSpanContext(contextFromTraceparent(undefined))).toBeUndefined();
    expect(
      trace.getSpanContext(
        contextFromTraceparent('00-00000000000000000000000000000000-b7ad6b7169203331-01'),
      ),
    ).toBeUndefined();
    expect(withTraceparent({ id: 'x', sortKey: 0, payload: 'text' }, parent).payload).toBe('text');
  });
});

describe('tracing off (no SDK registered)', () => {
  it('should write no trace context into the inbox and no trace id into log lines', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const store = new MemoryStore();
    const enqueued: unknown[] = [];
    const spy = store.enqueue.bind(store);
    store.enqueue = (conversationId, item, ttl) => {
      enqueued.push(item.payload);
      return spy(conversationId, item, ttl);
    };
    const bot = createBot({
      flows: [echoFlow],
      api: { client: acceptingClient() },
      store,
      tickMs: 0,
      logger: createLogger({ format: 'json', level: 'debug', stream }),
    });
    await bot.start();
    await bot.handle({
      kind: 'inbound',
      message: {
        id: 'm1',
        conversationId: 'c1',
        type: 'text',
        text: 'hello',
        occurredAt: new Date().toISOString(),
      },
      contact: { phone: '+15550001111', id: 'ct1', name: 'A' },
    });
    await bot.idle();
    await bot.stop();
    expect(enqueued.length).toBeGreaterThan(0);
    for (const payload of enqueued) expect(payload).not.toHaveProperty('trace');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain('trace_id');
  });
});
