/**
 * Public types of the conversation engine: how a bot is configured, what handlers
 * receive and return, the normalised ingest events, and the `Bot` itself.
 */
import type { JournalOptions } from '../journal/journal.js';
import type { Tracer } from '@opentelemetry/api';
import type { Router } from 'express';
import type { SendResult } from '../api/send-result.js';
import type { MediaDownload } from '../api/media-download.js';
import type { Page } from '../api/client.js';
import type { PageCursor } from '../api/pagination.js';
import type { Conversation, Message, OutboundStatus } from '../api/resources.js';
import type { SendRequest } from '../messages/index.js';
import type { VerifyResult } from '../api/callbacks.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import type { EventTarget, ExternalEventOptions, ExternalEventResult } from './external-events.js';
import type { ForgetResult } from './contact-memory.js';
import type { EngineUnderstanding } from './understand-inbound.js';
import type { Understanding } from '../understand/types.js';
import type {
  ContactInfo,
  Effect,
  FlowEvent,
  InboundMessage,
  RunnableFlow,
  Vars,
} from '../flows/contract.js';

/**
 * The part of `MessagingClient` the engine uses. The real client fits it; tests may
 * pass a fake. Reads throw `ApiError`s; `send` never throws for outcomes.
 */
export interface EngineClient {
  send(request: SendRequest): Promise<SendResult>;
  listConversations(options?: { limit?: number; after?: PageCursor }): Promise<Page<Conversation>>;
  listMessages(
    conversationId: string,
    options?: { limit?: number; before?: PageCursor },
  ): Promise<Page<Message>>;
  getMessage(messageId: string): Promise<Message>;
  /** `GET /v1/media/:id` holding one of the 8 media stream slots (the real client has it). */
  downloadMedia?(mediaId: string): Promise<MediaDownload>;
}

/**
 * The read-only client given to handlers (no sends: sends are flow effects). A media
 * answer of an `ask` (its id in the variable) is downloaded with `downloadMedia`; the
 * download holds one of the 8 media stream slots until its stream ends or is released.
 */
export type ReadOnlyApi = Pick<
  EngineClient,
  'listConversations' | 'listMessages' | 'getMessage'
> & {
  downloadMedia(mediaId: string): Promise<MediaDownload>;
};

/** What a handler receives. */
export interface HandlerContext {
  /** The `input` of the `call` effect (already interpolated by the flow). */
  readonly input: Vars;
  /** The flow variables at the time of the call. */
  readonly vars: Vars;
  readonly contact: ContactInfo;
  readonly conversationId: string;
  readonly api: ReadOnlyApi;
  readonly logger: Logger;
  /** Aborted when the handler's timeout elapses or the bot stops. */
  readonly signal: AbortSignal;
}

/** What a handler returns: an outcome name the flow routes on, and variables to set. */
export interface HandlerResult {
  readonly outcome: string;
  readonly vars?: Vars;
}

/**
 * Business logic plugged into a flow. A thrown error or a timeout becomes a
 * `handler.error` event for the flow, never a crash.
 * @example
 * const lookupOrder: Handler = async ({ input, api }) => ({ outcome: 'found', vars: { status: 'shipped' } });
 */
export type Handler = (ctx: HandlerContext) => Promise<HandlerResult> | HandlerResult;

/** Parses a verified raw callback body into callback events (pluggable for other schemes). */
export type CallbackParser = (rawBody: Buffer) =>
  | {
      readonly status: 'ok';
      readonly events: readonly IngestEvent[];
      /** Why nothing was taken from a valid body (e.g. an unknown event type): acknowledged. */
      readonly ignored?: string;
    }
  | { readonly status: 'invalid'; readonly message: string };

/** Verifies a callback's raw bytes and headers (pluggable for other schemes). */
export type CallbackVerifier = (request: {
  readonly rawBody: Buffer;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly nowMs: number;
}) => VerifyResult;

/** Polling options. */
export interface PollingOptions {
  /** Shortest interval between polls, ms (default 1000). */
  readonly minIntervalMs?: number;
  /** Longest interval when idle, ms (default 30000). */
  readonly maxIntervalMs?: number;
  /** Page size of both list endpoints (default 50, max 100). */
  readonly pageSize?: number;
  /** Most conversations examined per poll (default 500). */
  readonly maxConversationsPerPoll?: number;
}

