import { resolveJournalOptions } from '../journal/journal.js';
import { MessagingClient } from '../api/client.js';
import { RedisLimiter } from '../api/redis-limiter.js';
import { shareLlmBudget } from '../understand/llm/share-budget.js';
import type { Conversation } from '../api/resources.js';
import type { ResolvedBot } from '../bot/resolve-bot.js';
import { createBot } from '../engine/create-bot.js';
import type { Bot } from '../engine/types.js';
import { workerId } from '../engine/worker-id.js';
import { eventsRouter } from '../ingest/events-endpoint.js';
import { PollLeader } from '../ingest/poll-leader.js';
import { createLogger, silentLogger, type Logger } from '../log/logger.js';
import { createMetrics } from '../metrics/create-metrics.js';
import { countStoreOperations } from '../store/counted-store.js';
import { oldestWaitingAgeMs } from '../metrics/backlog-probe.js';
import type { ApiCall } from '../api/client.js';
import { MemoryStore } from '../store/memory-store.js';
import { RedisStore } from '../store/redis-store.js';
import { connectRedis, describeTarget } from '../store/redis-connection.js';
import { redisReadiness } from '../store/redis-readiness.js';
import type { RedisClient } from '../store/redis-script.js';
import { parseRedisUrl } from '../store/redis-url.js';
import type { Store } from '../store/store.js';
import { ApiWatch, checkApi, type ApiCheck } from './api-check.js';
import { listenFailure } from './listen-error.js';
import type { RunConfig } from './run-config.js';
import {
  closeServer,
  createRunApp,
  listenOn,
  type Listening,
  type Readiness,
} from './run-server.js';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { claimWorkerId } from './worker-id-file.js';
import { JournaledLimiter } from '../api/journaled-limiter.js';
import type { Limiter } from '../api/limiter.js';
import { SqliteStore } from '../store/sqlite-store.js';
import type { Tracing } from '../observe/tracing.js';
import {
  businessNumberOf,
  checkRedisLayout,
  OperationsStartError,
  recordWorkerIdentity,
  stateLabelOf,
  startWorkerTracing,
} from './worker-operations.js';

/** Options of {@link startWorker}. */
export interface StartWorkerOptions {
  /** Where the `listening` lines go (default process.stdout). */
  readonly stdout?: NodeJS.WritableStream;
  /** Default: a winston logger from the config (secrets redacted, `worker` in every record). */
  readonly logger?: Logger;
  /** Lease of the polling leader in ms (default 15,000). */
  readonly leaseMs?: number;
  /**
   * Called when the API, unreachable at start, comes back refusing the key or the URL:
   * the worker cannot work (the CLI prints the line and exits 2). Default: log an error.
   */
  readonly onFatal?: (message: string) => void;
  /** First retry delay of an unreachable API (default 1,000 ms, doubled up to 30 s). */
  readonly apiRetryBaseMs?: number;
  /** The start-up check already made ({@link checkApiAtStart}); default: made here. */
  readonly firstCheck?: ApiCheck;
  /**
   * Where a Redis worker without `--port` and `SWITCHBOARD_WORKER_ID` keeps its worker id
   * slot (see `claimWorkerId`). Default: `workers/` beside the state file's default place,
   * `.switchboard/workers` in the working directory.
   */
  readonly workerIdDir?: string;
  /**
   * Where the `OTEL_*` tracing variables and `SWITCHBOARD_BUSINESS_NUMBER` are read
   * (default `process.env`; see docs/operations.md).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The start-up check of a worker: one read with its key (5 s deadline, no retry, nothing
 * logged). `refused` means the worker must not start.
 * @example
 * const check = await checkApiAtStart(config);
 * if (check.status === 'refused') exit(check.message);
 */
export function checkApiAtStart(config: Pick<RunConfig, 'baseUrl' | 'apiKey'>): Promise<ApiCheck> {
  const client = new MessagingClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    // The outcome is reported once by the caller (or the watch), not per attempt.
    logger: silentLogger,
    timeoutMs: 5_000,
    retry: { maxAttempts: 1 },
  });
  return checkApi(client, config.baseUrl);
}

/** A running `switchboard run` worker. */
export interface RunningWorker {
  /** This worker's name (`workerId()`), the owner of its leases and `worker` in its logs. */
  readonly worker: string;
  readonly bot: Bot;
  /** The worker's logger (secrets redacted). */
  readonly logger: Logger;
  /** Base URL of the callback server, when `--port` was given. */
  readonly url: string | undefined;
  /** Base URL of the operational server, when `--metrics-port` was given. */
  readonly metricsUrl: string | undefined;
  /** True while this worker holds the polling lease. */
  isPollLeader(): boolean;
  /** Marks the worker as draining: `/healthz`, `/readyz` and callbacks answer 503 from now on. */
  drain(): void;
  /** Drains, leaves the polling election, stops the bot (waiting for in-flight work), closes servers and Redis. */
  stop(): Promise<void>;
}

