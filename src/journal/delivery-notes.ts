/**
 * Delivery statuses waiting for their conversation's next write. A status callback that
 * changes nothing for the flow (`sent`, `delivered`, `read`) does not write the store; its
 * status is kept here, per conversation and message, and put on the send's journal entry
 * by the next run of that conversation in this process, before that run writes. Bounded
 * (oldest conversations dropped first); a status lost with the process or the bound is
 * still read joined from the send record at inspect time when it was a failure.
 */

/** Conversations with statuses kept at most. */
export const DELIVERY_NOTES_MAX = 4096;

const RANK: Readonly<Record<string, number>> = { sent: 1, delivered: 2, read: 3, failed: 4 };

/** Whether `next` says more than `kept` (sent < delivered < read < failed; unknown ones always do). */
export function isLaterStatus(kept: string, next: string): boolean {
  if (kept === next) return false;
  return (RANK[next] ?? Infinity) >= (RANK[kept] ?? 0);
}

/** A kept status. */
export interface DeliveryNote {
  readonly status: string;
  readonly code?: string;
}

/**
 * Latest delivery status per message, per conversation, in memory.
 * @example
 * notes.note('conv_1', 'msg_9', 'delivered');
 * for (const [messageId, n] of notes.take('conv_1')) journal.deliveryStatus(messageId, n.status);
 */
export class DeliveryNotes {
  readonly #max: number;
  readonly #byConversation = new Map<string, Map<string, DeliveryNote>>();

  constructor(max = DELIVERY_NOTES_MAX) {
    this.#max = Math.max(1, max);
  }

  /** Keeps `status` unless a later one (delivered < read < failed) is kept already. */
  note(conversationId: string, messageId: string, status: string, code?: string): void {
    let notes = this.#byConversation.get(conversationId);
    if (notes === undefined) {
      if (this.#byConversation.size >= this.#max) {
        const oldest = this.#byConversation.keys().next().value;
        if (oldest !== undefined) this.#byConversation.delete(oldest);
      }
      notes = new Map();
      this.#byConversation.set(conversationId, notes);
    }
    const kept = notes.get(messageId);
    if (kept !== undefined && !isLaterStatus(kept.status, status)) return;
    notes.set(messageId, code === undefined ? { status } : { status, code });
  }

  /** Removes and returns the statuses kept for a conversation. */
  take(conversationId: string): ReadonlyMap<string, DeliveryNote> {
    const notes = this.#byConversation.get(conversationId);
    if (notes === undefined) return new Map();
    this.#byConversation.delete(conversationId);
    return notes;
  }

  /** Conversations with statuses kept. */
  get size(): number {
    return this.#byConversation.size;
  }
}