/** Options of {@link createBot}. */
export interface BotOptions {
  /** The flows; the first is the entry flow unless `entry` names another. */
  readonly flows: readonly RunnableFlow[];
  readonly entry?: string;
  readonly handlers?: Readonly<Record<string, Handler>>;
  /** Either a base URL and key (a `MessagingClient` is created) or a ready client. */
  readonly api:
    | { readonly baseUrl: string; readonly apiKey: string; readonly timeoutMs?: number }
    | { readonly client: EngineClient };
  /** Default: a new `MemoryStore`. */
  readonly store?: Store;
  readonly logger?: Logger;
  readonly clock?: Clock;
  readonly callbacks?: {
    readonly secret: string;
    readonly replayWindowSeconds?: number;
    readonly verifier?: CallbackVerifier;
    readonly parser?: CallbackParser;
    /** Raw body cap in bytes (default 1 MiB). */
    readonly maxBodyBytes?: number;
    /**
     * How long a callback waits for the store to record it (ms, default 1,000). Past it
     * (the store does not answer: Redis down or paused, SQLite locked) the callback is
     * answered 503 with `Retry-After`, within a sender's timeout; the sender's redelivery
     * is applied exactly once (a write that lands late makes it a duplicate).
     */
    readonly storeDeadlineMs?: number;
  };
  /** Conversations processed at the same time (default 64). */
  readonly concurrency?: number;
  /**
   * Conversations processed at the same time while callbacks keep coming in (one within
   * the last 100 ms; default 16, at most `concurrency`): a burst is acknowledged first (its
   * items wait durably in their inboxes) and the full `concurrency` drains it after.
   */
  readonly burstConcurrency?: number;
  /**
   * Flow actors of recently active conversations kept running, so that their next event
   * skips restoring the snapshot (default 1024, about 6 KB of heap each; 0 restores every time). Only actors of
   * `compileFlow` machines are kept, and only while the stored document is theirs.
   */
  readonly actorCacheSize?: number;
  /** Default handler timeout when the effect has none (default 10000 ms). */
  readonly handlerTimeoutMs?: number;
  /** How long message ids are remembered for dedup (default 7 days). */
  readonly dedupTtlMs?: number;
  /**
   * Inbound messages from before the number's history line (the newest message the bot's
   * first read of the number saw, on the API's clock) are never answered; this opts in to
   * answering unanswered ones received up to this long before the line (default 0).
   */
  readonly backfillMs?: number;
  /**
   * The conversations of a read of the number made before this bot was created (the CLI's
   * start-up key check, `GET /v1/conversations?limit=100`). When the number has no history
   * line yet, it is decided from this read, so every message the API received after that
   * first request is answered. A promise: a read still to come (the CLI's retried check
   * while the API does not answer), which the line waits for instead of reading itself.
   * Default: the bot's own first read decides.
   */
  readonly firstRead?: readonly Conversation[] | PromiseLike<readonly Conversation[]>;
  /**
   * Owner name of this bot's conversation leases. Default: unique per bot. A stable name
   * (one process per state file, or host:port of a worker) lets a restarted process take
   * its leases back at once instead of waiting for them to expire.
   */
  readonly workerId?: string;
  readonly polling?: PollingOptions;
  /**
   * Interval of the timer loop and inbox sweeper in ms (default 1000; 0 disables the loops).
   * Timers this bot scheduled fire on the tick they are due; the store is read for the rest
   * (other workers' timers, inboxes nobody claims) at most once a second.
   */
  readonly tickMs?: number;
  /** Attempts to reconcile an unknown send by reading history (default 3). */
  readonly reconcileAttempts?: number;
  /** How many times a 429/503 rejected send is retried (default 3). */
  readonly sendRetries?: number;
  /** What happens to sends whose outcome stays unknown (see {@link SendOptions}). */
  readonly sends?: SendOptions;
  /**
   * The OpenTelemetry tracer of the bot's spans (one trace per inbound item: ingest → turn
   * → handler → send). Default: the global API's `trace.getTracer('switchboard')`, a no-op
   * until an SDK is registered (e.g. by `startTracing`). See docs/operations.md.
   */
  readonly tracer?: Tracer;
  /** The business number this bot serves, when known: an attribute of its spans. */
  readonly businessNumber?: string;
  /**
   * Understanding of free text for flows that declare intents (docs/understanding.md).
   * Absent: no text is understood (flows behave as without intents).
   */
  readonly understanding?: EngineUnderstanding;
  /**
   * The conversation journal (docs/inspect.md): on by default, 50 entries / 8 KB per
   * conversation. `{ texts: false }` keeps message texts and variable values out of it;
   * `{ enabled: false }` keeps no journal. `switchboard run` sets these from
   * `SWITCHBOARD_JOURNAL_TEXTS` / `SWITCHBOARD_JOURNAL` (`0` turns them off).
   */
  readonly journal?: Partial<JournalOptions>;
}

