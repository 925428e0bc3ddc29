import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../log/logger.js';
import { blockKeysFor, type BudgetIdentity } from './budgets.js';
import {
  ApiResponseError,
  ConnectionError,
  NetworkError,
  errorFromResponse,
  type ApiError,
} from './errors.js';
import { exchange, type HttpOutcome } from './http.js';
import type { BudgetRule, Limiter, Ticket } from './limiter.js';
import { backoffDelayMs, retryHintMs, type RetryPolicy } from './retry.js';

/** A response outcome of {@link exchange}. */
export type ResponseOutcome = Extract<HttpOutcome, { status: 'response' }>;

/** How long past the request deadline a taken unit may stay in flight before it expires. */
export const IN_FLIGHT_GRACE_MS = 30_000;

/** A successful read: the 200 outcome and when its request was started (ISO). */
export type ReadOutcome = ResponseOutcome & { readonly requestTime: string };

/** @internal Everything the transport needs; built by MessagingClient. */
export interface TransportOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly identity: BudgetIdentity;
  readonly limiter: Limiter;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Injected fetch (tests); undefined: JSON calls go through the keep-alive pool. */
  readonly fetch: typeof fetch | undefined;
  readonly dispatcher?: Dispatcher;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  /** Told of every attempt's outcome (metrics); must not throw. */
  readonly onCall?: ((call: CallRecord) => void) | undefined;
}

/** @internal Support fields of one call, logged for every attempt (never the key). */
export interface CallRecord {
  readonly route: string;
  readonly requestTime: string;
  readonly status: number;
  readonly code?: string | undefined;
  readonly requestId?: string | undefined;
  readonly attempt?: number;
}

/**
 * @internal The wire layer of MessagingClient: budgets taken before each call and settled
 * when it completes (see limiter.ts), one exchange per attempt, read retries with backoff
 * and server hints, support logging.
 */
export class Transport {
  constructor(readonly options: TransportOptions) {}

  /**
   * Takes one unit of every rule, waiting (with the injectable sleep) while over budget.
   * The unit stays in flight until {@link Transport.completeBudget}; its bound is the
   * request deadline plus {@link IN_FLIGHT_GRACE_MS}, so a dead process frees it later.
   */
  async takeBudget(rules: readonly BudgetRule[]): Promise<Ticket> {
    const inFlightMs = this.options.timeoutMs + IN_FLIGHT_GRACE_MS;
    for (;;) {
      const result = await this.options.limiter.take(rules, this.options.clock.now(), {
        inFlightMs,
      });
      if (result.ok) return result.ticket;
      await this.options.sleep(Math.max(1, result.retryAfterMs));
    }
  }