/** Thrown by {@link startWorker} for a problem the operator must fix (exit code 2). */
export class WorkerStartError extends Error {
  override readonly name = 'WorkerStartError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Starts a production worker: store (Redis when `REDIS_URL`, memory with `--memory`,
 * else the SQLite state file), API client
 * with the shared rate limiter, the bot, the polling leader (only one worker of those
 * sharing a Redis prefix polls), metrics, and the HTTP servers. Prints one JSON line per
 * server to `stdout`: `{"message":"listening","role":"callbacks"|"metrics","url",...}`.
 * @example
 * const worker = await startWorker(loaded.bot, config);
 * process.once('SIGTERM', () => void worker.stop());
 */
export async function startWorker(
  resolved: ResolvedBot,
  config: RunConfig,
  options: StartWorkerOptions = {},
): Promise<RunningWorker> {
  // One process per state file: a fixed owner, so a restart takes its leases back at once.
  // With Redis, host:port names one worker (two cannot listen on one port); without a
  // port, a slot claimed in .switchboard/workers (beside the state) keeps a worker's id
  // across restarts, kill -9 included: a restarted worker takes its leases back at once.
  const claimed =
    config.workerId === undefined &&
    config.redisUrl !== undefined &&
    !(config.port !== undefined && config.port > 0)
      ? claimWorkerId(options.workerIdDir ?? workerIdDir(config))
      : undefined;
  const worker =
    config.workerId ??
    claimed?.id ??
    (config.redisUrl === undefined && !config.memory
      ? `local:${hostname()}`
      : config.port !== undefined && config.port > 0
        ? `${hostname()}:${config.port}`
        : workerId());
  const llmKey = (options.env ?? process.env)['LLM_API_KEY'];
  const secrets = [
    config.apiKey,
    ...(config.callbackSecret === undefined ? [] : [config.callbackSecret]),
    ...(config.eventsToken === undefined ? [] : [config.eventsToken]),
    ...(llmKey === undefined || llmKey === '' ? [] : [llmKey]),
  ];
  const logger =
    options.logger ??
    createLogger({
      level: config.logLevel,
      secrets,
      defaultMeta: { worker },
      ...(config.logFormat === undefined ? {} : { format: config.logFormat }),
    });
  // One cheap read before anything else: a wrong key or URL stops the start at once.
  const check = (): Promise<ApiCheck> => checkApiAtStart(config);
  const first = options.firstCheck ?? (await check());
  if (first.status === 'refused') {
    claimed?.release();
    throw new WorkerStartError(first.message);
  }
  const laterRead = deferred<readonly Conversation[]>();
  const redis =
    config.redisUrl === undefined
      ? undefined
      : await openRedis(config.redisUrl, config.redisCluster, logger).catch((error: unknown) => {
          claimed?.release();
          throw error;
        });
  const env = options.env ?? process.env;
  let label: string | undefined;
  try {
    // A newer Redis layout is refused before anything is read or written under the prefix.
    if (redis !== undefined)
      await checkRedisLayout(redis, config.redisPrefix, config.retention, logger);
    label = stateLabelOf(env);
  } catch (error) {
    redis?.disconnect();
    claimed?.release();
    throw startError(error);
  }
  // The model's per-minute call budget is one for every worker on this Redis.
  if (redis !== undefined)
    shareLlmBudget(resolved.understanding?.understander, redis, config.redisPrefix);
  const opened = openStore(config, redis, logger);
  const { limiter, kind } = opened;
  if (opened.store instanceof SqliteStore)
    recordWorkerIdentity(opened.store, config.apiKey, label, logger);
  const { store, counts: storeOperations } = countStoreOperations(opened.store);
  // Bound once the metrics exist (they need the bot, the bot needs the client).
  const apiCalls: { observe?: (call: ApiCall) => void } = {};
  const client = new MessagingClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    logger,
    ...(limiter === undefined ? {} : { limiter }),
    onCall: (call) => apiCalls.observe?.(call),
  });
  const receivesCallbacks = config.port !== undefined && config.callbackSecret !== undefined;
  let tracing: Tracing | undefined;
  let bot: Bot;
  try {
    tracing = await startWorkerTracing(env, logger).catch((error: unknown) => {
      throw startError(error);
    });
    const businessNumber = businessNumberOf(env);
    bot = createBot({
      ...(tracing === undefined ? {} : { tracer: tracing.tracer }),
      ...(businessNumber === undefined ? {} : { businessNumber }),
      flows: resolved.flows,
      handlers: resolved.handlers,
      ...(resolved.entry === undefined ? {} : { entry: resolved.entry }),
      ...(resolved.understanding === undefined ? {} : { understanding: resolved.understanding }),
      ...(resolved.sends === undefined ? {} : { sends: resolved.sends }),
      api: { client },
      store,
      logger,
      backfillMs: config.backfillMs,
      // The key check was the bot's first request: a new number's history line is its page
      // (or, while the API does not answer, the page of the first check that succeeds).
      ...(first.status !== 'ok'
        ? { firstRead: laterRead.promise }
        : first.conversations === undefined
          ? {}
          : { firstRead: first.conversations }),
      dedupTtlMs: config.retention.sendRecordsMs,
      // SWITCHBOARD_JOURNAL_TEXTS=0 keeps message texts out of the journal (docs/inspect.md).
      journal: resolveJournalOptions(undefined, env),
      workerId: worker,
      // Timers and the inbox sweeper every 250 ms: timers fire at most 250 ms late, and work
      // left by another worker is picked up in small steps instead of once-a-second bursts.
      tickMs: 250,
      ...(receivesCallbacks && config.callbackSecret !== undefined
        ? { callbacks: { secret: config.callbackSecret } }
        : {}),
    });
  } catch (error) {
    await tracing?.shutdown();
    await store.close();
    redis?.disconnect();
    claimed?.release();
    throw error;
  }
  const leader =
    config.pollMs === undefined
      ? undefined
      : new PollLeader({
          store,
          bot,
          owner: worker,
          logger,
          ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
          polling: { minIntervalMs: config.pollMs, maxIntervalMs: Math.max(config.pollMs, 30_000) },
        });
  const metrics = createMetrics(bot, {
    isPollLeader: () => leader?.isLeader === true,
    storeOperations,
    probeStore: () => bot.probeStore(),
    oldestWaitingMs: () => oldestWaitingAgeMs(store, Date.now()),
  });
  apiCalls.observe = (call) => metrics.observeApiCall(call);
  let started = false;
  let draining = false;
  const apiWatch = new ApiWatch({
    check,
    logger,
    onReady: async (check) => {
      if (check.conversations !== undefined) laterRead.resolve(check.conversations);
      await leader?.start();
    },
    onRefused: (message) => {
      if (options.onFatal !== undefined) options.onFatal(message);
      else logger.error('the API refuses this worker', { error: message });
    },
    ...(options.apiRetryBaseMs === undefined ? {} : { baseDelayMs: options.apiRetryBaseMs }),
  });
  const readiness = async (): Promise<Readiness> => {
    if (!started) return { status: 'not_ready', reason: 'bot not started' };
    const api = apiWatch.reason;
    if (api !== undefined) return { status: 'not_ready', reason: api };
    // One read through the guarded store: an outage is logged once, not per probe.
    const answers = await withTimeout(bot.probeStore(), 2_000).catch(() => false);
    if (!answers) return { status: 'not_ready', reason: 'store unavailable' };
    // A cluster: every slot's primary answers (a conversation may hash to any of them);
    // Sentinel: the connection is on the primary, not on a demoted one.
    return redis === undefined ? { status: 'ready' } : redisReadiness(redis);
  };
  const servers: Listening[] = [];
  try {
    // Listen first: a busy port stops the start before the bot does anything. Callbacks
    // that arrive before the bot started wait in the inbox; /readyz says not ready.
    const separateOps = config.metricsPort !== undefined;
    const probe = { isDraining: () => draining, readiness };
    if (config.port !== undefined) {
      const app = createRunApp({
        probe: separateOps ? probe : { ...probe, registry: metrics.registry },
        callbacks: { path: config.callbackPath, router: bot.callbackRouter() },
        ...(config.eventsToken === undefined
          ? {}
          : { events: eventsRouter({ bot, token: config.eventsToken, logger }) }),
      });
      servers.push(await listenOrFail(app, config.host, config.port, 'callbacks'));
    }
    if (config.metricsPort !== undefined) {
      const app = createRunApp({ probe: { ...probe, registry: metrics.registry } });
      servers.push(await listenOrFail(app, config.host, config.metricsPort, 'metrics'));
    }
    await bot.start();
    started = true;
    // Polling waits for the API: while it does not answer, one warning per 30 s, not one per poll.
    if (first.status === 'ok') await leader?.start();
    else apiWatch.start(first.message);
  } catch (error) {
    await apiWatch.stop();
    await leader?.stop();
    if (started) await bot.stop();
    await Promise.all(servers.map((s) => closeServer(s.server)));
    await tracing?.shutdown();
    await store.close();
    redis?.disconnect();
    claimed?.release();
    throw error;
  }
  const callbackUrl = config.port === undefined ? undefined : servers[0]?.url;
  const metricsUrl = config.metricsPort === undefined ? undefined : servers.at(-1)?.url;
  const stdout = options.stdout ?? process.stdout;
  const announce = (role: string, url: string | undefined, extra: Record<string, string>): void => {
    if (url !== undefined)
      stdout.write(
        `${JSON.stringify({ message: 'listening', role, url, worker, pid: process.pid, ...extra })}\n`,
      );
  };
  announce('callbacks', callbackUrl, { callbacks: `${callbackUrl ?? ''}${config.callbackPath}` });
  announce('metrics', metricsUrl, {});
  logger.info('switchboard running', {
    bot: resolved.source,
    store: kind,
    polling: config.pollMs === undefined ? 'off' : `${config.pollMs}ms (leader election)`,
    callbacks: callbackUrl === undefined ? 'off' : `${callbackUrl}${config.callbackPath}`,
    metrics: metricsUrl ?? callbackUrl ?? 'off',
  });
  let stopping: Promise<void> | undefined;
  const drain = (): void => {
    if (!draining) logger.info('draining: health and callbacks answer 503');
    draining = true;
  };
  return {
    worker,
    bot,
    logger,
    url: callbackUrl,
    metricsUrl,
    isPollLeader: () => leader?.isLeader === true,
    drain,
    stop() {
      drain();
      stopping ??= (async () => {
        await apiWatch.stop();
        await leader?.stop();
        await bot.stop();
        await Promise.all(servers.map((s) => closeServer(s.server)));
        metrics.dispose();
        // The spans of the last work are exported before the process ends.
        await tracing?.shutdown();
        await store.close();
        await redis?.quit();
        claimed?.release();
        logger.info('stopped');
      })();
      return stopping;
    },
  };
}

