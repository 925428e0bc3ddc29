import { StoreUnavailableError } from '../store/guarded-store.js';
import type { Lease } from '../store/store.js';
import { ConversationConflictError, type ConversationProcessor } from './conversation-processor.js';
import type { EngineDeps } from './engine-deps.js';
import type { Drain } from './scheduler.js';
import type { TurnGate } from './turn-gate.js';

/**
 * Lease lifetime of a conversation. Short, so that a conversation whose worker was
 * killed is taken over quickly; a heartbeat renews it while a long item (a slow
 * handler, a send waiting out a 429) runs.
 */
export const LEASE_MS = 12_000;
/** Wall-clock period of the heartbeat that renews a held lease. */
export const HEARTBEAT_MS = LEASE_MS / 3;

/**
 * Drains a conversation's inbox in order under its lease (`conv:<id>`): wait for a turn
 * of the optional {@link TurnGate}, peek one item, process it, ack it (the ack says how
 * many are left: none ends the loop without another peek); release; then look again (an
 * item enqueued while releasing is not lost). Another process holding the lease means
 * "not now": the sweeper comes back.
 * The lease is renewed by a heartbeat and, in clock time, before an item when a third of
 * it has passed; losing it (another token) stops the drain (writes are fenced anyway).
 */
export function createDrain(
  deps: EngineDeps,
  processor: ConversationProcessor,
  owner: string,
  gate?: TurnGate,
): Drain {
  const leaseName = (id: string): string => `conv:${id}`;
  const acquire = (conversationId: string): Promise<Lease | undefined> =>
    deps.store.acquireLease(leaseName(conversationId), owner, LEASE_MS, deps.clock.now());
  return async (conversationId) => {
    for (;;) {
      const lease = await acquire(conversationId);
      if (lease === undefined) {
        deps.logger.debug('conversation is leased elsewhere; leaving it', { conversationId });
        return;
      }
      const held = new HeldLease(lease, () => acquire(conversationId));
      try {
        for (;;) {
          // Each item waits for its turn, so acknowledgements are not kept waiting.
          if (gate !== undefined) await gate.enter();
          const [item] = await deps.store.peekInbox(conversationId, 1);
          if (item === undefined) break;
          try {
            await processor.process(conversationId, item, lease.token);
          } catch (error) {
            if (error instanceof ConversationConflictError) {
              deps.logger.warn(error.message, { conversationId });
              return;
            }
            if (error instanceof StoreUnavailableError) {
              // Kept in the inbox; the sweeper retries once the store answers (the outage
              // itself is logged once, by the guarded store).
              deps.logger.debug('store unavailable; the event will be retried', {
                conversationId,
                itemId: item.id,
              });
              return;
            }
            // An unexpected failure: report it and drop the item so it cannot block the
            // conversation forever (the error event carries it for operators).
            deps.logger.error('processing an event failed; event dropped', {
              conversationId,
              itemId: item.id,
              error: error instanceof Error ? error.message : String(error),
            });
            deps.emit('error', { conversationId, error });
          }
          const left = await deps.store.ackInbox(conversationId, [item.id]);
          if (!(await held.stillOurs(deps.clock.now()))) return;
          // Known empty: no peek; anything enqueued from now on is found after the release.
          if (left === 0) break;
        }
      } finally {
        await held.stop();
        // A release that fails leaves the lease to expire (LEASE_MS): nothing is lost.
        await deps.store.releaseLease(leaseName(conversationId), owner).catch(() => undefined);
      }
      const more = await deps.store.peekInbox(conversationId, 1);
      if (more.length === 0) return;
    }
  };
}

/** A lease being held: renewed by a wall-clock heartbeat and on demand in clock time. */
class HeldLease {
  readonly #token: number;
  readonly #renew: () => Promise<Lease | undefined>;
  readonly #heartbeat: NodeJS.Timeout;
  #renewedAt: number;
  #lost = false;
  #inFlight: Promise<void> | undefined;

  constructor(lease: Lease, renew: () => Promise<Lease | undefined>) {
    this.#token = lease.token;
    this.#renew = renew;
    this.#renewedAt = lease.expiresAt - LEASE_MS;
    this.#heartbeat = setInterval(() => void this.#renewNow(), HEARTBEAT_MS).unref();
  }

  /** False once the lease was found taken by someone else; renews it when due. */
  async stillOurs(now: number): Promise<boolean> {
    if (!this.#lost && now - this.#renewedAt >= HEARTBEAT_MS) await this.#renewNow();
    return !this.#lost;
  }

  /** Stops the heartbeat; waits for a renewal in flight so none lands after a release. */
  async stop(): Promise<void> {
    clearInterval(this.#heartbeat);
    await this.#inFlight;
  }

  #renewNow(): Promise<void> {
    this.#inFlight ??= this.#renew()
      .then(
        (renewed) => {
          if (renewed === undefined || renewed.token !== this.#token) this.#lost = true;
          else this.#renewedAt = renewed.expiresAt - LEASE_MS;
        },
        // A failed renewal (store unreachable) is retried by the next beat; the fence
        // still protects every write.
        () => undefined,
      )
      .finally(() => (this.#inFlight = undefined));
    return this.#inFlight;
  }
}