/** A normalised event from a callback, a polled page or a direct `handle()` call. */
export type IngestEvent =
  | {
      readonly kind: 'inbound';
      readonly message: InboundMessage;
      readonly contact: ContactInfo;
      /** Ownership as seen with the message, when known. */
      readonly humanOwned?: boolean;
    }
  | {
      readonly kind: 'status';
      readonly conversationId: string;
      readonly messageId: string;
      readonly status: OutboundStatus;
      readonly failureCode?: string;
      readonly occurredAt: string;
    }
  | {
      readonly kind: 'ownership';
      readonly conversationId: string;
      readonly humanOwned: boolean;
      readonly occurredAt: string;
      readonly contact?: ContactInfo;
    };

/** The outcome of `handle()`: whether the event was new (enqueued) or a duplicate. */
export type HandleResult = { readonly status: 'accepted' } | { readonly status: 'duplicate' };

/** What `inspect()` shows of one conversation. */
export interface ConversationView {
  readonly conversationId: string;
  readonly flowId: string;
  readonly flowVersion: number;
  /** The machine's state value as a dotted path, e.g. `menu` or `order.askNumber`. */
  readonly state: string;
  readonly vars: Vars;
  readonly humanOwned: boolean;
  /** Epoch ms of the contact's last inbound message. */
  readonly lastInboundAt: number | undefined;
  readonly ended: boolean;
  /** Sends held until the window opens again. */
  readonly heldSends: number;
  /** While a sub-flow runs: its callers as `flowId.state`, outermost first. */
  readonly callers: readonly string[];
}

/** Outcome of {@link Bot.reloadFlows}. */
export type ReloadResult =
  | {
      readonly status: 'ok';
      readonly flows: readonly string[];
      readonly entry: string;
      /** Flows that existed before, with their old and new versions. */
      readonly changed: readonly {
        readonly id: string;
        readonly from: number;
        readonly to: number;
      }[];
    }
  /** The new flows were refused (nothing changed); the message says why. */
  | { readonly status: 'invalid'; readonly message: string };

