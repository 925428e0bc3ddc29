/**
 * The trace context an inbox item carries from its ingest to its turn. The inbox decouples
 * the two (an item may be applied later, by another worker, after a crash), so the ingest
 * span's context travels with the item, in its payload as `trace`: a W3C `traceparent`
 * string. Every store keeps the payload as JSON, so no store changes; the engine's payload
 * schema ignores the field. Written only while a span records (tracing off: no byte added).
 */
import {
  ROOT_CONTEXT,
  TraceFlags,
  isSpanContextValid,
  trace,
  type Context,
  type SpanContext,
} from '@opentelemetry/api';
import { z } from 'zod';
import type { InboxItem } from '../store/store.js';

/** A W3C traceparent of version 00: `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`. */
export const TraceparentSchema = z
  .string()
  .regex(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, 'a W3C traceparent (version 00)');

const PayloadTrace = z.object({ trace: TraceparentSchema });

/** The traceparent of a span context; undefined when it is not valid (tracing off). */
export function toTraceparent(spanContext: SpanContext): string | undefined {
  if (!isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/**
 * The context whose parent span is the one a traceparent names (a remote parent); the
 * root context when the value is absent or not a valid traceparent.
 */
export function contextFromTraceparent(value: string | undefined): Context {
  if (value === undefined) return ROOT_CONTEXT;
  const parsed = TraceparentSchema.safeParse(value);
  if (!parsed.success) return ROOT_CONTEXT;
  const [, traceId = '', spanId = '', flags = '00'] = parsed.data.split('-');
  const spanContext: SpanContext = {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(spanContext)
    ? trace.setSpanContext(ROOT_CONTEXT, spanContext)
    : ROOT_CONTEXT;
}

/** The traceparent an inbox item's payload carries, if any (validated). */
export function itemTraceparent(item: InboxItem): string | undefined {
  const payload = item.payload;
  if (typeof payload !== 'object' || payload === null || !('trace' in payload)) return undefined;
  const parsed = PayloadTrace.safeParse(payload);
  return parsed.success ? parsed.data.trace : undefined;
}

/** The item with `traceparent` in its payload (a copy; an object payload only). */
export function withTraceparent(item: InboxItem, traceparent: string | undefined): InboxItem {
  const payload = item.payload;
  if (traceparent === undefined || typeof payload !== 'object' || payload === null) return item;
  return { ...item, payload: { ...payload, trace: traceparent } };
}
