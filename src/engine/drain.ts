import { StoreUnavailableError } from '../store/guarded-store.js';
import type { AcquiredConversation, InboxItem, Lease } from '../store/store.js';
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
 * of the optional {@link TurnGate}, take the lease together with the first item and the
 * document's version (one call where the store has `acquireConversation`), process it,
 * ack it (the ack says how many are left: none ends the loop without another peek; where
 * the store has `ackAndRelease`, that same call releases the lease), and for each further
 * item wait for a turn and peek. Without `ackAndRelease`: release, learning how many items
 * wait (one call where the store has `releaseConversation`), and go again when some do (an
 * item enqueued while releasing is not lost); with it, an item enqueued after the release
 * finds the lease free and its own wake-up drains it. Another process holding the lease
 * means "not now": the sweeper comes back. An item left because the store did not answer
 * is reported to `onStalled` (the inbox stays claimed by this worker, so other workers'
 * sweeps leave it alone for a while: this worker's own sweep retries it).
 * The lease is renewed by a heartbeat and, in clock time, before an item when a third of
 * it has passed; losing it (another token) stops the drain (writes are fenced anyway).
 */
export function createDrain(
  deps: EngineDeps,
  processor: ConversationProcessor,
  owner: string,
  gate?: TurnGate,
  onStalled?: (conversationId: string) => void,
): Drain {
  const leaseName = (id: string): string => `conv:${id}`;
  const acquire = (conversationId: string): Promise<Lease | undefined> =>
    deps.store.acquireLease(leaseName(conversationId), owner, LEASE_MS, deps.clock.now());
  const peekFirst = async (conversationId: string): Promise<InboxItem | undefined> =>
    (await deps.store.peekInbox(conversationId, 1))[0];
  const take = async (conversationId: string): Promise<AcquiredConversation | undefined> => {
    if (deps.store.acquireConversation !== undefined)
      return deps.store.acquireConversation(conversationId, owner, LEASE_MS, deps.clock.now());
    const lease = await acquire(conversationId);
    return lease === undefined ? undefined : { lease, first: await peekFirst(conversationId) };
  };
  /** Releases the lease, errors swallowed: a release that fails leaves it to expire (LEASE_MS). */
  const releaseOnly = (conversationId: string): Promise<void> =>
    deps.store.releaseLease(leaseName(conversationId), owner).catch(() => undefined);
  /** Releases the lease; resolves with the number of items waiting (at least whether any). */
  const release = async (conversationId: string): Promise<number> => {
    const waiting =
      deps.store.releaseConversation === undefined
        ? undefined
        : await deps.store.releaseConversation(conversationId, owner).catch(() => undefined);
    if (waiting !== undefined) return waiting;
    if (deps.store.releaseConversation === undefined) await releaseOnly(conversationId);
    return (await peekFirst(conversationId)) === undefined ? 0 : 1;
  };
  /**
   * Acks an item; where the store can, releases the lease in the same call when that
   * empties the inbox (the heartbeat is stopped first, so no renewal lands after it).
   */
  const ack = async (
    conversationId: string,
    itemId: string,
    held: HeldLease,
  ): Promise<{ left: number | void; released: boolean }> => {
    if (deps.store.ackAndRelease === undefined) {
      const left = await deps.store.ackInbox(conversationId, [itemId]);
      processor.acked(conversationId, [itemId]);
      return { left, released: false };
    }
    await held.stop();
    const left = await deps.store.ackAndRelease(conversationId, [itemId], owner);
    processor.acked(conversationId, [itemId]);
    if (left > 0) held.restart();
    return { left, released: left === 0 };
  };
  /**
   * Processes items from `taken.first` on while the lease holds. `emptied` when the inbox
   * was found empty (look again after the release), `released` when the last ack also
   * released the lease; `stopped` when the drain must stop here.
   */
  const processItems = async (
    conversationId: string,
    taken: AcquiredConversation,
    held: HeldLease,
  ): Promise<'emptied' | 'released' | 'stopped'> => {
    let item = taken.first;
    // The document's version as the lease was taken: good for the first item only.
    let docVersion = taken.docVersion;
    while (item !== undefined) {
      try {
        const current = item;
        const process = (): Promise<void> =>
          processor.process(conversationId, current, taken.lease.token, docVersion);
        await (deps.tracing?.turn(conversationId, current, process) ?? process());
      } catch (error) {
        if (error instanceof ConversationConflictError) {
          deps.logger.warn(error.message, { conversationId });
          return 'stopped';
        }
        if (error instanceof StoreUnavailableError) {
          // Kept in the inbox; the sweeper retries once the store answers (the outage
          // itself is logged once, by the guarded store).
          deps.logger.debug('store unavailable; the event will be retried', {
            conversationId,
            itemId: item.id,
          });
          onStalled?.(conversationId);
          return 'stopped';
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
      docVersion = undefined;
      const { left, released } = await ack(conversationId, item.id, held);
      // Released with the ack: an item enqueued since then finds the lease free (and its
      // own wake-up runs this drain again).
      if (released) return 'released';
      if (!(await held.stillOurs(deps.clock.now()))) return 'stopped';
      // Known empty: no peek; anything enqueued from now on is found after the release.
      if (left === 0) return 'emptied';
      // Each item waits for its turn, so acknowledgements are not kept waiting.
      if (gate !== undefined) await gate.enter();
      item = await peekFirst(conversationId);
    }
    return 'emptied';
  };
  return async (conversationId) => {
    for (;;) {
      if (gate !== undefined) await gate.enter();
      let taken: Awaited<ReturnType<typeof take>>;
      try {
        taken = await take(conversationId);
      } catch (error) {
        // The lease may have been taken before the item could be read (a data error).
        await releaseOnly(conversationId);
        throw error;
      }
      if (taken === undefined) {
        deps.logger.debug('conversation is leased elsewhere; leaving it', { conversationId });
        return;
      }
      const held = new HeldLease(taken.lease, () => acquire(conversationId));
      let outcome: Awaited<ReturnType<typeof processItems>> = 'stopped';
      try {
        outcome = await processItems(conversationId, taken, held);
      } finally {
        await held.stop();
        if (outcome === 'stopped') await releaseOnly(conversationId);
      }
      if (outcome !== 'emptied') return;
      if ((await release(conversationId)) === 0) return;
    }
  };
}

/** A lease being held: renewed by a wall-clock heartbeat and on demand in clock time. */
class HeldLease {
  readonly #token: number;
  readonly #renew: () => Promise<Lease | undefined>;
  #heartbeat: NodeJS.Timeout;
  #renewedAt: number;
  #lost = false;
  #inFlight: Promise<void> | undefined;

  constructor(lease: Lease, renew: () => Promise<Lease | undefined>) {
    this.#token = lease.token;
    this.#renew = renew;
    this.#renewedAt = lease.expiresAt - LEASE_MS;
    this.#heartbeat = this.#beat();
  }

  #beat(): NodeJS.Timeout {
    return setInterval(() => void this.#renewNow(), HEARTBEAT_MS).unref();
  }

  /** Starts the heartbeat again after {@link stop} (the lease is still held). */
  restart(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = this.#beat();
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