/**
 * The store of a worker: Redis when `REDIS_URL` is set (several workers), memory with
 * `--memory`, else the embedded SQLite state file, whose budget journal keeps the recent
 * use of the rate budgets across restarts (the API counts the key's traffic).
 */
function openStore(
  config: RunConfig,
  redis: RedisClient | undefined,
  logger: Logger,
): { store: Store; limiter: Limiter | undefined; kind: string } {
  if (redis !== undefined) {
    return {
      store: new RedisStore({
        redis,
        prefix: config.redisPrefix,
        retention: config.retention,
        ...(config.redisDurability === undefined ? {} : { durability: config.redisDurability }),
      }),
      limiter: new RedisLimiter({ redis, prefix: config.redisPrefix }),
      kind: 'redis',
    };
  }
  if (config.memory)
    return {
      store: new MemoryStore({ retention: config.retention }),
      limiter: undefined,
      kind: 'memory',
    };
  const path = config.statePath ?? join('.switchboard', 'state.db');
  const store = new SqliteStore({
    path,
    retention: config.retention,
    onCheckpointError: (message) => logger.warn(message),
  });
  const limiter = JournaledLimiter.open(store.budgetJournal());
  return { store, limiter, kind: `sqlite ${path}` };
}

/** An operations setting the operator must fix, as the worker's start error (exit code 2). */
function startError(error: unknown): unknown {
  return error instanceof OperationsStartError
    ? new WorkerStartError(error.message, { cause: error })
    : error;
}

