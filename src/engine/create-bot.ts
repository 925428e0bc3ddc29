import { ROOT_CONTEXT, context, trace } from '@opentelemetry/api';
import { MessagingClient } from '../api/client.js';
import { systemClock } from '../core/clock.js';
import { silentLogger } from '../log/logger.js';
import { MemoryStore } from '../store/memory-store.js';
import { StoreUnavailableError, guardStore } from '../store/guarded-store.js';
import type { InboxItem } from '../store/store.js';
import { createCallbackHandler } from '../ingest/callback-core.js';
import { expressCallbackRouter } from '../ingest/express-adapter.js';
import { changesNothing, conversationOf, toInboxItem } from '../ingest/normalize.js';
import { Poller } from '../ingest/poller.js';
import { EngineTracing, type IngestSource } from '../observe/engine-tracing.js';
import { DeliveryNotes } from '../journal/delivery-notes.js';
import { resolveJournalOptions } from '../journal/journal.js';
import { checkBotOptions } from './check-options.js';
import { forgetContact } from './contact-memory.js';
import { ConversationProcessor } from './conversation-processor.js';
import { createDrain } from './drain.js';
import type { EngineDeps } from './engine-deps.js';
import { HistoryLine } from './history-line.js';
import { INBOX_CLAIM_MS, InboxSweep } from './inbox-sweep.js';
import { ConversationScheduler } from './scheduler.js';
import { SWEEP_LOOK_MS, SweepPace, notingTimers } from './sweep-pace.js';
import { runDueTimers } from './timer-runner.js';
import { TurnGate } from './turn-gate.js';
import { workerId } from './worker-id.js';
import { DEFAULT_CALLBACK_STORE_DEADLINE_MS, withinDeadline } from './store-deadline.js';
import {
  enqueueExternal,
  notifyEvent,
  type EventTarget,
  type ExternalEventOptions,
  type ExternalEventResult,
} from './external-events.js';
import type { Vars } from '../flows/contract.js';
import type {
  Bot,
  BotEvents,
  BotOptions,
  ConversationView,
  EngineClient,
  RawCallbackRequest,
  IngestEvent,
} from './types.js';
import { BotConfigError } from './types.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Inbox items started per event-loop turn, and the turn's time slice (see {@link TurnGate}). */
const ITEMS_PER_TURN = 1;
const TURN_SLICE_MS = 2;
/** Conversations processed at once, and while callbacks keep coming in (see BotOptions). */
const DEFAULT_CONCURRENCY = 64;
const DEFAULT_BURST_CONCURRENCY = 16;
/**
 * How long after a callback the bot still counts as receiving a burst: longer than an
 * event-loop turn that GC or engine work stretches, so the burst limit does not lapse
 * between two callbacks of one burst.
 */
const BURST_PRESSURE_MS = 100;

/**
 * Creates a bot from flows, handlers and configuration. Configuration errors (missing
 * key, unknown handler, invalid flow) throw a {@link BotConfigError} here.
 * @example
 * const bot = createBot({ flows: [compileFlow(def)], handlers, api: { baseUrl, apiKey } });
 * app.use('/callbacks', bot.callbackRouter());
 * await bot.start();
 */
