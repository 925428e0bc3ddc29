import type { Clock } from '../core/clock.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import { z } from 'zod';

/** Store key of the cutoff (kept forever: it is the number's "first start"). */
export const CUTOFF_KEY = 'engine:cutoff';

const CutoffValue = z.object({ at: z.number().int() });

/**
 * The history line of a number: the time of the bot's first start on it, recorded
 * durably the first time any worker looks. Inbound messages received before it (less an
 * opt-in backfill) are history: recorded, never answered.
 * @example
 * const cutoff = new HistoryCutoff({ store, clock, logger, backfillMs: 0 });
 * if (await cutoff.isHistory(Date.parse(message.occurredAt))) return;
 */
export class HistoryCutoff {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #backfillMs: number;
  #loading: Promise<number> | undefined;

  constructor(options: { store: Store; clock: Clock; logger: Logger; backfillMs: number }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#backfillMs = options.backfillMs;
  }

  /** Epoch ms of the first start (recorded now if there is none yet). */
  cutoff(): Promise<number> {
    const loading = (this.#loading ??= this.#load());
    // A failed read is not remembered: the next call tries again.
    loading.catch(() => (this.#loading = undefined));
    return loading;
  }

  /** Messages received before this are never answered: the cutoff less the backfill. */
  async floor(): Promise<number> {
    return (await this.cutoff()) - this.#backfillMs;
  }

  async isHistory(occurredAt: number): Promise<boolean> {
    return occurredAt < (await this.floor());
  }

  async #load(): Promise<number> {
    const stored = CutoffValue.safeParse(await this.#store.getValue(CUTOFF_KEY));
    if (stored.success) return stored.data.at;
    const at = this.#clock.now();
    await this.#store.setValue(CUTOFF_KEY, { at });
    this.#logger.info('first start on this number: earlier messages are history, never answered', {
      cutoff: new Date(at).toISOString(),
      backfillMs: this.#backfillMs,
    });
    return at;
  }
}
