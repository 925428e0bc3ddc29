import { systemClock, type Clock } from '../core/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import {
  MessageValidationError,
  validateSendRequest,
  type SendRequest,
} from '../messages/index.js';
import {
  DEFAULT_BUDGET_MARGIN_MS,
  readBudgetRules,
  resolveIdentity,
  sendBudgetRules,
  type BudgetIdentity,
} from './budgets.js';
import { MediaNotReadyError } from './client-errors.js';
import { fingerprintContent } from './fingerprint.js';
import type { BudgetRule, Limiter } from './limiter.js';
import type { MediaDownload } from './media-download.js';
import { readMedia } from './media-reader.js';
import { MemoryLimiter } from './memory-limiter.js';
import {
  CONVERSATIONS_LIST,
  checkListLimit,
  checkProgress,
  historyList,
  issueCursor,
  listQuery,
  type PageCursor,
} from './pagination.js';
import {
  ConversationPage,
  MediaProjection,
  MessageEnvelope,
  MessagePage,
  type Conversation,
  type Message,
} from './resources.js';
import { DEFAULT_RETRY, realSleep, type RetryPolicy } from './retry.js';
import { sendOutcome } from './send-outcome.js';
import type { SendResult } from './send-result.js';
import { Transport, parseReadBody } from './transport.js';
import { apiRoot } from './base-url.js';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';

/** Options of {@link MessagingClient}. */
export interface MessagingClientOptions {
  /** e.g. `https://api.example.com`; a trailing `/v1` is accepted too (paths start with `/v1`). */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Budgets of spec part 8. Default: a new {@link MemoryLimiter} (one process). */
  readonly limiter?: Limiter;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Deadline of one attempt, headers and JSON body included. Default 10,000 ms. */
  readonly timeoutMs?: number;
  /** Read retries. Sends are never retried by the client. */
  readonly retry?: Partial<RetryPolicy>;
  /** Names for budget keys. Default: keyId from a SHA-256 prefix of the key, never the key. */
  readonly identity?: { keyId?: string; numberId?: string; workspaceId?: string };
  /**
   * Injectable fetch (tests): every call goes through it. Default: JSON calls through a
   * keep-alive connection pool (undici), media downloads through the global fetch.
   */
  readonly fetch?: typeof fetch;
  /** The connection pool of JSON calls (an undici `Agent` or `Pool`). Default: one shared per process. */
  readonly dispatcher?: Dispatcher;
  /** Waits for budgets and retries (tests replace it). Default: a real timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1). Default: Math.random. */
  readonly random?: () => number;
  /** Lifetime of a media slot whose holder died without releasing it. Default 15 min. */
  readonly mediaSlotTtlMs?: number;
  /**
   * Added to every budget window for the skew between workers' clocks (default
   * {@link DEFAULT_BUDGET_MARGIN_MS}). Latency needs no margin: budgets settle at completion.
   */
  readonly budgetMarginMs?: number;
  /**
   * Told of every attempt's outcome, retried ones included (for metrics: `route` is the
   * route template, `status` the HTTP status or 0 for a timeout or network failure).
   * Must not throw.
   */
  readonly onCall?: (call: ApiCall) => void;
}

/** One attempt of an API call, as {@link MessagingClientOptions.onCall} is told of it. */
export interface ApiCall {
  readonly route: string;
  readonly status: number;
  /** The error code of a failed attempt. */
  readonly code?: string | undefined;
}

/** A page of a list endpoint; `nextCursor` is bound to the list it came from. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: PageCursor | null;
}

const SEND_ROUTE = 'POST /v1/messages';

/**
 * Typed client of the Messaging Developer API (spec part 4): budgets taken before each
 * call and settled when it completes, reads retried with backoff, sends never replayed.
 * @example
 * const client = new MessagingClient({ baseUrl, apiKey, logger });
 * const result = await client.send(buildSendRequest('+14155550123', text('Hi')));
 * if (result.status === 'unknown') await reconcileLater(result);
 */
