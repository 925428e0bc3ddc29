import {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  signCallback,
  type CallbackEvent,
} from '../api/callbacks.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../log/logger.js';
import type { CallbackConfig } from './config.js';
import type { SandboxEvent } from './model.js';
import { toConversation, toMessage } from './projection.js';
import { newId, type SandboxState } from './state.js';

/** One delivery attempt, as listed by `GET /sandbox/callbacks`. */
export interface CallbackAttempt {
  readonly eventId: string;
  readonly type: CallbackEvent['type'];
  readonly attempt: number;
  readonly duplicate: boolean;
  /** HTTP status of the receiver, or undefined on a network error or timeout. */
  readonly httpStatus: number | undefined;
  readonly ok: boolean;
}

interface Pending {
  readonly event: CallbackEvent;
  readonly body: string;
  attempt: number;
}

/**
 * Delivers signed callbacks: a FIFO queue per conversation (events of one conversation
 * arrive in order), retries with exponential backoff on a non-2xx answer or a network
 * error (bounded attempts, then the event is dropped and logged), and at-least-once
 * duplicates at `duplicateRate`. Each event keeps its `id` across retries and duplicates.
 */
export class CallbackDispatcher {
  readonly attempts: CallbackAttempt[] = [];
  #config: CallbackConfig | undefined;
  readonly #queues = new Map<string, Pending[]>();
  readonly #busy = new Set<string>();
  /** Pending retry delays and how to end each one early. */
  readonly #timers = new Map<NodeJS.Timeout, () => void>();
  readonly #controllers = new Set<AbortController>();
  #idleWaiters: (() => void)[] = [];
  #closed = false;
  /** Bumped when pending work is dropped: a pump of an older generation stops. */
  #generation = 0;

  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    /** Clock of the signature timestamp: the receiver's clock. */
    private readonly signingClock: Clock,
    private readonly logger: Logger,
    private readonly random: () => number = Math.random,
  ) {
    state.onEvent((event) => this.#enqueue(event));
  }

  /**
   * Sets the receiver URL, secret and policy; with undefined removes them and drops
   * every queued callback, pending retry and in-flight attempt.
   */
  configure(config: CallbackConfig | undefined): void {
    this.#config = config;
    if (config === undefined) this.#dropPending();
  }

  get config(): CallbackConfig | undefined {
    return this.#config;
  }

  /** Resolves when every queued callback was delivered or given up. */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Stops deliveries: pending retries are dropped and in-flight requests aborted. */
  close(): void {
    this.#closed = true;
    this.#dropPending();
  }

  /** Drops queued callbacks and the attempt log (control reset). */
  clear(): void {
    this.#dropPending();
    this.attempts.length = 0;
  }

  #dropPending(): void {
    this.#generation++;
    for (const [t, end] of this.#timers) {
      clearTimeout(t);
      end();
    }
    this.#timers.clear();
    for (const c of this.#controllers) c.abort();
    this.#queues.clear();
    this.#busy.clear();
    this.#notifyIdle();
  }

  #enqueue(source: SandboxEvent): void {
    if (this.#config === undefined || this.#closed) return;
    const conversationId =
      source.type === 'conversation.ownership'
        ? source.conversation.id
        : source.message.conversationId;
    for (const event of this.#toEvents(source)) {
      const queue = this.#queues.get(conversationId) ?? [];
      queue.push({ event, body: JSON.stringify(event), attempt: 0 });
      this.#queues.set(conversationId, queue);
    }
    void this.#pump(conversationId);
  }

  #toEvents(source: SandboxEvent): CallbackEvent[] {
    const occurredAt = new Date(this.clock.now()).toISOString();
    if (source.type === 'conversation.ownership') {
      const c = source.conversation;
      return [
        {
          id: newId('evt'),
          occurredAt,
          type: 'conversation.ownership',
          data: { conversationId: c.id, humanOwned: c.humanOwned },
        },
      ];
    }
    const m = source.message;
    if (source.type === 'message.received') {
      const conversation = this.state.conversations.get(m.conversationId);
      if (conversation === undefined) return [];
      const { lastMessage: _omitted, ...conv } = toConversation(conversation, this.state);
      return [
        {
          id: newId('evt'),
          occurredAt,
          type: 'message.received',
          data: { message: toMessage(m, this.state), conversation: conv },
        },
      ];
    }
    if (m.status === 'received' || m.status === 'queued') return [];
    const base = { messageId: m.id, conversationId: m.conversationId };
    const failure = m.failureCode === undefined ? {} : { failureCode: m.failureCode };
    const events: CallbackEvent[] = [
      {
        id: newId('evt'),
        occurredAt,
        type: 'message.status',
        data: { ...base, status: m.status, ...failure },
      },
    ];
    if (m.status === 'failed') {
      events.push({
        id: newId('evt'),
        occurredAt,
        type: 'message.failed',
        data: { ...base, status: 'failed', ...failure },
      });
    }
    return events;
  }

  async #pump(conversationId: string): Promise<void> {
    if (this.#busy.has(conversationId)) return;
    this.#busy.add(conversationId);
    const generation = this.#generation;
    const dropped = (): boolean => this.#closed || generation !== this.#generation;
    try {
      for (;;) {
        const queue = this.#queues.get(conversationId);
        const head = queue?.[0];
        const config = this.#config;
        if (queue === undefined || head === undefined || config === undefined || this.#closed)
          break;
        head.attempt++;
        const ok = await this.#post(config, head, false);
        if (dropped()) return;
        if (ok) {
          queue.shift();
          if (this.random() < config.duplicateRate) await this.#post(config, head, true);
          continue;
        }
        if (head.attempt >= config.maxAttempts) {
          this.logger.warn('callback given up', {
            eventId: head.event.id,
            type: head.event.type,
            attempts: head.attempt,
          });
          queue.shift();
          continue;
        }
        await this.#delay(config.retryBaseMs * 2 ** (head.attempt - 1));
        if (dropped()) return;
      }
    } finally {
      if (!dropped()) this.#busy.delete(conversationId);
      if (this.#queues.get(conversationId)?.length === 0) this.#queues.delete(conversationId);
      this.#notifyIdle();
    }
  }

  async #post(config: CallbackConfig, pending: Pending, duplicate: boolean): Promise<boolean> {
    const generation = this.#generation;
    const ts = Math.floor(this.signingClock.now() / 1000);
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), config.timeoutMs);
    let httpStatus: number | undefined;
    try {
      const res = await fetch(config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [TIMESTAMP_HEADER]: String(ts),
          [SIGNATURE_HEADER]: signCallback(config.secret, ts, pending.body),
        },
        body: pending.body,
        signal: controller.signal,
      });
      httpStatus = res.status;
      // Drain the body so the connection can be reused.
      await res.arrayBuffer().catch(() => undefined);
    } catch (error) {
      this.logger.debug('callback attempt failed', {
        eventId: pending.event.id,
        error: (error as Error).message,
      });
    } finally {
      clearTimeout(timer);
      this.#controllers.delete(controller);
    }
    const ok = httpStatus !== undefined && httpStatus >= 200 && httpStatus < 300;
    // An attempt cut short by a removal or reset is not a delivery attempt worth listing.
    if (generation !== this.#generation) return false;
    this.attempts.push({
      eventId: pending.event.id,
      type: pending.event.type,
      attempt: pending.attempt,
      duplicate,
      httpStatus,
      ok,
    });
    return ok;
  }

  #delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.#timers.delete(t);
        resolve();
      }, ms);
      this.#timers.set(t, resolve);
    });
  }

  #isIdle(): boolean {
    return this.#busy.size === 0 && [...this.#queues.values()].every((q) => q.length === 0);
  }

  #notifyIdle(): void {
    if (!this.#isIdle() && !this.#closed) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }
}
