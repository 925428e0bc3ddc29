import { z } from 'zod';
import type { Conversation, Message } from '../api/resources.js';
import type { PageCursor } from '../api/pagination.js';
import type { EngineDeps } from '../engine/engine-deps.js';
import type { IngestEvent, PollingOptions } from '../engine/types.js';
import { contactOf, fromApiMessage, toInboxItem } from './normalize.js';

/** What polling remembers of one conversation (store value `poll:conv:<id>`). */
const Watermark = z.object({
  lastMessageAt: z.string(),
  lastSeenId: z.string().optional(),
  humanOwned: z.boolean(),
});
type Watermark = z.infer<typeof Watermark>;

/** History pages read for a conversation polling has never seen. */
const FIRST_SIGHT_PAGES = 2;

/**
 * Polling ingest: walks `GET /v1/conversations` newest first (the first page always,
 * further pages while conversations keep changing) and each changed conversation's
 * history with `before` cursors until it meets a message it has seen; enqueues new
 * inbound messages oldest first and notices `humanOwned` changes. Watermarks live in
 * the store, so they survive restarts. The interval adapts: fast while there is
 * traffic, doubling while idle, slower when reads take long (the limiter makes it wait).
 */
export class Poller {
  readonly #deps: EngineDeps;
  #options: Required<PollingOptions>;
  #interval: number;
  #timer: NodeJS.Timeout | undefined;
  #current: Promise<unknown> | undefined;
  #running = false;

  constructor(deps: EngineDeps, options: PollingOptions) {
    this.#deps = deps;
    this.#options = resolve(options);
    this.#interval = this.#options.minIntervalMs;
  }

  start(options?: PollingOptions): void {
    if (options !== undefined) this.#options = resolve(options);
    if (this.#running) return;
    this.#running = true;
    this.#deps.logger.info('polling started', { minIntervalMs: this.#options.minIntervalMs });
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    if (this.#running) this.#deps.logger.info('polling stopped');
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#current?.catch(() => undefined);
  }

  /** One pass; returns how many new events were enqueued. */
  async pollOnce(): Promise<number> {
    const started = this.#deps.clock.now();
    let enqueued = 0;
    let examined = 0;
    let after: PageCursor | undefined;
    walk: for (;;) {
      const page = await this.#deps.client.listConversations({
        limit: this.#options.pageSize,
        ...(after === undefined ? {} : { after }),
      });
      let changedOnPage = 0;
      for (const conversation of page.items) {
        if (examined++ >= this.#options.maxConversationsPerPoll) break walk;
        const n = await this.#pollConversation(conversation);
        if (n >= 0) changedOnPage++;
        enqueued += Math.max(0, n);
      }
      // Newest first: a page without changes means older conversations are unchanged too.
      if (page.nextCursor === null || changedOnPage === 0) break;
      after = page.nextCursor;
    }
    this.#deps.logger[enqueued > 0 ? 'info' : 'debug']('poll finished', {
      examined,
      enqueued,
      tookMs: this.#deps.clock.now() - started,
    });
    return enqueued;
  }

  /** Returns the number of events enqueued, or -1 when the conversation was unchanged. */
  async #pollConversation(conversation: Conversation): Promise<number> {
    const key = `poll:conv:${conversation.id}`;
    const stored = Watermark.safeParse(await this.#deps.store.getValue(key));
    const mark: Watermark | undefined = stored.success ? stored.data : undefined;
    const ownerChanged = (mark?.humanOwned ?? false) !== conversation.humanOwned;
    const newer =
      mark === undefined || Date.parse(conversation.lastMessageAt) > Date.parse(mark.lastMessageAt);
    if (!newer && !ownerChanged) return -1;
    let count = 0;
    const events: IngestEvent[] = [];
    if (ownerChanged) {
      events.push({
        kind: 'ownership',
        conversationId: conversation.id,
        humanOwned: conversation.humanOwned,
        occurredAt: new Date(this.#deps.clock.now()).toISOString(),
        contact: contactOf(conversation),
      });
    }
    let newest = mark?.lastSeenId;
    if (newer) {
      const fresh = await this.#newMessages(conversation.id, mark);
      newest = fresh[0]?.id ?? newest;
      for (const message of fresh.reverse()) {
        const event = fromApiMessage(message, conversation);
        if (event !== undefined) events.push(event);
        else if (message.status === 'failed') {
          events.push({
            kind: 'status',
            conversationId: conversation.id,
            messageId: message.id,
            status: 'failed',
            occurredAt: message.occurredAt,
            ...(message.failureCode === undefined ? {} : { failureCode: message.failureCode }),
          });
        }
      }
    }
    for (const event of events) {
      if (await this.#deps.enqueue(conversation.id, toInboxItem(event))) count++;
    }
    const next: Watermark = {
      lastMessageAt: conversation.lastMessageAt,
      humanOwned: conversation.humanOwned,
      ...(newest === undefined ? {} : { lastSeenId: newest }),
    };
    await this.#deps.store.setValue(key, next);
    this.#deps.logger.debug('polled conversation', {
      conversationId: conversation.id,
      enqueued: count,
    });
    return count;
  }

  /** History newer than the watermark, newest first. */
  async #newMessages(conversationId: string, mark: Watermark | undefined): Promise<Message[]> {
    const out: Message[] = [];
    const since = mark === undefined ? undefined : Date.parse(mark.lastMessageAt);
    let before: PageCursor | undefined;
    for (let pages = 0; mark !== undefined || pages < FIRST_SIGHT_PAGES; pages++) {
      const page = await this.#deps.client.listMessages(conversationId, {
        limit: this.#options.pageSize,
        ...(before === undefined ? {} : { before }),
      });
      for (const message of page.items) {
        if (
          mark !== undefined &&
          (message.id === mark.lastSeenId || Date.parse(message.occurredAt) < (since ?? 0))
        ) {
          return out;
        }
        out.push(message);
      }
      if (page.nextCursor === null) break;
      before = page.nextCursor;
    }
    return out;
  }

  #schedule(delay: number): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      const started = Date.now();
      const pass = this.pollOnce().then(
        (n) => this.#adapt(n > 0, Date.now() - started),
        (error: unknown) => {
          this.#deps.logger.warn('poll failed; backing off', { error: String(error) });
          this.#interval = Math.min(this.#interval * 2, this.#options.maxIntervalMs);
        },
      );
      this.#current = pass.finally(() => this.#schedule(this.#interval));
    }, delay);
    this.#timer.unref();
  }

  #adapt(active: boolean, tookMs: number): void {
    const { minIntervalMs, maxIntervalMs } = this.#options;
    // Busy: poll again soon. Idle: back off. A slow pass (budget waits) slows down too.
    let next = active ? minIntervalMs : Math.min(this.#interval * 2, maxIntervalMs);
    if (tookMs > next) next = Math.min(tookMs * 2, maxIntervalMs);
    if (next !== this.#interval)
      this.#deps.logger.debug('poll interval changed', { intervalMs: next });
    this.#interval = next;
  }
}

function resolve(options: PollingOptions): Required<PollingOptions> {
  return {
    minIntervalMs: options.minIntervalMs ?? 1000,
    maxIntervalMs: options.maxIntervalMs ?? 30_000,
    pageSize: options.pageSize ?? 50,
    maxConversationsPerPoll: options.maxConversationsPerPoll ?? 500,
  };
}
