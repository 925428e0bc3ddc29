import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ApiCall } from '../api/client.js';
import { boundedLabel } from './bounded-label.js';

/** What the operations metrics read at scrape time (each optional). */
export interface OperationsProbes {
  /** Whether the store answers now (`switchboard_store_up`); absent: the gauge is not set. */
  readonly probeStore?: () => Promise<boolean>;
  /**
   * Age in ms of the oldest item waiting in an inbox, 0 when none waits
   * (`switchboard_backlog_oldest_age_seconds`; see {@link oldestWaitingAgeMs}).
   */
  readonly oldestWaitingMs?: () => Promise<number>;
  /** Wall clock for the inbound wait (default `Date.now`). */
  readonly now?: () => number;
  /** Longest a scrape waits for a probe (default 2,000 ms): past it the probe counts as failed. */
  readonly probeTimeoutMs?: number;
}

/** The metrics {@link registerOperationsMetrics} adds, by name. */
export const OPERATIONS_METRIC_NAMES = [
  'switchboard_api_calls_total',
  'switchboard_inbound_wait_seconds',
  'switchboard_store_up',
  'switchboard_backlog_oldest_age_seconds',
] as const;

/** Observers of the operations metrics. */
export interface OperationsMetrics {
  /** Counts one API attempt (give it to `MessagingClient`'s `onCall`). */
  readonly observeApiCall: (call: ApiCall) => void;
  /** Observes how long an inbound message waited, from its `occurredAt` to its turn. */
  readonly observeInboundWait: (occurredAt: string) => void;
}

const API_ROUTES = new Set([
  'POST /v1/messages',
  'GET /v1/conversations',
  'GET /v1/conversations/:conversationId/messages',
  'GET /v1/messages/:messageId',
  'GET /v1/media/:mediaId',
]);

/**
 * The metrics the alert rules of `ops/prometheus-alerts.yml` need beyond the bot's events:
 * API attempts by route and status (429s, 5xx, timeouts as status 0), the wait of inbound
 * messages before their turn, whether the store answers, and the oldest waiting item.
 */
export function registerOperationsMetrics(
  registry: Registry,
  probes: OperationsProbes = {},
): OperationsMetrics {
  const registers = [registry];
  const timeoutMs = probes.probeTimeoutMs ?? 2_000;
  const now = probes.now ?? Date.now;
  const apiCalls = new Counter({
    name: 'switchboard_api_calls_total',
    help: 'Messaging API attempts (retries included) by route template and HTTP status (0: timeout or network failure)',
    labelNames: ['route', 'status'] as const,
    registers,
  });
  const inboundWait = new Histogram({
    name: 'switchboard_inbound_wait_seconds',
    help: 'Time from an inbound message (its occurredAt) to the turn that fed it to the flow',
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers,
  });
  const storeProbe = probes.probeStore;
  if (storeProbe !== undefined)
    new Gauge({
      name: 'switchboard_store_up',
      help: '1 when the store answered a read at this scrape, else 0',
      registers,
      async collect() {
        this.set((await within(storeProbe(), timeoutMs).catch(() => false)) ? 1 : 0);
      },
    });
  const oldest = probes.oldestWaitingMs;
  if (oldest !== undefined)
    new Gauge({
      name: 'switchboard_backlog_oldest_age_seconds',
      help: 'Age of the oldest item waiting in a conversation inbox (by its event time); NaN when the store does not answer',
      registers,
      async collect() {
        const ms = await within(oldest(), timeoutMs).catch(() => Number.NaN);
        this.set(ms / 1000);
      },
    });
  const statusLabel = boundedLabel(40);
  return {
    observeApiCall: (call) => {
      apiCalls.inc({
        route: API_ROUTES.has(call.route) ? call.route : 'other',
        status: statusLabel(String(call.status)),
      });
    },
    observeInboundWait: (occurredAt) => {
      const at = Date.parse(occurredAt);
      if (Number.isFinite(at)) inboundWait.observe(Math.max(0, now() - at) / 1000);
    },
  };
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
