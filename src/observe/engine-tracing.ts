/**
 * The spans of the engine: one trace per inbound item. `ingest <kind>` (a callback, a poll,
 * `handle()`, an external event or a fired timer) → `turn <kind>` (the engine applying the
 * item) → `handler <name>` and `POST /v1/messages` (each send attempt). Continuations the
 * engine enqueues during a turn (a handler's result, a send failure, a reconciliation)
 * carry the turn's context, so their turns are children of it in the same trace.
 *
 * Attributes carry ids and states only, never message texts, variables or secrets.
 * With OpenTelemetry's no-op tracer (nothing registered) every span is non-recording and
 * no trace context is written into the inbox.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { SendResult } from '../api/send-result.js';
import type { FlowEvent } from '../flows/contract.js';
import type { InboxItem } from '../store/store.js';
import {
  contextFromTraceparent,
  itemTraceparent,
  toTraceparent,
  withTraceparent,
} from './trace-context.js';

/** The attribute names switchboard sets on its spans. */
export const TRACE_ATTRIBUTES = {
  businessNumber: 'switchboard.business_number',
  conversationId: 'switchboard.conversation.id',
  source: 'switchboard.ingest.source',
  duplicate: 'switchboard.ingest.duplicate',
  itemId: 'switchboard.item.id',
  itemKind: 'switchboard.item.kind',
  eventType: 'switchboard.event.type',
  messageType: 'switchboard.message.type',
  flowId: 'switchboard.flow.id',
  flowState: 'switchboard.flow.state',
  nextFlowId: 'switchboard.flow.next_id',
  nextFlowState: 'switchboard.flow.next_state',
  handler: 'switchboard.handler.name',
  handlerResult: 'switchboard.handler.result',
  handlerOutcome: 'switchboard.handler.outcome',
  sendSeq: 'switchboard.send.seq',
  sendAttempt: 'switchboard.send.attempt',
  contentType: 'switchboard.send.content_type',
  sendOutcome: 'switchboard.send.outcome',
  messageId: 'switchboard.send.message_id',
  errorCode: 'switchboard.error.code',
} as const;

/** Where an item entered the inbox. `engine`: a continuation enqueued during a turn. */
export type IngestSource = 'callback' | 'poll' | 'handle' | 'event' | 'timer' | 'engine';

/** What the engine knows of a conversation's flow at a point of its turn. */
export interface FlowPosition {
  readonly flowId: string;
  readonly state: string;
}

/** Options of {@link EngineTracing}. */
export interface EngineTracingOptions {
  /** The business number the bot serves, when known: an attribute of every span. */
  readonly businessNumber?: string;
}

const A = TRACE_ATTRIBUTES;

/**
 * The engine's spans, around the work the engine already does. Made by `createBot` from
 * its `tracer` option (default: the global OpenTelemetry API's, a no-op until an SDK is
 * registered, e.g. by {@link startTracing}).
 */
export class EngineTracing {
  readonly #tracer: Tracer;
  readonly #common: Attributes;

  constructor(tracer: Tracer, options: EngineTracingOptions = {}) {
    this.#tracer = tracer;
    this.#common =
      options.businessNumber === undefined ? {} : { [A.businessNumber]: options.businessNumber };
  }