export function createBot(options: BotOptions): Bot {
  const checked = checkBotOptions(options);
  // Mutable for reloadFlows: the engine reads both at every event.
  const flows = new Map(checked.flows);
  let entry = checked.entry;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  // The default understander is built before the bot's logger exists: its model's
  // fallbacks are logged here (a model going down would otherwise be silent).
  if (options.logger !== undefined) {
    options.understanding?.understander.useLogger?.(options.logger);
    options.understanding?.fallback?.useLogger?.(options.logger);
  }
  // Every store is guarded: an outage is one typed error, logged once (guarded-store.ts).
  const store = guardStore(options.store ?? new MemoryStore({ clock }), { logger, clock });
  const client: EngineClient =
    'client' in options.api
      ? options.api.client
      : new MessagingClient({
          baseUrl: options.api.baseUrl,
          apiKey: options.api.apiKey,
          clock,
          logger,
          ...(options.api.timeoutMs === undefined ? {} : { timeoutMs: options.api.timeoutMs }),
        });
  const listeners = new Map<keyof BotEvents, Set<(payload: never) => void>>();
  const stopController = new AbortController();
  let running = true;

  // The global API's tracer is a no-op until an OpenTelemetry SDK is registered.
  const tracing = new EngineTracing(options.tracer ?? trace.getTracer('switchboard'), {
    ...(options.businessNumber === undefined ? {} : { businessNumber: options.businessNumber }),
  });
  const deliveryNotes = new DeliveryNotes();
  /** A status that changes nothing: no store work; its journal entry gets it at the next write. */
  const noteDelivery = (event: IngestEvent): void => {
    if (event.kind === 'status')
      deliveryNotes.note(event.conversationId, event.messageId, event.status, event.failureCode);
  };
  const tickMs = options.tickMs ?? 1000;
  // The periodic sweep asks the store at most once a second, and on the tick at which a
  // timer this bot scheduled is due (sweep-pace.ts).
  const pace = new SweepPace(Math.max(tickMs, SWEEP_LOOK_MS), () => performance.now());
  const deps: EngineDeps = {
    client,
    store: notingTimers(store, pace),
    clock,
    logger,
    flows,
    get entry() {
      return entry;
    },
    handlers: options.handlers ?? {},
    handlerTimeoutMs: options.handlerTimeoutMs ?? 10_000,
    dedupTtlMs: options.dedupTtlMs ?? 7 * DAY_MS,
    history: new HistoryLine({
      store,
      client,
      logger,
      backfillMs: options.backfillMs ?? 0,
      // A read still to come (a promise) is waited for rather than made again here.
      readElsewhere: options.firstRead !== undefined && !Array.isArray(options.firstRead),
    }),
    reconcileAttempts: options.reconcileAttempts ?? 3,
    // Attempts at 0, 5 and 15 s; with `sends.resendAfterAbsence` the last one, past the
    // proof of absence, can resend.
    reconcileDelaysMs: [5_000, 10_000, 120_000],
    absenceProofMs: ('client' in options.api ? 10_000 : (options.api.timeoutMs ?? 10_000)) + 5_000,
    resendAfterAbsence: options.sends?.resendAfterAbsence === true,
    sendRetries: options.sendRetries ?? 3,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 30_000)).unref()),
    stopSignal: stopController.signal,
    understanding: options.understanding,
    journal: resolveJournalOptions(options.journal),
    deliveryNotes,
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) {
        try {
          (listener as (p: typeof payload) => void)(payload);
        } catch (error) {
          logger.warn('a bot event listener threw', { event, error: String(error) });
        }
      }
    },
    async enqueue(conversationId: string, item: InboxItem, source: IngestSource = 'engine') {
      // Running, this bot drains what it enqueues: other workers' sweeps leave it alone.
      const claimMs = running ? INBOX_CLAIM_MS : undefined;
      const fresh = await tracing.enqueue(conversationId, item, source, (traced) =>
        store.enqueue(conversationId, traced, deps.dedupTtlMs, claimMs),
      );
      if (fresh && running) scheduler.schedule(conversationId);
      return fresh;
    },
    tracing,
  };
  const processor = new ConversationProcessor(deps, options.actorCacheSize);
  const gate = new TurnGate(ITEMS_PER_TURN, TURN_SLICE_MS, BURST_PRESSURE_MS);
  /** Conversations whose drain stopped because the store did not answer: retried by the sweep. */
  const stalled = new Set<string>();
  const drain = createDrain(deps, processor, options.workerId ?? workerId(), gate, (id) =>
    stalled.add(id),
  );
  if (options.firstRead !== undefined)
    void Promise.resolve(options.firstRead).then((read) => deps.history.offer(read));
  const scheduler = new ConversationScheduler(
    // Nothing is applied before the history line is decided (items wait in their inboxes).
    // Detached from whatever context scheduled it: each turn's trace comes from its item.
    (conversationId) =>
      context.with(ROOT_CONTEXT, async () => {
        if (deps.history.decided === undefined) {
          try {
            await deps.history.line();
          } catch (error) {
            // Stopped while waiting: the items stay in the inbox for the next start.
            if (!running) return;
            throw error;
          }
        }
        try {
          await drain(conversationId);
        } catch (error) {
          if (error instanceof StoreUnavailableError) stalled.add(conversationId);
          throw error;
        }
      }),
    options.concurrency ?? DEFAULT_CONCURRENCY,
    logger,
    { source: gate, concurrency: options.burstConcurrency ?? DEFAULT_BURST_CONCURRENCY },
  );
  const poller = new Poller(deps, options.polling ?? {});
  const callbacks = options.callbacks;
  const storeDeadlineMs = callbacks?.storeDeadlineMs ?? DEFAULT_CALLBACK_STORE_DEADLINE_MS;
  // True from a callback the store did not answer in time until one it did (one log line each).
  let storeSlow = false;
  const handleCallback = createCallbackHandler({
    secret: callbacks?.secret ?? '',
    ...(callbacks?.replayWindowSeconds === undefined
      ? {}
      : { replayWindowSeconds: callbacks.replayWindowSeconds }),
    ...(callbacks?.verifier === undefined ? {} : { verifier: callbacks.verifier }),
    ...(callbacks?.parser === undefined ? {} : { parser: callbacks.parser }),
    ...(callbacks?.maxBodyBytes === undefined ? {} : { maxBodyBytes: callbacks.maxBodyBytes }),
    now: () => clock.now(),
    logger,
    async accept(events) {
      // Six of the nine exchanges of an answered message are its sends' sent/delivered/read
      // callbacks: verified and parsed, then kept in memory here; no store work to wait for.
      if (events.every(changesNothing)) {
        for (const event of events) noteDelivery(event);
        return;
      }
      // Tracked beyond the deadline: a write that lands late is still in flight (idle()).
      const work = scheduler.track(
        (async () => {
          for (const event of events)
            if (!changesNothing(event))
              await deps.enqueue(conversationOf(event), toInboxItem(event), 'callback');
            else noteDelivery(event);
        })(),
      );
      try {
        await withinDeadline(work, storeDeadlineMs, 'enqueue');
      } catch (error) {
        if (!storeSlow && error instanceof StoreUnavailableError) {
          storeSlow = true;
          logger.warn(
            'the store does not answer: callbacks are answered 503 with Retry-After until it does',
            { deadlineMs: storeDeadlineMs, error: error.message },
          );
        }
        throw error;
      }
      if (storeSlow) logger.info('the store answers again: callbacks are recorded');
      storeSlow = false;
    },
  });
  let loop: NodeJS.Timeout | undefined;

  const inboxSweep = new InboxSweep();
  /**
   * Due timers, then inboxes left waiting: every one when `all` (start-up: also those
   * claimed by a previous run of this worker), else those nobody claims.
   */
  const sweep = async (all: boolean): Promise<void> => {
    if (!all && !pace.shouldLook(clock.now())) return;
    // Both reads at once: on a remote store they share one round trip (one wake-up of
    // this process instead of two).
    const [timers, listing] = await Promise.allSettled([
      store.nextTimerDue(),
      all || store.unclaimedInboxes === undefined
        ? store.conversationsWithInbox(1000)
        : store.unclaimedInboxes(1000),
    ]);
    if (timers.status === 'rejected') throw timers.reason;
    pace.looked(timers.value);
    if (timers.value !== undefined && timers.value <= clock.now()) {
      // What the timers enqueue is scheduled by their enqueue: the listing need not wait.
      await runDueTimers(deps);
      pace.fired();
    }
    if (listing.status === 'rejected') throw listing.reason;
    // The store answers again: what this worker left for that reason is its own to retry
    // (claimed, other workers' sweeps leave it alone until the claim passes).
    for (const id of stalled) scheduler.wake(id);
    stalled.clear();
    for (const id of inboxSweep.pick(listing.value, all)) scheduler.wake(id);
  };
  const tick = (): void => {
    void scheduler.track(sweep(false)).catch((error: unknown) => {
      // An outage is logged once by the guarded store; the next tick tries again.
      const level = error instanceof StoreUnavailableError ? 'debug' : 'error';
      logger[level]('timer/sweeper tick failed; will retry', { error: String(error) });
    });
  };

  async function startBot(): Promise<void> {
    running = true;
    // Decided now when the API and the store answer; else it goes on deciding with
    // backoff, and inboxes and polling wait for it (callbacks are still recorded).
    await deps.history.begin();
    // A store outage now is not fatal: the tick sweeps again until the store answers.
    await scheduler.track(sweep(true)).catch((error: unknown) => {
      if (!(error instanceof StoreUnavailableError)) throw error;
    });
    if (tickMs > 0 && loop === undefined) loop = setInterval(tick, tickMs).unref();
    if (options.polling !== undefined) poller.start();
    logger.info('bot started', { flows: [...flows.keys()], entry: entry.id });
  }
  function start(): Promise<void>;
  function start(
    contact: EventTarget,
    flowId: string,
    vars?: Vars,
    eventOptions?: ExternalEventOptions,
  ): Promise<ExternalEventResult>;
  function start(
    contact?: EventTarget,
    flowId?: string,
    vars?: Vars,
    eventOptions?: ExternalEventOptions,
  ): Promise<void | ExternalEventResult> {
    if (contact === undefined || flowId === undefined) return startBot();
    if (!flows.has(flowId))
      return Promise.reject(
        new BotConfigError(
          `bot.start: unknown flow "${flowId}" (known: ${[...flows.keys()].join(', ')})`,
        ),
      );
    return scheduler.track(
      enqueueExternal(deps, contact, { type: 'start', flowId, vars: vars ?? {} }, eventOptions),
    );
  }

  const bot: Bot = {
    start,
    notify(contact, event, data, eventOptions) {
      return scheduler.track(
        enqueueExternal(deps, contact, notifyEvent(event, data), eventOptions),
      );
    },
    async stop() {
      running = false;
      if (loop !== undefined) clearInterval(loop);
      loop = undefined;
      // First: a poll pass or a drain waiting for an undecided line ends now.
      deps.history.stop();
      await poller.stop();
      await scheduler.idle();
      processor.clear();
      stopController.abort(new Error('bot stopped'));
      logger.info('bot stopped');
    },
    async handle(event) {
      if (changesNothing(event)) {
        noteDelivery(event);
        return { status: 'accepted' };
      }
      const fresh = await scheduler.track(
        deps.enqueue(conversationOf(event), toInboxItem(event), 'handle'),
      );
      return fresh ? { status: 'accepted' } : { status: 'duplicate' };
    },
    callbackRouter() {
      return expressCallbackRouter((request) => bot.handleCallback(request), {
        ...(callbacks?.maxBodyBytes === undefined ? {} : { maxBodyBytes: callbacks.maxBodyBytes }),
      });
    },
    handleCallback(request: RawCallbackRequest) {
      if (callbacks === undefined) {
        return Promise.resolve({
          status: 404,
          body: {
            code: 'callbacks_disabled',
            message: 'this bot was created without callbacks.secret',
          },
        });
      }
      gate.press();
      return scheduler.track(handleCallback(request));
    },
    startPolling(pollingOptions) {
      poller.start(pollingOptions);
    },
    stopPolling() {
      return poller.stop();
    },
    pollOnce() {
      return scheduler.track(poller.pollOnce());
    },
    runDueTimers() {
      return scheduler.track(runDueTimers(deps));
    },
    reloadFlows(next, reloadOptions = {}) {
      let result: ReturnType<typeof checkBotOptions>;
      try {
        result = checkBotOptions({
          ...options,
          flows: next,
          ...(reloadOptions.entry === undefined ? {} : { entry: reloadOptions.entry }),
        });
      } catch (error) {
        return {
          status: 'invalid',
          message: error instanceof Error ? error.message : String(error),
        };
      }
      const before = new Map([...flows].map(([id, f]) => [id, f.version]));
      flows.clear();
      for (const [id, f] of result.flows) flows.set(id, f);
      entry = result.entry;
      // Cached actors run the old machines (they are not reused anyway: machine identity).
      processor.clear();
      const changed = [...result.flows.values()]
        .filter((f) => before.get(f.id) !== undefined)
        .map((f) => ({ id: f.id, from: before.get(f.id) ?? f.version, to: f.version }));
      logger.info('flows reloaded', { flows: [...flows.keys()], entry: entry.id });
      return { status: 'ok', flows: [...flows.keys()], entry: entry.id, changed };
    },
    async forget(phone) {
      const result = await scheduler.track(forgetContact(store, phone));
      processor.clear();
      logger.info('contact forgotten', {
        conversations: result.conversations.length,
        memory: result.memory,
      });
      return result;
    },
    async inspect(conversationId) {
      const loaded = await processor.load(conversationId);
      if (loaded === undefined) return undefined;
      const { doc } = loaded;
      const view: ConversationView = {
        conversationId,
        flowId: doc.flowId,
        flowVersion: doc.flowVersion,
        state: doc.state,
        vars: doc.vars,
        humanOwned: doc.humanOwned,
        lastInboundAt: doc.lastInboundAt,
        ended: doc.ended,
        heldSends: doc.heldSends.length,
        callers: (doc.stack ?? []).map((f) => `${f.flowId}.${f.state}`),
      };
      return view;
    },
    idle() {
      return scheduler.idle();
    },
    probeStore() {
      return store.probe();
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (set === undefined) listeners.set(event, (set = new Set()));
      const stored = listener as (payload: never) => void;
      set.add(stored);
      return () => void set.delete(stored);
    },
  };
  return bot;
}