export class MessagingClient {
  /** The names budgets are counted under (no secret in them). */
  readonly identity: BudgetIdentity;
  readonly #transport: Transport;
  readonly #limiter: Limiter;
  readonly #clock: Clock;
  readonly #mediaSlotTtlMs: number;
  readonly #sendRules: readonly BudgetRule[];
  readonly #readRules: readonly BudgetRule[];

  constructor(options: MessagingClientOptions) {
    this.identity = resolveIdentity(options.apiKey, options.identity);
    this.#clock = options.clock ?? systemClock;
    this.#limiter = options.limiter ?? new MemoryLimiter({ clock: this.#clock });
    this.#mediaSlotTtlMs = options.mediaSlotTtlMs ?? 15 * 60_000;
    const margin = options.budgetMarginMs ?? DEFAULT_BUDGET_MARGIN_MS;
    this.#sendRules = sendBudgetRules(this.identity, margin);
    this.#readRules = readBudgetRules(this.identity, margin);
    this.#transport = new Transport({
      baseUrl: apiRoot(options.baseUrl),
      apiKey: options.apiKey,
      identity: this.identity,
      limiter: this.#limiter,
      clock: this.#clock,
      logger: options.logger ?? silentLogger,
      timeoutMs: options.timeoutMs ?? 10_000,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      fetch: options.fetch,
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
      onCall: options.onCall,
    });
  }

  /** `GET /v1/conversations`: one page, newest first. */
  async listConversations(
    options: { limit?: number | undefined; after?: PageCursor | undefined } = {},
  ): Promise<Page<Conversation>> {
    const query = listQuery(CONVERSATIONS_LIST, 'after', {
      limit: options.limit,
      cursor: options.after,
    });
    const route = 'GET /v1/conversations';
    const page = await this.#readJson(route, `/v1/conversations${query}`, ConversationPage);
    return { items: page.items, nextCursor: this.#cursor(CONVERSATIONS_LIST, page.nextCursor) };
  }

  /** `GET /v1/conversations/:id/messages`: one page of history, newest first. */
  async listMessages(
    conversationId: string,
    options: { limit?: number | undefined; before?: PageCursor | undefined } = {},
  ): Promise<Page<Message>> {
    const list = historyList(conversationId);
    const query = listQuery(list, 'before', { limit: options.limit, cursor: options.before });
    const route = 'GET /v1/conversations/:conversationId/messages';
    const path = `/v1/conversations/${encodeURIComponent(conversationId)}/messages${query}`;
    const page = await this.#readJson(route, path, MessagePage);
    return { items: page.items, nextCursor: this.#cursor(list, page.nextCursor) };
  }

  /** `GET /v1/messages/:id`: one message and its delivery status. */
  async getMessage(messageId: string): Promise<Message> {
    const path = `/v1/messages/${encodeURIComponent(messageId)}`;
    const body = await this.#readJson('GET /v1/messages/:messageId', path, MessageEnvelope);
    return body.message;
  }

  /** Every conversation, newest first, page after page (stop early with `break`). */
  async *conversations(options: { pageSize?: number } = {}): AsyncGenerator<Conversation> {
    checkListLimit(options.pageSize);
    let after: PageCursor | undefined;
    const seen = new Set<string>();
    do {
      const page = await this.listConversations(withLimit({ after }, options.pageSize));
      yield* page.items;
      after = page.nextCursor ?? undefined;
      checkProgress(seen, after, 'GET /v1/conversations');
    } while (after !== undefined);
  }

  /** The history of one conversation, newest first, page after page. */
  async *history(
    conversationId: string,
    options: { pageSize?: number } = {},
  ): AsyncGenerator<Message> {
    checkListLimit(options.pageSize);
    let before: PageCursor | undefined;
    const seen = new Set<string>();
    do {
      const page = await this.listMessages(conversationId, withLimit({ before }, options.pageSize));
      yield* page.items;
      before = page.nextCursor ?? undefined;
      checkProgress(seen, before, 'GET /v1/conversations/:conversationId/messages');
    } while (before !== undefined);
  }

  /**
   * `GET /v1/media/:id`: streams an attachment while holding a media slot (8 per key and
   * number). Throws {@link MediaSlotError} when all slots are held.
   */
  downloadMedia(mediaId: string): Promise<MediaDownload> {
    return this.#download(`/v1/media/${encodeURIComponent(mediaId)}`);
  }

  /**
   * Downloads the media of a message through its `downloadPath`. Throws
   * {@link MediaNotReadyError} unless the media is `ready` with a download path; it
   * never guesses a URL (spec 2.4).
   */
  async downloadMessageMedia(message: Message): Promise<MediaDownload> {
    const media = message.media;
    if (media === undefined) throw new MediaNotReadyError(message.id, 'no_media', undefined);
    if (media.availability !== 'ready') {
      throw new MediaNotReadyError(message.id, 'not_ready', media.availability);
    }
    const path = media.downloadPath ?? message.downloadPath;
    if (path === undefined) throw new MediaNotReadyError(message.id, 'no_download_path', 'ready');
    if (!MediaProjection.shape.downloadPath.safeParse(path).success) {
      throw new MediaNotReadyError(message.id, 'bad_download_path', 'ready');
    }
    return await this.#download(path);
  }

  /**
   * `POST /v1/messages`. Validates first (invalid: throws MessageValidationError, nothing
   * sent), takes the send budgets, sends once. Outcomes are values, never replayed.
   */
  async send(request: SendRequest): Promise<SendResult> {
    const checked = validateSendRequest(request);
    if (checked.status === 'invalid') throw new MessageValidationError(checked.issues);
    const body = JSON.stringify(checked.value);
    const rules = this.#sendRules;
    const { outcome, startedAt } = await this.#transport.budgetedExchange(
      rules,
      'POST',
      '/v1/messages',
      'json',
      body,
    );
    const requestTime = new Date(startedAt).toISOString();
    const result = sendOutcome(outcome, {
      route: SEND_ROUTE,
      requestTime,
      startedAt,
      to: checked.value.to,
      type: checked.value.type,
      fingerprint: () => fingerprintContent(checked.value),
      errorOf: (o) => this.#transport.errorOf(o, SEND_ROUTE, requestTime),
    });
    if (result.status === 'rejected' && result.retryAfterMs !== undefined) {
      await this.#transport.blockFor(rules, result.retryAfterMs);
    }
    const error =
      result.status === 'rejected'
        ? result.error
        : result.status === 'unknown'
          ? result.cause
          : undefined;
    this.#transport.log({
      route: SEND_ROUTE,
      requestTime,
      status: outcome.status === 'response' ? outcome.httpStatus : 0,
      code:
        error instanceof Error && 'code' in error && typeof error.code === 'string'
          ? error.code
          : undefined,
      requestId: outcome.status === 'response' ? outcome.requestId : undefined,
    });
    return result;
  }

  async #readJson<S extends z.ZodType>(
    route: string,
    path: string,
    schema: S,
  ): Promise<z.infer<S>> {
    const outcome = await this.#transport.read(route, path, this.#readRules);
    return parseReadBody(outcome, schema, route);
  }

  #cursor(list: string, value: string | null): PageCursor | null {
    return value === null ? null : issueCursor(list, value);
  }

  #download(path: string): Promise<MediaDownload> {
    return readMedia({
      transport: this.#transport,
      limiter: this.#limiter,
      identity: this.identity,
      readRules: this.#readRules,
      path,
      slotTtlMs: this.#mediaSlotTtlMs,
    });
  }
}

function withLimit<T extends object>(
  options: T,
  limit: number | undefined,
): T & { limit?: number } {
  return limit === undefined ? options : { ...options, limit };
}
