import type { Conversation } from '../api/resources.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import {
  FIRST_READ_LIMIT,
  HISTORY_LINE_KEY,
  HistoryLineValue,
  isBeforeLine,
  lineOfFirstRead,
} from './history-line-of.js';
import type { EngineClient } from './types.js';

/** Options of {@link HistoryLine}. */
export interface HistoryLineOptions {
  readonly store: Store;
  readonly client: Pick<EngineClient, 'listConversations'>;
  readonly logger: Logger;
  /** `--backfill`: also answer unanswered messages this much older than the line. */
  readonly backfillMs: number;
  /** Waits between attempts (default: a real, unref'd timer; tests inject their own). */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** First retry delay while the API or the store does not answer (default 1 s), doubled up to `retryMaxMs` (30 s). */
  readonly retryBaseMs?: number;
  readonly retryMaxMs?: number;
  /**
   * A read of the number still to come from elsewhere (the CLI's retried key check while
   * the API does not answer): the line waits for it ({@link HistoryLine.offer}) instead of
   * reading itself, so one loop retries the API and logs, and the first successful read
   * decides. Default false.
   */
  readonly readElsewhere?: boolean;
}

/** The line waits for a read offered from elsewhere (not an outage: logged once, as info). */
class AwaitingRead extends Error {
  override readonly name = 'AwaitingRead';
}

/**
 * The history line of a number: messages from before it are recorded, never answered.
 * Decided once per number, from the API's own clock, before anything is answered: the
 * newest message the first successful read of `GET /v1/conversations` sees (see
 * {@link lineOfFirstRead}; a number with no message has no history), recorded first
 * writer wins ({@link Store.setValueIfAbsent}) so that any number of fresh workers agree.
 * While the API (or the store) does not answer, the decision waits and retries with
 * backoff; whatever needs the line (applying inbound messages, polling) waits with it.
 * A read made before the bot existed (the CLI's key check) can be {@link offer}ed: the
 * first successful read decides.
 * @example
 * const history = new HistoryLine({ store, client, logger, backfillMs: 0 });
 * if (await history.isHistory(Date.parse(message.occurredAt), message.id)) return;
 */
export class HistoryLine {
  readonly #options: HistoryLineOptions;
  #line: HistoryLineValue | undefined;
  #deciding: Promise<HistoryLineValue> | undefined;
  #offered: readonly Conversation[] | undefined;
  #wake: (() => void) | undefined;
  #firstAttempt: Promise<void>;
  #firstAttemptDone: () => void = () => undefined;
  /** Stops the decision under way ({@link stop}); a new one gets a new controller. */
  #stopper = new AbortController();

  constructor(options: HistoryLineOptions) {
    this.#options = options;
    this.#firstAttempt = new Promise((resolve) => (this.#firstAttemptDone = resolve));
  }

  /** The line once decided (undefined before). */
  get decided(): HistoryLineValue | undefined {
    return this.#line;
  }

