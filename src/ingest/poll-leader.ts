import { systemClock, type Clock } from '../core/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { Bot, PollingOptions } from '../engine/types.js';
import type { Lease, Store } from '../store/store.js';

/** Options of {@link PollLeader}. */
export interface PollLeaderOptions {
  /** The store every worker shares (the lease lives there). */
  readonly store: Store;
  /** The polling of this worker: started while it leads, stopped when it does not. */
  readonly bot: Pick<Bot, 'startPolling' | 'stopPolling'>;
  /** This worker's name (see `workerId()`); the lease's owner. */
  readonly owner: string;
  /** Polling options passed to `bot.startPolling`. */
  readonly polling?: PollingOptions;
  /** Lease lifetime in ms (default 15,000); renewed every third of it. */
  readonly leaseMs?: number;
  /** Lease name (default `poller`). */
  readonly name?: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/** What one {@link PollLeader.tick} found. */
export type LeaderState =
  { readonly status: 'leading'; readonly token: number } | { readonly status: 'following' };

/**
 * Polling in exactly one worker at a time. Every worker runs a `PollLeader`; each
 * tries to take or renew the lease `poller` every `leaseMs / 3`. The holder polls;
 * the others wait. If the holder dies (even `kill -9`), its lease expires after at most
 * `leaseMs` and the next tick of another worker takes it over. A holder that cannot
 * renew (store unreachable) stops polling before its lease can have expired, so two
 * workers never poll at once (and if they briefly did, dedup makes it harmless).
 * @example
 * const leader = new PollLeader({ store, bot, owner: workerId(), polling: { minIntervalMs: 1000 } });
 * await leader.start();
 * // on shutdown:
 * await leader.stop();
 */
export class PollLeader {
  readonly #store: Store;
  readonly #bot: Pick<Bot, 'startPolling' | 'stopPolling'>;
  readonly #owner: string;
  readonly #polling: PollingOptions | undefined;
  readonly #leaseMs: number;
  readonly #name: string;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #lease: Lease | undefined;
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<LeaderState> | undefined;

  constructor(options: PollLeaderOptions) {
    this.#store = options.store;
    this.#bot = options.bot;
    this.#owner = options.owner;
    this.#polling = options.polling;
    this.#leaseMs = options.leaseMs ?? 15_000;
    this.#name = options.name ?? 'poller';
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
    if (!(this.#leaseMs >= 30))
      throw new RangeError(`leaseMs must be at least 30 ms, got ${this.#leaseMs}`);
  }

  /** True while this worker holds the polling lease. */
  get isLeader(): boolean {
    return this.#lease !== undefined;
  }

  /** Takes part in the election: one tick now, then one every `leaseMs / 3`. */
  async start(): Promise<LeaderState> {
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => void this.tick(), Math.floor(this.#leaseMs / 3));
      this.#timer.unref();
    }
    return this.tick();
  }

  /** Leaves the election: stops polling and releases the lease so another worker takes over now. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#ticking?.catch(() => undefined);
    if (this.#lease === undefined) return;
    await this.#stepDown('stopping');
    try {
      await this.#store.releaseLease(this.#name, this.#owner);
    } catch (error) {
      // The lease then simply expires after leaseMs; nothing else to do.
      this.#logger.warn('could not release the polling lease', { error: String(error) });
    }
  }

  /** One election step: take or renew the lease, start or stop polling accordingly. */
  tick(): Promise<LeaderState> {
    // Never two steps at once (a slow store must not make renewals overlap).
    this.#ticking ??= this.#step().finally(() => {
      this.#ticking = undefined;
    });
    return this.#ticking;
  }

  async #step(): Promise<LeaderState> {
    const now = this.#clock.now();
    let lease: Lease | undefined;
    try {
      lease = await this.#store.acquireLease(this.#name, this.#owner, this.#leaseMs, now);
    } catch (error) {
      this.#logger.warn('polling lease could not be renewed', { error: String(error) });
      // Keep polling only while the lease we hold is certainly still ours.
      const held = this.#lease;
      if (held !== undefined && this.#clock.now() >= held.expiresAt - this.#leaseMs / 3)
        await this.#stepDown('lease unconfirmed');
      return this.#state();
    }
    if (lease === undefined) {
      if (this.#lease !== undefined) await this.#stepDown('lease taken by another worker');
      return this.#state();
    }
    const gained = this.#lease === undefined || this.#lease.token !== lease.token;
    this.#lease = lease;
    if (gained) {
      this.#logger.info('this worker now polls', { owner: this.#owner, token: lease.token });
      this.#bot.startPolling(this.#polling);
    }
    return this.#state();
  }

  async #stepDown(reason: string): Promise<void> {
    this.#lease = undefined;
    this.#logger.info('this worker stops polling', { owner: this.#owner, reason });
    await this.#bot.stopPolling();
  }

  #state(): LeaderState {
    return this.#lease === undefined
      ? { status: 'following' }
      : { status: 'leading', token: this.#lease.token };
  }
}
