import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/** The trace fields of a log record: the active span's ids. */
export interface TraceFields {
  readonly trace_id: string;
  readonly span_id: string;
}

/**
 * The ids of the span active where the log call is made (OpenTelemetry's context), or
 * undefined when there is none (tracing off: one lookup in the root context). Read at the
 * call, not in a winston format: a format can run later, when the stream is backed up,
 * outside the async context of the work that logged.
 * @example
 * logger.info('send accepted', { ...meta, ...activeTraceFields() });
 */
export function activeTraceFields(): TraceFields | undefined {
  const span = trace.getSpan(context.active());
  if (span === undefined) return undefined;
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : undefined;
}

/** `meta` with the active span's ids added (the same object when there is no span). */
export function withTraceFields(
  meta: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const fields = activeTraceFields();
  return fields === undefined ? meta : { ...meta, ...fields };
}
