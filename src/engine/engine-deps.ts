import type { Clock } from '../core/clock.js';
import type { RunnableFlow } from '../flows/contract.js';
import type { Logger } from '../log/logger.js';
import type { InboxItem, Store } from '../store/store.js';
import type { DeliveryNotes } from '../journal/delivery-notes.js';
import type { JournalOptions } from '../journal/journal.js';
import type { HistoryLine } from './history-line.js';
import type { EngineTracing, IngestSource } from '../observe/engine-tracing.js';
import type { BotEvents, EngineClient, Handler } from './types.js';
import type { EngineUnderstanding } from './understand-inbound.js';

/** Resolved configuration and collaborators shared by the engine's parts. */
export interface EngineDeps {
  readonly client: EngineClient;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly flows: ReadonlyMap<string, RunnableFlow>;
  readonly entry: RunnableFlow;
  readonly handlers: Readonly<Record<string, Handler>>;
  readonly handlerTimeoutMs: number;
  readonly dedupTtlMs: number;
  /** The number's history line: older inbound messages are never answered. */
  readonly history: HistoryLine;
  readonly reconcileAttempts: number;
  /** Delays between reconciliation attempts (clock ms), the first attempt is immediate. */
  readonly reconcileDelaysMs: readonly number[];
  readonly sendRetries: number;
  /**
   * With `resendAfterAbsence`: how long after a send's outcome became unknown a read of
   * history that lacks it is taken as absence. Default: the API request timeout + 5 s.
   */
  readonly absenceProofMs: number;
  /**
   * Opt-in (`sends.resendAfterAbsence`): send an unknown send once more when history
   * lacks it `absenceProofMs` after its outcome became unknown. Off: never sent again.
   */
  readonly resendAfterAbsence: boolean;
  /** Waits a 429/503 hint before retrying a definitely rejected send. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Understanding of free text (absent: no text is understood). */
  readonly understanding?: EngineUnderstanding | undefined;
  /** Aborted when the bot stops (handlers see it). */
  readonly stopSignal: AbortSignal;
  emit<K extends keyof BotEvents>(event: K, payload: BotEvents[K]): void;
  /**
   * Appends an item to a conversation's inbox (dedup applies) and schedules it. `source`
   * says where it came from (default `engine`: a continuation of the turn in progress).
   */
  enqueue(conversationId: string, item: InboxItem, source?: IngestSource): Promise<boolean>;
  /** How conversations are journaled (absent: the defaults, DEFAULT_JOURNAL). */
  readonly journal?: JournalOptions;
  /** Delivery statuses waiting for their conversation's next write (absent: dropped). */
  readonly deliveryNotes?: DeliveryNotes;
  /** The engine's spans (absent: none; see src/observe/engine-tracing.ts). */
  readonly tracing?: EngineTracing;
}

export { SERVICE_WINDOW_MS } from '../core/limits.js';

/** Prefix of the internal timers that schedule reconciliation attempts. */
export const RECONCILE_TIMER_PREFIX = '__reconcile:';
