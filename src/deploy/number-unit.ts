import type { Limiter } from '../api/limiter.js';
import { MessagingClient, type ApiCall } from '../api/client.js';
import type { Conversation } from '../api/resources.js';
import type { ResolvedBot } from '../bot/resolve-bot.js';
import { createBot } from '../engine/create-bot.js';
import type { Bot } from '../engine/types.js';
import { PollLeader } from '../ingest/poll-leader.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import { checkApi, type ApiCheck } from '../cli/api-check.js';

/** Where a number stands: `running` answers; the others say why not in `reason`. */
export type NumberStatus =
  | { readonly state: 'starting' }
  | { readonly state: 'running' }
  /**
   * The API refuses the key (401/403) or the number (409 `instance_not_api_managed`, or
   * `instance_unavailable`: disconnected): retried with backoff.
   */
  | { readonly state: 'failed'; readonly reason: string }
  /** The API does not answer (network, 5xx, 429): retried with backoff. */
  | { readonly state: 'unreachable'; readonly reason: string };

/** Options of {@link NumberUnit}. */
export interface NumberUnitOptions {
  /** The number's label (never its key). */
  readonly id: string;
  readonly workspace: string;
  readonly resolved: ResolvedBot;
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Name of the variable holding the key: what error messages name. */
  readonly apiKeyEnv: string;
  readonly callbackSecret: string | undefined;
  /** The number's own store (its namespace of the deployment's state). */
  readonly store: Store;
  /** The deployment's limiter: the workspace budget is shared by all its numbers. */
  readonly limiter: Limiter;
  /** The number's logger (`number` in every record, its secrets redacted). */
  readonly logger: Logger;
  readonly workerId: string;
  readonly pollMs: number | undefined;
  readonly backfillMs: number;
  readonly dedupTtlMs: number;
  /** Lease of the polling leader (default 15,000 ms). */
  readonly leaseMs?: number;
  /** First retry delay of a failing number (default 1 s), doubled up to `maxRetryMs` (5 min). */
  readonly retryBaseMs?: number;
  readonly maxRetryMs?: number;
  /** How often a running number's key is checked again (default 60 s). */
  readonly recheckMs?: number;
  /** Called on every change of status (metrics, readiness). */
  readonly onStatus?: (status: NumberStatus) => void;
}

/**
 * One business number of a deployment: its bot, API client (on the shared limiter), store
 * and polling leader, and a watch that checks its key. A number the API refuses (revoked
 * key, number not API-managed) or does not answer is reported once per change (log,
 * status) and checked again with exponential backoff, on its own: the other numbers never
 * wait for it. Its bot runs meanwhile (callbacks wait in its inbox); polling starts when
 * the key works and stops when it stops working.
 * @example
 * const unit = new NumberUnit({ id: 'sales', ... });
 * await unit.start();
 */
export class NumberUnit {
  readonly id: string;
  readonly bot: Bot;
  readonly client: MessagingClient;
  #status: NumberStatus = { state: 'starting' };
  readonly #leader: PollLeader | undefined;
  #stopped = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #firstRead: ((page: readonly Conversation[]) => void) | undefined;

