import type { Logger } from '../log/logger.js';
import { StoreUnavailableError } from '../store/guarded-store.js';

/** Drains one conversation's inbox; resolves when it is empty (or cannot proceed). */
export type Drain = (conversationId: string) => Promise<void>;

/**
 * Fewer drains while requests keep coming in: `source` tells whether they do (the
 * `TurnGate` the ingress presses), `concurrency` is the limit meanwhile.
 */
export interface Pressure {
  readonly source: { readonly underPressure: boolean; readonly pressureMs: number };
  readonly concurrency: number;
}

/**
 * Runs conversation drains: strictly one at a time per conversation, at most
 * `concurrency` conversations at once. Scheduling a running conversation marks it to
 * run again after the current drain (no lost wake-ups). Also counts other in-flight
 * work so that {@link idle} means "nothing queued, running or tracked".
 *
 * New drains start in `setImmediate`, not inside the caller's promise chain: a callback
 * is answered right after its durable enqueue, and engine work interleaves with I/O
 * instead of running ahead of every pending acknowledgement.
 *
 * With a {@link Pressure}, fewer conversations start while requests keep coming in (at most
 * `pressure.concurrency` running): the CPU goes to acknowledging a burst of callbacks,
 * whose items wait durably in their inboxes, and the full `concurrency` drains them once
 * the burst is over (a drain that ends, or a look `pressure.source.pressureMs` later,
 * starts the rest).
 */
export class ConversationScheduler {
  readonly #drain: Drain;
  readonly #concurrency: number;
  readonly #logger: Logger;
  readonly #queue: string[] = [];
  readonly #queued = new Set<string>();
  readonly #running = new Set<string>();
  readonly #again = new Set<string>();
  #tracked = 0;
  #waiters: Array<() => void> = [];
  #pumpSoon: NodeJS.Immediate | undefined;
  readonly #pressure: Pressure | undefined;
  #pumpLater: NodeJS.Timeout | undefined;

  constructor(drain: Drain, concurrency: number, logger: Logger, pressure?: Pressure) {
    this.#drain = drain;
    this.#concurrency = Math.max(1, concurrency);
    this.#logger = logger;
    this.#pressure = pressure;
  }

  /** Asks for a conversation's inbox to be drained. */
  schedule(conversationId: string): void {
    if (this.#running.has(conversationId)) {
      this.#again.add(conversationId);
      return;
    }
    if (this.#queued.has(conversationId)) return;
    this.#queued.add(conversationId);
    this.#queue.push(conversationId);
    if (this.#pumpSoon !== undefined) return;
    this.#pumpSoon = setImmediate(() => {
      this.#pumpSoon = undefined;
      this.#pump();
    });
  }

  /**
   * Schedules a conversation unless it is queued or running here already (a sweep's
   * wake-up: a running drain goes on while its inbox has items, and looks once more after
   * its release, so marking it to run again would only repeat that look).
   */
  wake(conversationId: string): void {
    if (this.#running.has(conversationId) || this.#queued.has(conversationId)) return;
    this.schedule(conversationId);
  }

  /** Counts a piece of work as in flight until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#tracked++;
    const done = (): void => {
      this.#tracked--;
      this.#notify();
    };
    work.then(done, done);
    return work;
  }

  /** True when nothing is queued, running or tracked. */
  get isIdle(): boolean {
    return this.#queue.length === 0 && this.#running.size === 0 && this.#tracked === 0;
  }

  /** Resolves when nothing is queued, running or tracked. */
  idle(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #pump(): void {
    const pressure = this.#pressure;
    const limit =
      pressure?.source.underPressure === true
        ? Math.min(this.#concurrency, Math.max(1, pressure.concurrency))
        : this.#concurrency;
    while (this.#running.size < limit && this.#queue.length > 0) {
      const id = this.#queue.shift();
      if (id === undefined) break;
      this.#queued.delete(id);
      this.#running.add(id);
      void this.#run(id);
    }
    // Held back only by the pressure: look again once it may have passed.
    if (pressure !== undefined && limit < this.#concurrency && this.#queue.length > 0)
      this.#pumpAfter(pressure);
  }

  #pumpAfter(pressure: Pressure): void {
    if (this.#pumpLater !== undefined) return;
    // unref: a second look must not keep a process alive on its own.
    this.#pumpLater = setTimeout(() => {
      this.#pumpLater = undefined;
      this.#pump();
    }, pressure.source.pressureMs).unref();
  }

  async #run(conversationId: string): Promise<void> {
    try {
      await this.#drain(conversationId);
    } catch (error) {
      // The drain reports its own errors; this guards the loop itself. A store outage is
      // logged once by the guarded store; the sweeper comes back to the conversation.
      const level = error instanceof StoreUnavailableError ? 'debug' : 'error';
      this.#logger[level]('conversation drain failed', { conversationId, error: String(error) });
    } finally {
      this.#running.delete(conversationId);
      if (this.#again.delete(conversationId)) this.schedule(conversationId);
      this.#pump();
      this.#notify();
    }
  }

  #notify(): void {
    if (!this.isIdle) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
