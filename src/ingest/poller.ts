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

/** History pages read, at most, for a conversation polling has never seen. */
const FIRST_SIGHT_PAGES = 4;

/** Store key of the newest `lastMessageAt` seen by the previous pass. */
const SINCE_KEY = 'poll:since';
const SinceValue = z.string();
/** Margin under the previous pass's newest time (conversations updated in the same ms). */
const SINCE_SKEW_MS = 2_000;
/** A watermark of a conversation quiet this long is forgotten (bounded growth). */
const WATERMARK_TTL_MS = 30 * 86_400_000;

interface PassCounts {
  enqueued: number;
  skipped: number;
}

/**
 * Inbound messages of a newest-first list that a later outbound message answered (by a
 * person, or an earlier deployment): never answered again.
 */
function answeredInbound(newestFirst: readonly Message[]): Set<string> {
  const answered = new Set<string>();
  let outboundAfter = false;
  for (const message of newestFirst) {
    if (message.direction === 'outbound') outboundAfter = true;
    else if (outboundAfter) answered.add(message.id);
  }
  return answered;
}

/**
 * Polling ingest: walks `GET /v1/conversations` newest first, every page down to the
 * newest time of the previous pass (the first pass: down to the history line), and each
 * changed conversation's history with `before` cursors until it meets a message it has
 * seen; enqueues new inbound messages oldest first and notices `humanOwned` changes.
 * A conversation seen for the first time answers nothing from before the history line,
 * nor a message a later outbound message already answered (counted, logged per pass). Watermarks live in
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
    // Never further back than the dedup window: an older message could be applied again.
    const floor = Math.max(await this.#deps.history.floor(), started - this.#deps.dedupTtlMs);
    const since = SinceValue.safeParse(await this.#deps.store.getValue(SINCE_KEY));
    // Conversations last active before this are unchanged since the previous pass (or,
    // on the first pass, pure history): the walk stops at the first page that ends there.
    const stopBefore = since.success ? Date.parse(since.data) - SINCE_SKEW_MS : floor;
    const pass: PassCounts = { enqueued: 0, skipped: 0 };
    let examined = 0;
    let newest: string | undefined;
    let after: PageCursor | undefined;
    walk: for (;;) {
      const page = await this.#deps.client.listConversations({
        limit: this.#options.pageSize,
        ...(after === undefined ? {} : { after }),
      });
      for (const conversation of page.items) {
        if (examined++ >= this.#options.maxConversationsPerPoll) break walk;
        if (newest === undefined || conversation.lastMessageAt > newest)
          newest = conversation.lastMessageAt;
        await this.#pollConversation(conversation, floor, pass);
      }
      const last = page.items.at(-1);
      // Newest first: once a page ends before the line, every later page does too.
      if (page.nextCursor === null || last === undefined) break;
      if (Date.parse(last.lastMessageAt) < stopBefore) break;
      after = page.nextCursor;
    }
    if (newest !== undefined && (!since.success || newest > since.data))
      await this.#deps.store.setValue(SINCE_KEY, newest);
    if (pass.skipped > 0) {
      this.#deps.logger.info(
        'history not answered: messages from before the first start or already answered',
        {
          skipped: pass.skipped,
          cutoff: new Date(floor).toISOString(),
        },
      );
    }
    this.#deps.logger[pass.enqueued > 0 ? 'info' : 'debug']('poll finished', {
      examined,
      enqueued: pass.enqueued,
      tookMs: this.#deps.clock.now() - started,
    });
    return pass.enqueued;
  }

  /** Enqueues what is new in one conversation (counting into `pass`). */
  async #pollConversation(
    conversation: Conversation,
    floor: number,
    pass: PassCounts,
  ): Promise<void> {
    const key = `poll:conv:${conversation.id}`;
    const stored = Watermark.safeParse(await this.#deps.store.getValue(key));
    const mark: Watermark | undefined = stored.success ? stored.data : undefined;
    const ownerChanged = (mark?.humanOwned ?? false) !== conversation.humanOwned;
    const newer =
      mark === undefined || Date.parse(conversation.lastMessageAt) > Date.parse(mark.lastMessageAt);
    if (!newer && !ownerChanged) return;
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
    // A conversation first seen with nothing after the line has nothing to answer: its
    // watermark is set without reading its history.
    if (newer && (mark !== undefined || Date.parse(conversation.lastMessageAt) >= floor)) {
      const fresh = await this.#newMessages(conversation.id, mark, floor);
      newest = fresh[0]?.id ?? newest;
      const answered = mark === undefined ? answeredInbound(fresh) : new Set<string>();
      for (const message of fresh.reverse()) {
        if (mark === undefined && message.direction === 'inbound') {
          const at = Date.parse(message.occurredAt);
          if (answered.has(message.id) || (await this.#deps.history.isHistory(at, message.id))) {
            pass.skipped++;
            continue;
          }
        }
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
    } else if (newer) {
      newest = conversation.lastMessage?.id ?? newest;
      if (conversation.lastMessage?.direction === 'inbound') pass.skipped++;
    }
    let count = 0;
    for (const event of events) {
      if (await this.#deps.enqueue(conversation.id, toInboxItem(event))) count++;
    }
    pass.enqueued += count;
    const next: Watermark = {
      lastMessageAt: conversation.lastMessageAt,
      humanOwned: conversation.humanOwned,
      ...(newest === undefined ? {} : { lastSeenId: newest }),
    };
    await this.#deps.store.setValue(key, next, WATERMARK_TTL_MS);
    this.#deps.logger.debug('polled conversation', {
      conversationId: conversation.id,
      enqueued: count,
    });
  }

  /**
   * History newer than the watermark, newest first; for a conversation never seen, the
   * messages back to the history line `floor` (at most {@link FIRST_SIGHT_PAGES} pages).
   */
  async #newMessages(
    conversationId: string,
    mark: Watermark | undefined,
    floor: number,
  ): Promise<Message[]> {
    const out: Message[] = [];
    const since = mark === undefined ? floor : Date.parse(mark.lastMessageAt);
    let before: PageCursor | undefined;
    for (let pages = 0; mark !== undefined || pages < FIRST_SIGHT_PAGES; pages++) {
      const page = await this.#deps.client.listMessages(conversationId, {
        limit: this.#options.pageSize,
        ...(before === undefined ? {} : { before }),
      });
      for (const message of page.items) {
        if (mark !== undefined && message.id === mark.lastSeenId) return out;
        if (Date.parse(message.occurredAt) < since) {
          // First sight: keep the messages just before the line, to see what they answered.
          if (mark === undefined) out.push(message);
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
