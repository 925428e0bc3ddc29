import type { MessagingClient } from '../api/client.js';
import type { Conversation } from '../api/resources.js';
import { FIRST_READ_LIMIT } from '../engine/history-line-of.js';
import { ApiError } from '../api/errors.js';
import type { Logger } from '../log/logger.js';

/** What one start-up read says about the API and the key. */
export type ApiCheck =
  /**
   * The key works. `conversations`: the first page the read saw (newest first), when it
   * succeeded: the bot decides a new number's history line from it (see `BotOptions.firstRead`).
   */
  | { readonly status: 'ok'; readonly conversations?: readonly Conversation[] }
  /** A problem only the operator can fix: exit 2 with this one line. */
  | { readonly status: 'refused'; readonly message: string }
  /** Not answering now (network, timeout, 5xx, 429): keep trying. */
  | { readonly status: 'unreachable'; readonly message: string };

/**
 * Checks the key with one read (`GET /v1/conversations?limit=100`, no retry; its page is
 * the number's state at the bot's first request, kept for the history line):
 * 401 → the key is wrong, rotated or revoked; 403 → a missing scope or a base URL that is
 * not the API; 404 or a body that is not the API's → the base URL is wrong; 409
 * `instance_not_api_managed` → the number is not set to Developer API handling. Those are
 * `refused`; no answer, a 5xx or a 429 is `unreachable`.
 * @example
 * const check = await checkApi(client, 'https://api.example.com');
 */
export async function checkApi(client: MessagingClient, baseUrl: string): Promise<ApiCheck> {
  try {
    const page = await client.listConversations({ limit: FIRST_READ_LIMIT });
    return { status: 'ok', conversations: page.items };
  } catch (error) {
    if (!(error instanceof ApiError))
      return { status: 'unreachable', message: `${baseUrl}: ${String(error)}` };
    const seen = `${error.status} ${error.code}`;
    if (error.status === 401)
      return {
        status: 'refused',
        message: `the API refused MESSAGING_API_KEY (${seen}): the key is wrong, rotated or revoked; set the key of your business number`,
      };
    if (error.status === 403 && error.code === 'insufficient_scope')
      return {
        status: 'refused',
        message: `MESSAGING_API_KEY lacks the messages:read scope (${seen}); the bot needs messages:read and messages:send (media:read for attachments)`,
      };
    if (error.status === 403 || error.status === 404 || error.code === 'bad_response')
      return {
        status: 'refused',
        message: `MESSAGING_API_BASE_URL ${baseUrl} does not look like the Messaging API (GET /v1/conversations answered ${seen}); use the API's base URL, e.g. https://api.example.com`,
      };
    if (error.code === 'instance_not_api_managed')
      return {
        status: 'refused',
        message: `the number of MESSAGING_API_KEY is not set to Developer API handling (${seen}); enable it in the dashboard`,
      };
    if (error.status === 0 || error.status === 429 || error.status >= 500)
      return { status: 'unreachable', message: `${baseUrl}: ${error.message}` };
    // Another answer (e.g. 409 instance_unavailable) means the key works: the bot starts
    // and handles the condition per request, as it would later on.
    return { status: 'ok' };
  }
}

/** Options of {@link ApiWatch}. */
export interface ApiWatchOptions {
  readonly check: () => Promise<ApiCheck>;
  readonly logger: Logger;
  /** Called once when the API answers, with what the successful check read. */
  readonly onReady: (check: Extract<ApiCheck, { status: 'ok' }>) => void | Promise<void>;
  /** Called once when the API refuses the key or the URL (the worker must exit 2). */
  readonly onRefused: (message: string) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** First retry delay (default 1 s), doubled up to `maxDelayMs` (default 30 s). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** At most one warning per this many ms (default 30 s). */
  readonly warnEveryMs?: number;
}

/**
 * Keeps checking an unreachable API with exponential backoff until it answers, logging
 * one warning per 30 s at most. `/readyz` reads {@link ApiWatch.reason} meanwhile.
 */
export class ApiWatch {
  #reason: string | undefined;
  #stopped = false;
  #lastWarn = Number.NEGATIVE_INFINITY;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(private readonly options: ApiWatchOptions) {}

  /** Why the worker is not ready (undefined once the API answered). */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** Starts retrying after a first `unreachable` check. */
  start(first: string): void {
    this.#reason = `API unreachable: ${first}`;
    this.#warn(first, 0);
    this.#loop ??= this.#run();
  }

  /** Stops retrying (on shutdown). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const base = this.options.baseDelayMs ?? 1_000;
    const max = this.options.maxDelayMs ?? 30_000;
    for (let attempt = 1; !this.#stopped; attempt++) {
      await this.#sleep(Math.min(max, base * 2 ** (attempt - 1)));
      if (this.#stopped) return;
      const result = await this.options.check();
      if (result.status === 'ok') {
        this.#reason = undefined;
        this.options.logger.info('the API answers; starting', { attempts: attempt + 1 });
        await this.options.onReady(result);
        return;
      }
      if (result.status === 'refused') {
        this.#reason = result.message;
        this.options.onRefused(result.message);
        return;
      }
      this.#reason = `API unreachable: ${result.message}`;
      this.#warn(result.message, attempt);
    }
  }

  #warn(message: string, attempt: number): void {
    const now = (this.options.now ?? Date.now)();
    if (now - this.#lastWarn < (this.options.warnEveryMs ?? 30_000)) return;
    this.#lastWarn = now;
    this.options.logger.warn('the API does not answer; retrying with backoff, /readyz is 503', {
      error: message,
      attempts: attempt + 1,
    });
  }

  #sleep(ms: number): Promise<void> {
    if (this.options.sleep !== undefined) return this.options.sleep(ms);
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