  /**
   * Enqueues an item through `enqueue`. A continuation (`engine`) carries the active
   * span's context; any other source opens the item's trace with an `ingest` span (a child
   * of the active span, e.g. an HTTP server span of an instrumented app), whose context
   * the item carries to its turn.
   */
  async enqueue(
    conversationId: string,
    item: InboxItem,
    source: IngestSource,
    enqueue: (item: InboxItem) => Promise<boolean>,
  ): Promise<boolean> {
    if (source === 'engine') {
      const active = trace.getSpan(context.active());
      const parent = active?.isRecording() === true ? active.spanContext() : undefined;
      return enqueue(parent === undefined ? item : withTraceparent(item, toTraceparent(parent)));
    }
    const span = this.#tracer.startSpan(`ingest ${kindOf(item)}`, { kind: SpanKind.PRODUCER });
    if (!span.isRecording()) {
      // Tracing off (the no-op tracer) or not sampled: no attribute built, nothing carried.
      span.end();
      return enqueue(item);
    }
    span.setAttributes({
      ...this.#common,
      ...itemAttributes(conversationId, item),
      [A.source]: source,
    });
    try {
      const traced = withTraceparent(item, toTraceparent(span.spanContext()));
      const fresh = await context.with(trace.setSpan(context.active(), span), () =>
        enqueue(traced),
      );
      span.setAttribute(A.duplicate, !fresh);
      return fresh;
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * Runs the turn of one item inside a `turn` span whose parent is the context the item
   * carries (none: a trace of its own), whatever context is active around the call.
   */
  async turn<T>(conversationId: string, item: InboxItem, run: () => Promise<T>): Promise<T> {
    const parent = contextFromTraceparent(itemTraceparent(item));
    const span = this.#tracer.startSpan(
      `turn ${kindOf(item)}`,
      { kind: SpanKind.CONSUMER },
      parent,
    );
    if (!span.isRecording()) {
      span.end();
      return context.with(ROOT_CONTEXT, run);
    }
    span.setAttributes({ ...this.#common, ...itemAttributes(conversationId, item) });
    try {
      return await context.with(trace.setSpan(ROOT_CONTEXT, span), run);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * Notes the flow's position on the active turn span: `before` it applies the item (flow
   * id and state name), `after` (the state it moved to).
   */
  annotateTurn(position: FlowPosition, when: 'before' | 'after'): void {
    const span = trace.getSpan(context.active());
    if (span?.isRecording() !== true) return;
    if (when === 'before')
      span.setAttributes({ [A.flowId]: position.flowId, [A.flowState]: position.state });
    else span.setAttributes({ [A.nextFlowId]: position.flowId, [A.nextFlowState]: position.state });
  }

  /** Runs a handler call inside a `handler <name>` span; the event it produced sets the result. */
  async handler(
    conversationId: string,
    name: string,
    position: FlowPosition,
    call: () => Promise<FlowEvent>,
  ): Promise<FlowEvent> {
    return this.#within(
      `handler ${name}`,
      SpanKind.INTERNAL,
      {
        ...this.#common,
        [A.conversationId]: conversationId,
        [A.handler]: name,
        [A.flowId]: position.flowId,
        [A.flowState]: position.state,
      },
      async (span) => {
        const event = await call();
        if (event.type === 'handler.done') {
          span.setAttributes({ [A.handlerResult]: 'done', [A.handlerOutcome]: event.outcome });
        } else if (event.type === 'handler.error') {
          span.setAttribute(A.handlerResult, event.reason);
          span.setStatus({ code: SpanStatusCode.ERROR, message: `handler ${event.reason}` });
        }
        return event;
      },
    );
  }

  /** Runs one send attempt (the API POST) inside a `POST /v1/messages` span. */
  async send(
    conversationId: string,
    send: { readonly seq: number; readonly contentType: string; readonly attempt: number },
    post: () => Promise<SendResult>,
  ): Promise<SendResult> {
    return this.#within(
      'POST /v1/messages',
      SpanKind.CLIENT,
      {
        ...this.#common,
        [A.conversationId]: conversationId,
        [A.sendSeq]: send.seq,
        [A.sendAttempt]: send.attempt,
        [A.contentType]: send.contentType,
      },
      async (span) => {
        const result = await post();
        span.setAttribute(A.sendOutcome, result.status);
        if (result.status === 'accepted') span.setAttribute(A.messageId, result.messageId);
        else if (result.status === 'rejected') {
          const code = String(result.error.code);
          span.setAttribute(A.errorCode, code);
          span.setStatus({ code: SpanStatusCode.ERROR, message: code });
        } else {
          span.setAttribute(A.errorCode, result.reason);
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: `outcome unknown: ${result.reason}`,
          });
        }
        return result;
      },
    );
  }

  async #within<T>(
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    run: (span: Span) => Promise<T>,
  ): Promise<T> {
    const active = context.active();
    if (trace.getSpan(active)?.isRecording() !== true) {
      // No turn records (tracing off, or work outside a traced turn): nothing to add.
      return run(NON_RECORDING);
    }
    const span = this.#tracer.startSpan(name, { kind, attributes }, active);
    try {
      return await context.with(trace.setSpan(active, span), () => run(span));
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  }
}

const NON_RECORDING = trace.wrapSpanContext({ traceId: '', spanId: '', traceFlags: 0 });

/** The payload kind of an item (`inbound`, `flow`, ...), or `item` when it has none. */
function kindOf(item: InboxItem): string {
  const kind: unknown = Reflect.get(Object(item.payload), 'kind');
  return typeof kind === 'string' ? kind : 'item';
}

/** Ids and types of an item: never its text, variables or contact. */
function itemAttributes(conversationId: string, item: InboxItem): Attributes {
  const payload = Object(item.payload) as object;
  const attributes: Attributes = {
    [A.conversationId]: conversationId,
    [A.itemId]: item.id,
    [A.itemKind]: kindOf(item),
  };
  const event: unknown = Reflect.get(Object(Reflect.get(payload, 'event')), 'type');
  if (typeof event === 'string') attributes[A.eventType] = event;
  const messageType: unknown = Reflect.get(Object(Reflect.get(payload, 'message')), 'type');
  if (typeof messageType === 'string') attributes[A.messageType] = messageType;
  return attributes;
}

/** Marks a span failed with the error's name only (a message may quote user data). */
function failed(span: Span, error: unknown): void {
  const name = error instanceof Error ? error.name : typeof error;
  span.setStatus({ code: SpanStatusCode.ERROR, message: name });
  span.setAttribute('error.type', name);
}