  constructor(private readonly options: NumberUnitOptions) {
    this.id = options.id;
    this.client = new MessagingClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      logger: options.logger,
      limiter: options.limiter,
      identity: { numberId: options.id, workspaceId: options.workspace },
      onCall: (call) => this.#noticeRefusal(call),
    });
    const firstRead = new Promise<readonly Conversation[]>((resolve) => {
      this.#firstRead = resolve;
    });
    const { resolved } = options;
    this.bot = createBot({
      flows: resolved.flows,
      handlers: resolved.handlers,
      ...(resolved.entry === undefined ? {} : { entry: resolved.entry }),
      ...(resolved.sends === undefined ? {} : { sends: resolved.sends }),
      api: { client: this.client },
      store: options.store,
      logger: options.logger,
      backfillMs: options.backfillMs,
      // The history line comes from the first successful key check's page.
      firstRead,
      dedupTtlMs: options.dedupTtlMs,
      workerId: options.workerId,
      tickMs: 250,
      ...(options.callbackSecret === undefined
        ? {}
        : { callbacks: { secret: options.callbackSecret } }),
    });
    this.#leader =
      options.pollMs === undefined
        ? undefined
        : new PollLeader({
            store: options.store,
            bot: this.bot,
            owner: options.workerId,
            logger: options.logger,
            ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
            polling: {
              minIntervalMs: options.pollMs,
              maxIntervalMs: Math.max(options.pollMs, 30_000),
            },
          });
  }

  /** The number's current status. */
  get status(): NumberStatus {
    return this.#status;
  }

  /** True while this worker holds the number's polling lease. */
  isPollLeader(): boolean {
    return this.#leader?.isLeader === true;
  }

  /** Starts the bot and the key watch (which starts polling once the key works). */
  async start(): Promise<void> {
    await this.bot.start();
    this.#loop = this.#watch();
  }

  /** Stops the watch and polling, then the bot (waiting for its work in flight). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
    await this.#leader?.stop();
    await this.bot.stop();
  }

  async #watch(): Promise<void> {
    const base = this.options.retryBaseMs ?? 1_000;
    const max = this.options.maxRetryMs ?? 300_000;
    let delay = base;
    while (!this.#stopped) {
      const check = await this.#check();
      if (this.#stopped) return;
      if (check.status === 'ok') {
        if (check.conversations !== undefined) this.#firstRead?.(check.conversations);
        if (this.#status.state !== 'running') {
          if (this.#status.state !== 'starting')
            this.options.logger.info('the number answers again; polling resumes');
          this.#set({ state: 'running' });
          await this.#leader?.start();
        }
        delay = base;
        await this.#sleep(this.options.recheckMs ?? 60_000);
        continue;
      }
      const reason = check.message.replaceAll('MESSAGING_API_KEY', this.options.apiKeyEnv);
      const state = check.status === 'refused' ? 'failed' : 'unreachable';
      if (this.#status.state !== state || this.#status.reason !== reason) {
        this.options.logger.error(
          `number ${this.id} does not work: ${reason}; retrying on its own with backoff, the other numbers go on`,
          { state, retryInMs: delay },
        );
      }
      if (this.#status.state === 'running') await this.#leader?.stop();
      this.#set({ state, reason });
      await this.#sleep(delay);
      delay = Math.min(max, delay * 2);
    }
  }

  /**
   * A call of the running number refused for the key or the number (a key revoked, the
   * number disconnected since the last check): check now instead of at the next recheck.
   */
  #noticeRefusal(call: ApiCall): void {
    if (this.#status.state !== 'running' || !refusesNumber(call)) return;
    this.#wake?.();
  }

  async #check(): Promise<ApiCheck> {
    let last: ApiCall | undefined;
    const client = new MessagingClient({
      baseUrl: this.options.baseUrl,
      apiKey: this.options.apiKey,
      // Reported once per change by the watch, not per attempt.
      logger: silentLogger,
      limiter: this.options.limiter,
      identity: { numberId: this.options.id, workspaceId: this.options.workspace },
      timeoutMs: 5_000,
      retry: { maxAttempts: 1 },
      onCall: (call) => (last = call),
    });
    const check = await checkApi(client, this.options.baseUrl);
    // checkApi lets a start-up go on through a disconnected number (the single-number CLI
    // then handles it per request); a deployment reports it and retries it on its own.
    if (check.status === 'ok' && last?.status === 409 && last.code === 'instance_unavailable')
      return {
        status: 'refused',
        message: `the number of MESSAGING_API_KEY is disconnected (409 instance_unavailable): restore its sender connection in the dashboard`,
      };
    return check;
  }

  #set(status: NumberStatus): void {
    this.#status = status;
    this.options.onStatus?.(status);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stopped) return resolve();
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** 401 (the key), or 409 for the number itself (not API-managed, disconnected). */
function refusesNumber(call: ApiCall): boolean {
  if (call.status === 401) return true;
  return (
    call.status === 409 &&
    (call.code === 'instance_unavailable' || call.code === 'instance_not_api_managed')
  );
}
