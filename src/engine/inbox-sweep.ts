/**
 * How long the worker that enqueued an item into an empty inbox (and scheduled its drain)
 * keeps the conversation out of every worker's periodic sweep (the store's
 * `unclaimedInboxes`). Longer than a live worker's queue holds a conversation before its
 * drain takes the lease, even past saturation (acks then take seconds): without it, each
 * other worker's sweep took such a conversation, cold, after two sweeps. Shorter than
 * the lease (12 s), so a worker killed between the enqueue and its drain delays the item
 * no longer than one killed while draining it.
 */
export const INBOX_CLAIM_MS = 5_000;

/**
 * Which conversations a periodic inbox sweep wakes up. The sweep exists for inboxes that
 * nobody drains (their worker died, or an item was enqueued by another process while a
 * lease was held); a conversation whose items are being drained right now, here or by
 * another worker, should be left alone: taking its lease away costs round trips on both
 * sides and the live actor of the worker that had it. So a periodic sweep looks only at
 * inboxes whose claim ({@link INBOX_CLAIM_MS}) passed, and wakes only the conversations it
 * also found waiting at the previous sweep; a full sweep (start-up) wakes every one.
 * @example
 * const sweep = new InboxSweep();
 * sweep.pick(['c1', 'c2'], false); // [] (first sight)
 * sweep.pick(['c2', 'c3'], false); // ['c2']
 */
export class InboxSweep {
  #previous = new Set<string>();

  /** The conversations to wake among those found with an inbox now. */
  pick(withInbox: readonly string[], all: boolean): string[] {
    const previous = this.#previous;
    this.#previous = new Set(withInbox);
    return all ? [...withInbox] : withInbox.filter((id) => previous.has(id));
  }
}
