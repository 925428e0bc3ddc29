import { ConversationConflictError, type ConversationProcessor } from './conversation-processor.js';
import type { EngineDeps } from './engine-deps.js';
import type { Drain } from './scheduler.js';

/** Lease lifetime of a conversation; renewed before each item. */
const LEASE_MS = 60_000;

/**
 * Drains a conversation's inbox in order under its lease (`conv:<id>`): peek one item,
 * process it, ack it; release; then look again (an item enqueued while releasing is not
 * lost). Another process holding the lease means "not now": the sweeper comes back.
 */
export function createDrain(
  deps: EngineDeps,
  processor: ConversationProcessor,
  owner: string,
): Drain {
  const leaseName = (id: string): string => `conv:${id}`;
  return async (conversationId) => {
    for (;;) {
      const lease = await deps.store.acquireLease(
        leaseName(conversationId),
        owner,
        LEASE_MS,
        deps.clock.now(),
      );
      if (lease === undefined) {
        deps.logger.debug('conversation is leased elsewhere; leaving it', { conversationId });
        return;
      }
      try {
        for (;;) {
          const [item] = await deps.store.peekInbox(conversationId, 1);
          if (item === undefined) break;
          try {
            await processor.process(conversationId, item, lease.token);
          } catch (error) {
            if (error instanceof ConversationConflictError) {
              deps.logger.warn(error.message, { conversationId });
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
          await deps.store.ackInbox(conversationId, [item.id]);
          const renewed = await deps.store.acquireLease(
            leaseName(conversationId),
            owner,
            LEASE_MS,
            deps.clock.now(),
          );
          if (renewed === undefined || renewed.token !== lease.token) return;
        }
      } finally {
        await deps.store.releaseLease(leaseName(conversationId), owner);
      }
      const more = await deps.store.peekInbox(conversationId, 1);
      if (more.length === 0) return;
    }
  };
}