  /**
   * Offers the conversations of a first read made elsewhere (the start-up key check, whose
   * page is the number's state when the bot first spoke to the API). Used when the line is
   * not stored yet and no read of this bot's own has succeeded before it.
   */
  offer(conversations: readonly Conversation[]): void {
    if (this.#line !== undefined || this.#offered !== undefined) return;
    this.#offered = conversations;
    this.#wake?.();
  }

  /**
   * Starts deciding the line; resolves once the first attempt settled (the line decided,
   * or the API or the store not answering: the decision then goes on with backoff).
   */
  async begin(): Promise<void> {
    void this.line().catch(() => undefined);
    await this.#firstAttempt;
  }

  /** The line: the stored one, or decided now (waiting, with retries, until it can be). */
  line(): Promise<HistoryLineValue> {
    if (this.#line !== undefined) return Promise.resolve(this.#line);
    const deciding = (this.#deciding ??= this.#decide());
    // A decision stopped by the bot's stop is not remembered: a new start decides again.
    deciding.catch(() => (this.#deciding = undefined));
    return deciding;
  }

  /**
   * Stops a decision under way (the bot stops): whoever waits for the line gets an
   * `AbortError`. A later {@link line} decides afresh.
   */
  stop(): void {
    this.#stopper.abort(
      new DOMException('the bot stopped before the history line was decided', 'AbortError'),
    );
    this.#stopper = new AbortController();
    this.#firstAttemptDone();
  }

  /** Messages that occurred before this (epoch ms) are history: the line less the backfill. */
  async floor(): Promise<number> {
    return (await this.line()).at - this.#options.backfillMs;
  }

  /** Whether a message (its API time, epoch ms, and id) is history: recorded, never answered. */
  async isHistory(occurredAt: number, messageId?: string): Promise<boolean> {
    return isBeforeLine(await this.line(), this.#options.backfillMs, occurredAt, messageId);
  }

  async #decide(): Promise<HistoryLineValue> {
    const { logger } = this.#options;
    const signal = this.#stopper.signal;
    let failed = false;
    const base = this.#options.retryBaseMs ?? 1_000;
    const max = this.#options.retryMaxMs ?? 30_000;
    for (let attempt = 1; ; attempt++) {
      signal.throwIfAborted();
      const wait = delayMs(attempt, base, max);
      try {
        const line = await this.#attempt();
        this.#line = line;
        if (failed)
          logger.info('history line decided; answering from now on', { attempts: attempt });
        return line;
      } catch (error) {
        if (error instanceof AwaitingRead) {
          if (attempt === 1)
            logger.info(
              'history line not decided yet: waiting for the first successful read of the number; callbacks are recorded, nothing is answered until then',
            );
        } else {
          // Loud once (the bot answers nothing meanwhile), then quiet until it is decided.
          logger[attempt === 1 ? 'warn' : 'debug'](
            'history line not decided yet: the first read of the number failed; nothing is answered until it succeeds, retrying with backoff',
            {
              attempt,
              retryInMs: wait,
              error: error instanceof Error ? error.message : String(error),
            },
          );
        }
        failed = true;
      } finally {
        this.#firstAttemptDone();
      }
      await this.#sleep(wait, signal);
    }
  }

  /** One try: the stored line, else a first read recorded first writer wins. */
  async #attempt(): Promise<HistoryLineValue> {
    const { store, client, logger, backfillMs } = this.#options;
    const stored = await store.getValue(HISTORY_LINE_KEY);
    if (stored !== undefined) return parseLine(stored);
    if (this.#offered === undefined && this.#options.readElsewhere === true)
      throw new AwaitingRead();
    const conversations =
      this.#offered ?? (await client.listConversations({ limit: FIRST_READ_LIMIT })).items;
    const candidate = lineOfFirstRead(conversations);
    const line = parseLine(await store.setValueIfAbsent(HISTORY_LINE_KEY, candidate));
    const won = line.at === candidate.at && line.source === candidate.source;
    logger.info(
      line.source === 'empty'
        ? 'first start on this number: it has no messages yet, so there is no history'
        : `first start on this number: messages up to the history line are history, never answered${won ? '' : ' (line recorded by another worker)'}`,
      {
        historyLine: line.source === 'empty' ? 'none' : new Date(line.at).toISOString(),
        atLine: line.ids?.length ?? 0,
        backfillMs,
      },
    );
    return line;
  }

  #sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    if (this.#options.sleep !== undefined) return this.#options.sleep(ms, signal);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      signal.addEventListener('abort', done);
      // An offered read ends the wait at once.
      this.#wake = done;
    });
  }
}

function delayMs(attempt: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** (attempt - 1));
}

function parseLine(stored: unknown): HistoryLineValue {
  const parsed = HistoryLineValue.safeParse(stored);
  if (parsed.success) return parsed.data;
  throw new Error(
    `the stored history line (${HISTORY_LINE_KEY}) is not valid: ${parsed.error.issues[0]?.message ?? ''}; delete it to decide it again from the API`,
  );
}