  /**
   * Settles a taken unit at the current time (the request completed or was given up). A
   * failing limiter must not hide the request's outcome: the error is logged and the unit
   * expires by its in-flight bound.
   */
  async completeBudget(rules: readonly BudgetRule[], ticket: Ticket): Promise<void> {
    try {
      await this.options.limiter.complete(rules, ticket, this.options.clock.now());
    } catch (error) {
      this.options.logger.warn('budget completion failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /**
   * One exchange inside the budgets: take, request, then complete in every case
   * (response, error, timeout, network failure; a timeout completes when it gave up).
   * Returns the outcome and when the request was started (epoch ms).
   */
  async budgetedExchange(
    rules: readonly BudgetRule[],
    method: 'GET' | 'POST',
    path: string,
    mode: 'json' | 'stream',
    body?: string,
  ): Promise<{ outcome: HttpOutcome; startedAt: number }> {
    const ticket = await this.takeBudget(rules);
    try {
      const startedAt = this.options.clock.now();
      return { outcome: await this.exchange(method, path, mode, body), startedAt };
    } finally {
      await this.completeBudget(rules, ticket);
    }
  }

  /** Blocks the key's and number's rules until `now + hintMs`, for every caller. */
  async blockFor(rules: readonly BudgetRule[], hintMs: number): Promise<void> {
    await this.options.limiter.block(blockKeysFor(rules), this.options.clock.now() + hintMs);
  }

  /** One exchange, without budget or retries. */
  exchange(
    method: 'GET' | 'POST',
    path: string,
    mode: 'json' | 'stream',
    body?: string,
  ): Promise<HttpOutcome> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.apiKey}` };
    if (mode === 'json' && method === 'GET') headers['Accept'] = 'application/json';
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const init: RequestInit = { method, headers, redirect: 'manual' };
    if (body !== undefined) init.body = body;
    return exchange({
      fetch: this.options.fetch,
      ...(this.options.dispatcher === undefined ? {} : { dispatcher: this.options.dispatcher }),
      url: `${this.options.baseUrl.replace(/\/+$/, '')}${path}`,
      init,
      timeoutMs: this.options.timeoutMs,
      mode,
    });
  }

  /**
   * A GET with budgets and retries (429, 503, other 5xx, timeouts, network errors), up to
   * `maxAttempts`. Resolves with the 200 outcome; throws the typed ApiError otherwise.
   */
  async read(
    route: string,
    path: string,
    rules: readonly BudgetRule[],
    mode: 'json' | 'stream' = 'json',
  ): Promise<ReadOutcome> {
    const { retry } = this.options;
    for (let attempt = 1; ; attempt++) {
      // Each attempt takes and completes its own unit.
      const { outcome, startedAt } = await this.budgetedExchange(rules, 'GET', path, mode);
      const requestTime = new Date(startedAt).toISOString();
      if (outcome.status === 'response' && outcome.httpStatus === 200) {
        this.log({ route, requestTime, status: 200, requestId: outcome.requestId, attempt });
        return { ...outcome, requestTime };
      }
      const error = this.errorOf(outcome, route, requestTime);
      this.log({
        route,
        requestTime,
        status: error.status,
        code: error.code,
        requestId: error.requestId,
        attempt,
      });
      if (!isRetryableRead(error) || attempt >= retry.maxAttempts) throw error;
      let delay = backoffDelayMs(attempt, retry, this.options.random);
      if (error.retryAfterMs !== undefined) {
        delay = Math.max(delay, error.retryAfterMs);
        // A concurrency refusal is about open streams, not the request budget.
        if (error.code !== 'media_concurrency_exceeded')
          await this.blockFor(rules, error.retryAfterMs);
      }
      await this.options.sleep(delay);
    }
  }

  /** The typed error of a failed outcome (anything but a 200 read). */
  errorOf(outcome: HttpOutcome, route: string, requestTime: string): ApiError {
    if (outcome.status === 'timeout' || outcome.status === 'network') {
      const refused = outcome.status === 'network' && outcome.beforeWrite;
      const init = {
        status: 0,
        code: refused
          ? 'connection_refused'
          : outcome.status === 'timeout'
            ? 'timeout'
            : 'network_error',
        message:
          outcome.status === 'timeout'
            ? `no complete answer within ${this.options.timeoutMs} ms`
            : `network failure${outcome.errorCode === undefined ? '' : ` (${outcome.errorCode})`}`,
        requestTime,
        route,
        cause: outcome.cause,
      };
      return refused ? new ConnectionError(init) : new NetworkError(init);
    }
    const retryAfterMs = retryHintMs(outcome.headers, outcome.body, this.options.clock.now());
    if (outcome.httpStatus < 400) {
      return new ApiResponseError({
        status: outcome.httpStatus,
        code: 'bad_response',
        message: `unexpected status ${outcome.httpStatus}`,
        requestId: outcome.requestId,
        requestTime,
        route,
      });
    }
    return errorFromResponse({
      status: outcome.httpStatus,
      body: outcome.body,
      route,
      requestTime,
      requestId: outcome.requestId,
      retryAfterMs,
    });
  }

  /** Logs the support fields of a call: debug when it succeeded, warn otherwise. */
  log(record: CallRecord): void {
    this.options.onCall?.(record);
    const meta: Record<string, unknown> = { ...record };
    for (const key of Object.keys(meta)) if (meta[key] === undefined) delete meta[key];
    const ok = record.code === undefined && record.status >= 200 && record.status < 300;
    if (ok) this.options.logger.debug('api call', meta);
    else this.options.logger.warn('api call failed', meta);
  }
}

/** Reads retry on 429, 5xx, timeouts and network errors; other 4xx are final. */
export function isRetryableRead(error: ApiError): boolean {
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

/** Parses a 200 body with its schema; a mismatch is an {@link ApiResponseError}, not a crash. */
export function parseReadBody<S extends z.ZodType>(
  outcome: ReadOutcome,
  schema: S,
  route: string,
): z.infer<S> {
  const parsed = schema.safeParse(outcome.body);
  if (parsed.success) return parsed.data;
  throw new ApiResponseError({
    status: outcome.httpStatus,
    code: 'bad_response',
    message: outcome.bodyUnparseable
      ? 'body is not JSON'
      : `body does not match the schema: ${parsed.error.message}`,
    requestId: outcome.requestId,
    requestTime: outcome.requestTime,
    route,
    cause: parsed.error,
  });
}