/** A raw callback request, framework-free. */
export interface RawCallbackRequest {
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** The answer to a callback request. */
export interface RawCallbackResponse {
  readonly status: number;
  /** Extra response headers (`Retry-After` on 503). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body:
    { readonly code: string; readonly message: string } | { readonly received: number };
}

/** Observability events of a bot. */
export interface BotEvents {
  /** An effect was carried out (or skipped) for a conversation. */
  effect: { conversationId: string; effect: Effect; outcome: string };
  /** An event was fed to a conversation's machine. */
  event: { conversationId: string; event: FlowEvent };
  /** Something went wrong that the bot survived. */
  error: { conversationId?: string; error: unknown };
  /**
   * An inbound text was understood (once per message: a result read back after a crash
   * is not told again). `state`: where it was understood (null: before the flow started).
   */
  understood: {
    conversationId: string;
    messageId: string;
    /** The text understood. */
    text: string;
    state: string | null;
    understanding: Understanding;
    threshold: number;
  };
}

/**
 * Sends whose outcome is unknown (a timeout, a network failure, a 5xx). They are looked
 * up in history, never replayed (spec 4.5.6); not found after the reads, the flow gets
 * `send.unknown`.
 */
export interface SendOptions {
  /**
   * Opt-in, default `false`: send it once more when history still lacks it 15 s (the API
   * timeout + 5 s) after its outcome became unknown. Availability over the risk of a
   * duplicate: a POST stalled in the API can still be admitted after that read, and the
   * contact then gets the message twice (see docs/production.md).
   */
  readonly resendAfterAbsence?: boolean;
}

/** A running bot. */
export interface Bot {
  /**
   * Checks configuration, starts the timer loop and sweeper (and polling if configured).
   * With arguments it is {@link Bot.start} of a flow for a contact (see below).
   */
  start(): Promise<void>;
  /** Stops polling and loops, waits for in-flight work, then returns. */
  stop(): Promise<void>;
  /** Feeds one normalised event (tests, custom sources). Dedup applies. */
  handle(event: IngestEvent): Promise<HandleResult>;
  /**
   * Tells a contact's conversation that something happened (`shipped`, `appointmentMoved`):
   * the flow's `on.<event>` rule handles it in any state, with `data` fields as variables.
   * Ordered with the contact's messages and applied once per `options.id`.
   * @example
   * await bot.notify('+15551230001', 'shipped', { trackingUrl }, { id: `ship-${orderId}` });
   */
  notify(
    contact: EventTarget,
    event: string,
    data?: Vars,
    options?: ExternalEventOptions,
  ): Promise<ExternalEventResult>;
  /**
   * Starts flow `flowId` for a contact with initial variables, replacing whatever ran in
   * that conversation. Applied once per `options.id`.
   * @example
   * await bot.start('+15551230001', 'appointment-booking', { appointmentAt }, { id: 'booking-42' });
   */
  start(
    contact: EventTarget,
    flowId: string,
    vars?: Vars,
    options?: ExternalEventOptions,
  ): Promise<ExternalEventResult>;
  /** The express router for callbacks (`POST /`), from the express adapter. */
  callbackRouter(): Router;
  /** The framework-free callback core: verify, parse, enqueue, answer. Never throws. */
  handleCallback(request: RawCallbackRequest): Promise<RawCallbackResponse>;
  startPolling(options?: PollingOptions): void;
  stopPolling(): Promise<void>;
  /** One polling pass; returns how many new events were enqueued. */
  pollOnce(): Promise<number>;
  /** Fires every due timer now; returns how many fired. */
  runDueTimers(): Promise<number>;
  inspect(conversationId: string): Promise<ConversationView | undefined>;
  /**
   * Replaces the bot's flows while it runs (hot reload, e.g. from the studio). The new set
   * is checked like `createBot`'s (handlers, sub-flows, entry); when refused nothing
   * changes. Running conversations move to the new version at their next event: one
   * whose state still exists continues there; one whose state was removed (or renamed)
   * continues in the flow's `migrate:` target for it, taking the message that moved it
   * as its answer there, or at its `start` with that message as a first message (see
   * `migrateSnapshot`). Takes compiled flows; from flow files or definitions use
   * `reloadFlowSources(bot, flows)`.
   * @example
   * const r = bot.reloadFlows([compileFlow(edited)]);
   * if (r.status === 'invalid') console.error(r.message);
   */
  reloadFlows(flows: readonly RunnableFlow[], options?: { readonly entry?: string }): ReloadResult;
  /**
   * Erasure of a contact: its contact memory, its conversation documents and their
   * waiting events (see `forgetContact`; the CLI is `switchboard forget <phone>`).
   */
  forget(phone: string): Promise<ForgetResult>;
  /** Resolves when no work is queued or in flight. */
  idle(): Promise<void>;
  /**
   * Whether the store answers now (one cheap read). An outage is logged once, and once
   * more when it ends; meanwhile callbacks answer 503 and work waits in the inbox.
   */
  probeStore(): Promise<boolean>;
  on<K extends keyof BotEvents>(event: K, listener: (payload: BotEvents[K]) => void): () => void;
}

/** Re-exported for adapters that build ingest events from conversations. */
export type { Conversation, ContactInfo };

/** Thrown by `createBot`/`start` for configuration errors, with a message saying how to fix. */
export class BotConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BotConfigError';
  }
}
