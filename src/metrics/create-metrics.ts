import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Bot } from '../engine/types.js';
import { MessageType } from '../api/resources.js';
import { EFFECT_KINDS, FLOW_EVENT_TYPES } from '../flows/contract.js';
import { boundedLabel, oneOf } from './bounded-label.js';
import { sendOutcomeLabel } from './send-outcome-label.js';
import { WRITE_OPERATIONS } from '../store/counted-store.js';
import {
  OPERATIONS_METRIC_NAMES,
  registerOperationsMetrics,
  type OperationsMetrics,
  type OperationsProbes,
} from './operations-metrics.js';
import { understandingOutcome } from '../understand/understanding-outcome.js';

/** Options of {@link createMetrics}. */
export interface MetricsOptions extends OperationsProbes {
  /** Where to register (default: a new `Registry`; never prom-client's global one). */
  readonly registry?: Registry;
  /** Also collect prom-client's default process metrics (default true). */
  readonly processMetrics?: boolean;
  /** Read at every scrape for `switchboard_poll_leader` (absent: the gauge reads 0). */
  readonly isPollLeader?: () => boolean;
  /**
   * Calls of each store operation so far (from `countStoreOperations`), read at every
   * scrape for `switchboard_store_operations_total` (absent: the counter is not served).
   */
  readonly storeOperations?: ReadonlyMap<string, number>;
}

/** The metrics of one bot. */
export interface BotMetrics extends Pick<OperationsMetrics, 'observeApiCall'> {
  readonly registry: Registry;
  /** Stops listening to the bot and removes the switchboard metrics from the registry. */
  dispose(): void;
}

const INBOUND_TYPES: readonly string[] = MessageType.options;
/** Sampling period of the event-loop delay metrics (`nodejs_eventloop_lag_*`), ms. */
export const EVENT_LOOP_SAMPLE_MS = 100;
const NAMES = [
  'switchboard_inbound_messages_total',
  'switchboard_flow_events_total',
  'switchboard_effects_total',
  'switchboard_sends_total',
  'switchboard_send_rejections_total',
  'switchboard_template_fallbacks_total',
  'switchboard_handler_calls_total',
  'switchboard_errors_total',
  'switchboard_understandings_total',
  'switchboard_poll_leader',
  'switchboard_store_operations_total',
  ...OPERATIONS_METRIC_NAMES,
];
const OTHER_OUTCOMES = [
  'handler.done',
  'handler.error',
  'scheduled',
  'cancelled',
  'noted',
  'ended',
  'started',
  'saved',
  'logged',
];

/**
 * Prometheus metrics of a bot, derived from its `event`, `effect` and `error` events.
 * Labels are bounded: no conversation ids, phone numbers or texts; values that come
 * from user code (handler names and outcomes, error names) are capped.
 * @example
 * const metrics = createMetrics(bot, { isPollLeader: () => leader.isLeader });
 * app.get('/metrics', async (_req, res) => {
 *   res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
 * });
 */