async function openRedis(url: string, cluster: boolean, logger: Logger): Promise<RedisClient> {
  // Without a listener ioredis prints "Unhandled error event" on every failed reconnect;
  // the guarded store logs an outage once (and its end).
  let reported = false;
  try {
    // Auto-pipelining (the factory's default): the commands of one event-loop turn (many
    // conversations at once) leave in one socket write (a fifth of a worker's CPU under load).
    const redis = await connectRedis(url, {
      cluster,
      onError: (error) => {
        if (!reported) logger.debug('redis connection error', { error: error.message });
        reported = true;
      },
    });
    redis.on('ready', () => (reported = false));
    logger.debug('redis connected', { redis: describeTarget(parseRedisUrl(url, { cluster })) });
    return redis;
  } catch (error) {
    throw new WorkerStartError(
      `cannot connect to REDIS_URL: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

async function listenOrFail(
  app: Parameters<typeof listenOn>[0],
  host: string,
  port: number,
  role: string,
): Promise<Listening> {
  try {
    return await listenOn(app, host, port);
  } catch (error) {
    const flag = role === 'metrics' ? '--metrics-port' : '--port';
    const line = listenFailure(error, { port, host, flag });
    if (line !== undefined) throw new WorkerStartError(line, { cause: error });
    throw new WorkerStartError(
      `cannot listen on ${host}:${port} (${role}): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** Where the worker id slots live: beside the state file (`.switchboard/workers` by default). */
function workerIdDir(config: RunConfig): string {
  return join(dirname(config.statePath ?? join('.switchboard', 'state.db')), 'workers');
}

/** A promise and its resolve function. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
