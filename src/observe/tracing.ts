/**
 * Turning OpenTelemetry tracing on from the standard `OTEL_*` variables (what `switchboard
 * run` does, and what a library user may call before `createBot`). Off unless enabled;
 * the SDK is loaded only when it is on, so a bot without tracing pays for the API's no-op
 * tracer alone.
 */
import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

/** Whether, and how, the environment asks for traces. */
export type TracingDecision =
  | { readonly status: 'off'; readonly reason: string }
  | {
      readonly status: 'on';
      /** `otlp`: OTLP over HTTP with JSON bodies; `console`: spans printed on stdout. */
      readonly exporters: readonly ('otlp' | 'console')[];
      /** The OTLP traces URL (with `otlp`). */
      readonly url?: string;
    }
  | { readonly status: 'invalid'; readonly message: string };

type Env = Readonly<Record<string, string | undefined>>;

const SUPPORTED = ['otlp', 'console', 'none'] as const;

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/**
 * Reads the standard variables:
 * - `OTEL_SDK_DISABLED=true` turns tracing off, whatever else is set;
 * - `OTEL_TRACES_EXPORTER` (`otlp`, `console`, a comma-separated list of them, or `none`)
 *   turns it on (or off with `none`);
 * - unset, tracing is on with `otlp` when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
 *   `OTEL_EXPORTER_OTLP_ENDPOINT` is set, else off (unlike the SDK's default of `otlp`:
 *   a bot never sends spans to a collector nobody configured);
 * - `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`, when set, must be `http/json` (the exporter
 *   switchboard ships speaks OTLP/HTTP with JSON bodies).
 * @example
 * tracingDecision({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' });
 * // { status: 'on', exporters: ['otlp'], url: 'http://collector:4318/v1/traces' }
 */
export function tracingDecision(env: Env): TracingDecision {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true')
    return { status: 'off', reason: 'OTEL_SDK_DISABLED=true' };
  const listed = value(env, 'OTEL_TRACES_EXPORTER');
  const tracesEndpoint = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  let names: string[];
  if (listed === undefined) {
    if (tracesEndpoint === undefined && endpoint === undefined)
      return {
        status: 'off',
        reason: 'neither OTEL_TRACES_EXPORTER nor OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set',
      };
    names = ['otlp'];
  } else {
    names = [...new Set(listed.split(',').map((n) => n.trim().toLowerCase()))];
    const unknown = names.find((n) => !(SUPPORTED as readonly string[]).includes(n));
    if (unknown !== undefined)
      return {
        status: 'invalid',
        message: `OTEL_TRACES_EXPORTER=${listed}: "${unknown}" is not supported; use otlp, console or none`,
      };
    if (names.includes('none')) return { status: 'off', reason: 'OTEL_TRACES_EXPORTER=none' };
  }
  const exporters = names as ('otlp' | 'console')[];
  if (!exporters.includes('otlp')) return { status: 'on', exporters };
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = value(env, name);
    if (protocol !== undefined && protocol !== 'http/json')
      return {
        status: 'invalid',
        message: `${name}=${protocol} is not supported: switchboard exports OTLP over HTTP with JSON bodies (set http/json; an OpenTelemetry Collector accepts it on port 4318)`,
      };
  }
  const url =
    tracesEndpoint ?? `${(endpoint ?? 'http://localhost:4318').replace(/\/+$/, '')}/v1/traces`;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    return {
      status: 'invalid',
      message: `the OTLP traces endpoint "${url}" is not an http(s) URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT)`,
    };
  return { status: 'on', exporters, url };
}

/** Tracing that {@link startTracing} turned on. */
export interface Tracing {
  /** The tracer to give `createBot({ tracer })` (the global one is registered too). */
  readonly tracer: Tracer;
  /** What it exports to, for a log line: e.g. `otlp http://collector:4318/v1/traces`. */
  readonly description: string;
  /** Exports the spans still buffered. */
  flush(): Promise<void>;
  /** Flushes, stops the SDK and unregisters it from the global API. */
  shutdown(): Promise<void>;
}

/** Options of {@link startTracing}. */
export interface StartTracingOptions {
  /** Where the `OTEL_*` variables are read (default `process.env`). */
  readonly env?: Env;
  /** Export to this exporter instead of the ones the environment names (tests). */
  readonly exporter?: SpanExporter;
  /** Export each span as it ends (tests) instead of in batches (default). */
  readonly simple?: boolean;
  /** `service.name` when `OTEL_SERVICE_NAME` is unset (default `switchboard`). */
  readonly serviceName?: string;
}

/** What {@link startTracing} answers. */
export type StartTracingResult =
  | { readonly status: 'on'; readonly tracing: Tracing }
  | { readonly status: 'off'; readonly reason: string }
  | { readonly status: 'invalid'; readonly message: string };

/**
 * Starts the OpenTelemetry SDK when the environment asks for traces (see
 * {@link tracingDecision}; an `exporter` given here turns it on regardless): a Node tracer
 * provider with the async-hooks context manager and W3C propagation, registered as the
 * global one, batching spans to the exporters. `OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER(_ARG)`, `OTEL_BSP_*` and
 * `OTEL_EXPORTER_OTLP_(TRACES_)HEADERS/TIMEOUT` apply as the SDK defines them.
 * @example
 * const started = await startTracing();
 * if (started.status === 'invalid') throw new Error(started.message);
 * const bot = createBot({ ...options, ...(started.status === 'on' ? { tracer: started.tracing.tracer } : {}) });
 */
export async function startTracing(options: StartTracingOptions = {}): Promise<StartTracingResult> {
  const env = options.env ?? process.env;
  const decision: TracingDecision =
    options.exporter === undefined ? tracingDecision(env) : { status: 'on', exporters: [] };
  if (decision.status !== 'on') return decision;
  const [
    { NodeTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, ConsoleSpanExporter },
    res,
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
  ]);
  const exporters: SpanExporter[] = [];
  const described: string[] = [];
  if (options.exporter !== undefined) {
    exporters.push(options.exporter);
    described.push('custom exporter');
  }
  for (const name of decision.exporters) {
    if (name === 'console') {
      exporters.push(new ConsoleSpanExporter());
      described.push('console');
    } else {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
      exporters.push(
        new OTLPTraceExporter(decision.url === undefined ? {} : { url: decision.url }),
      );
      described.push(`otlp ${decision.url ?? ''}`);
    }
  }
  const resource = res
    .defaultResource()
    .merge(res.resourceFromAttributes({ 'service.name': options.serviceName ?? 'switchboard' }))
    .merge(res.detectResources({ detectors: [res.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: exporters.map((e) =>
      options.simple === true ? new SimpleSpanProcessor(e) : new BatchSpanProcessor(e),
    ),
  });
  provider.register();
  let stopped: Promise<void> | undefined;
  return {
    status: 'on',
    tracing: {
      tracer: provider.getTracer('switchboard'),
      description: described.join(', '),
      flush: () => provider.forceFlush(),
      shutdown() {
        stopped ??= provider.shutdown().finally(() => {
          trace.disable();
          context.disable();
          propagation.disable();
        });
        return stopped;
      },
    },
  };
}