export function createMetrics(bot: Pick<Bot, 'on'>, options: MetricsOptions = {}): BotMetrics {
  const registry = options.registry ?? new Registry();
  // The event-loop delay histogram samples every 100 ms, not prom-client's 10 ms: at 10 ms
  // its timer alone cost ~9 ms of CPU per second here, about all an idle bot spends
  // (a stall still shows: it delays the next sample by as much).
  if (options.processMetrics ?? true)
    collectDefaultMetrics({
      register: registry,
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });
  const registers = [registry];
  const inbound = new Counter({
    name: 'switchboard_inbound_messages_total',
    help: 'Inbound messages fed to conversations, by message type',
    labelNames: ['type'] as const,
    registers,
  });
  const flowEvents = new Counter({
    name: 'switchboard_flow_events_total',
    help: 'Events fed to flow machines, by event type',
    labelNames: ['type'] as const,
    registers,
  });
  const effects = new Counter({
    name: 'switchboard_effects_total',
    help: 'Effects carried out (or skipped), by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const sends = new Counter({
    name: 'switchboard_sends_total',
    help: 'Send effects by outcome: accepted, rejected, unknown, suppressed_human_owned, held_for_window, window_closed, already_done',
    labelNames: ['outcome'] as const,
    registers,
  });
  const rejections = new Counter({
    name: 'switchboard_send_rejections_total',
    help: 'Sends the API rejected, by error code',
    labelNames: ['code'] as const,
    registers,
  });
  const fallbacks = new Counter({
    name: 'switchboard_template_fallbacks_total',
    help: 'Sends replaced by the state’s template because the 24-hour window was closed',
    registers,
  });
  const handlerCalls = new Counter({
    name: 'switchboard_handler_calls_total',
    help: 'Handler calls by handler and result (done, error, timeout, unknown_outcome) and outcome',
    labelNames: ['handler', 'result', 'outcome'] as const,
    registers,
  });
  const errors = new Counter({
    name: 'switchboard_errors_total',
    help: 'Errors the bot survived, by error name',
    labelNames: ['name'] as const,
    registers,
  });
  const understandings = new Counter({
    name: 'switchboard_understandings_total',
    help: 'Texts understood, by best intent (empty: none), outcome (intent, knowledge, slots, correction, handoff, out_of_scope, below_threshold, none), source and fallback reason',
    labelNames: ['intent', 'outcome', 'source', 'fallback'] as const,
    registers,
  });
  const isPollLeader = options.isPollLeader;
  // Registered in `registers`; its value is read at scrape time by `collect`.
  new Gauge({
    name: 'switchboard_poll_leader',
    help: '1 while this worker holds the polling lease, else 0',
    registers,
    collect() {
      this.set(isPollLeader?.() === true ? 1 : 0);
    },
  });
  const storeOperations = options.storeOperations;
  if (storeOperations !== undefined)
    new Counter({
      name: 'switchboard_store_operations_total',
      help: 'Store operations called, by operation and kind (write: changes what is stored)',
      labelNames: ['operation', 'kind'] as const,
      registers,
      collect() {
        this.reset();
        for (const [operation, n] of storeOperations)
          this.inc({ operation, kind: WRITE_OPERATIONS.has(operation) ? 'write' : 'read' }, n);
      },
    });
  const operations = registerOperationsMetrics(registry, options);
  const handlerLabel = boundedLabel(100);
  const outcomeLabel = boundedLabel(200);
  const errorLabel = boundedLabel(50);
  const intentLabel = boundedLabel(100);
  const fallbackLabel = boundedLabel(20);

  const unsubscribe = [
    bot.on('event', ({ event }) => {
      flowEvents.inc({ type: oneOf(FLOW_EVENT_TYPES, event.type) });
      if (event.type === 'inbound.message') {
        inbound.inc({ type: oneOf(INBOUND_TYPES, event.message.type) });
        operations.observeInboundWait(event.message.occurredAt);
      } else if (event.type === 'handler.done')
        handlerCalls.inc({
          handler: handlerLabel(event.handler),
          result: 'done',
          outcome: outcomeLabel(event.outcome),
        });
      else if (event.type === 'handler.error')
        handlerCalls.inc({
          handler: handlerLabel(event.handler),
          result: event.reason,
          outcome: '',
        });
    }),
    bot.on('effect', ({ effect, outcome }) => {
      if (effect.kind === 'send') {
        const label = sendOutcomeLabel(outcome);
        effects.inc({ kind: 'send', outcome: label.outcome });
        sends.inc({ outcome: label.outcome });
        if (label.code !== undefined) rejections.inc({ code: label.code });
        if (label.templateFallback) fallbacks.inc();
        return;
      }
      effects.inc({
        kind: oneOf(EFFECT_KINDS, effect.kind),
        outcome: oneOf(OTHER_OUTCOMES, outcome),
      });
    }),
    bot.on('understood', ({ understanding, threshold }) => {
      understandings.inc({
        intent: understanding.intent === undefined ? '' : intentLabel(understanding.intent.id),
        outcome: understandingOutcome(understanding, threshold),
        source: understanding.source,
        fallback: understanding.fallback === undefined ? '' : fallbackLabel(understanding.fallback),
      });
    }),
    bot.on('error', ({ error }) => {
      errors.inc({ name: errorLabel(error instanceof Error ? error.name : typeof error) });
    }),
  ];

  return {
    registry,
    observeApiCall: operations.observeApiCall,
    dispose() {
      for (const off of unsubscribe) off();
      for (const name of NAMES) registry.removeSingleMetric(name);
    },
  };
}
