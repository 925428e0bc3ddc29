import { watch, type FSWatcher } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Router } from 'express';
import { JournaledLimiter } from '../api/journaled-limiter.js';
import type { Limiter } from '../api/limiter.js';
import { MemoryLimiter } from '../api/memory-limiter.js';
import { RedisLimiter } from '../api/redis-limiter.js';
import { loadBot } from '../bot/load-bot.js';
import { DeploymentRunner } from '../deploy/deployment-runner.js';
import { formatDeploymentIssue, loadDeploymentFile } from '../deploy/load-deployment-file.js';
import { workerId as randomWorkerId } from '../engine/worker-id.js';
import { createLogger, type Logger } from '../log/logger.js';
import { createMetrics, type BotMetrics } from '../metrics/create-metrics.js';
import { MemoryStore } from '../store/memory-store.js';
import { RedisStore } from '../store/redis-store.js';
import { SqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/store.js';
import { createDeploymentApp } from './deployment-app.js';
import type { RunConfig } from './run-config.js';
import { closeServer, listenOn, type Listening } from './run-server.js';
import { WorkerStartError } from './run-worker.js';
import { connectRedis } from '../store/redis-connection.js';

/** The parts of the run configuration a deployment uses (keys come from its file). */
export type DeploymentConfig = Pick<
  RunConfig,
  | 'baseUrl'
  | 'port'
  | 'metricsPort'
  | 'host'
  | 'redisUrl'
  | 'redisCluster'
  | 'redisPrefix'
  | 'memory'
  | 'workerId'
  | 'retention'
  | 'logLevel'
  | 'logFormat'
> & {
  /** The directory of the per-number state files (default `.switchboard/` beside the file). */
  readonly stateDir: string | undefined;
};

/** Options of {@link startDeployment}. */
export interface StartDeploymentOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stdout?: NodeJS.WritableStream;
  /** Logs go here (default stderr). */
  readonly logStream?: NodeJS.WritableStream;
  /** Reload when the file changes (default true). */
  readonly watchFile?: boolean;
  /** Timings of each number (tests shorten them). */
  readonly unit?: { leaseMs?: number; retryBaseMs?: number; recheckMs?: number };
}

/** A running deployment. */
export interface RunningDeployment {
  readonly runner: DeploymentRunner;
  readonly logger: Logger;
  /** Base URL of the callback server, when `--port` was given. */
  readonly url: string | undefined;
  readonly metricsUrl: string | undefined;
  /** Reads the file again and applies it; a file with errors changes nothing (logged). */
  reload(): Promise<void>;
  drain(): void;
  stop(): Promise<void>;
}

/**
 * Starts every number of a deployment file in this process: one store namespace per
 * number (a SQLite file `<id>.db` in the state directory, a Redis key prefix
 * `<REDIS_PREFIX><id>:`, or memory), one limiter for all (the workspace budget is shared;
 * in Redis, by every worker with the same `REDIS_PREFIX`), one HTTP app routing callbacks
 * by path, and reloads of the file (SIGHUP or a change of the file).
 * @example
 * const d = await startDeployment('switchboard.deploy.yaml', config);
 */
export async function startDeployment(
  file: string,
  config: DeploymentConfig,
  options: StartDeploymentOptions = {},
): Promise<RunningDeployment> {
  const env = options.env ?? process.env;
  const first = await loadDeploymentFile(file);
  if (first.status === 'error')
    throw new WorkerStartError(first.issues.map(formatDeploymentIssue).join('\n'));
  const worker =
    config.workerId ??
    (config.redisUrl === undefined && !config.memory
      ? `local:${hostname()}`
      : config.port !== undefined && config.port > 0
        ? `${hostname()}:${config.port}`
        : randomWorkerId());
  const makeLogger = (meta: Record<string, unknown>, secrets: readonly string[]): Logger =>
    createLogger({
      level: config.logLevel,
      secrets,
      defaultMeta: { worker, ...meta },
      ...(config.logFormat === undefined ? {} : { format: config.logFormat }),
      ...(options.logStream === undefined ? {} : { stream: options.logStream }),
    });
  const logger = makeLogger({ deployment: first.file }, []);
  const redis =
    config.redisUrl === undefined
      ? undefined
      : await connectRedis(config.redisUrl, {
          cluster: config.redisCluster,
          onError: (error) => logger.debug('redis connection error', { error: error.message }),
        }).catch((error: unknown) => {
          throw new WorkerStartError(error instanceof Error ? error.message : String(error), {
            cause: error,
          });
        });
  const stateDir = config.stateDir ?? join(dirname(first.file), '.switchboard');
  let budgetStore: SqliteStore | undefined;
  let limiter: Limiter;
  if (redis !== undefined) limiter = new RedisLimiter({ redis, prefix: config.redisPrefix });
  else if (config.memory) limiter = new MemoryLimiter();
  else {
    // The shared budget's recent use survives a restart (the API counts it, not us).
    budgetStore = new SqliteStore({ path: join(stateDir, 'workspace-budgets.db') });
    limiter = JournaledLimiter.open(budgetStore.budgetJournal());
  }
  const openStore = (id: string): Store => {
    const retention = config.retention;
    if (redis !== undefined)
      return new RedisStore({ redis, prefix: `${config.redisPrefix}${id}:`, retention });
    if (config.memory) return new MemoryStore({ retention });
    return new SqliteStore({
      path: join(stateDir, `${id}.db`),
      retention,
      onCheckpointError: (message) => logger.warn(message, { number: id }),
    });
  };
  // Metrics: process metrics and each number's up/down once; every bot's own, labelled.
  const ops = new Registry();
  collectDefaultMetrics({ register: ops });
  const metrics = new Map<string, BotMetrics>();
  new Gauge({
    name: 'switchboard_number_up',
    help: 'Whether a number of the deployment answers (1), or its key or number fails (0)',
    labelNames: ['number', 'state'] as const,
    registers: [ops],
    collect() {
      this.reset();
      for (const { id, status } of runner?.statuses() ?? [])
        this.set({ number: id, state: status.state }, status.state === 'running' ? 1 : 0);
    },
  });
  function syncMetrics(): void {
    const live = new Map(runner?.numbers().map((n) => [n.id, n.unit]) ?? []);
    for (const [id, m] of metrics) {
      if (live.get(id) === undefined) {
        m.dispose();
        metrics.delete(id);
      }
    }
    for (const [id, unit] of live) {
      if (metrics.has(id)) continue;
      const registry = new Registry();
      registry.setDefaultLabels({ number: id });
      metrics.set(
        id,
        createMetrics(unit.bot, {
          registry,
          processMetrics: false,
          isPollLeader: () => unit.isPollLeader(),
        }),
      );
    }
  }
  const runner: DeploymentRunner = new DeploymentRunner({
    baseUrl: config.baseUrl,
    env,
    limiter,
    openStore,
    loadBot,
    loggerFor: (id, secrets) => makeLogger({ number: id }, secrets),
    logger,
    workerId: worker,
    dedupTtlMs: config.retention.sendRecordsMs,
    ...(options.unit === undefined ? {} : { unit: options.unit }),
    onChange: () => syncMetrics(),
  });
  let draining = false;
  const callbacks = (): ReadonlyMap<string, Router> =>
    new Map(
      (runner?.numbers() ?? []).flatMap((n) =>
        n.spec.callbackPath === undefined
          ? []
          : [[n.spec.callbackPath, n.unit.bot.callbackRouter()]],
      ),
    );
  const registries = (): Registry[] => [ops, ...[...metrics.values()].map((m) => m.registry)];
  const base = { isDraining: () => draining, statuses: () => runner?.statuses() ?? [] };
  const servers: Listening[] = [];
  const closeAll = async (): Promise<void> => {
    await Promise.all(servers.map((s) => closeServer(s.server)));
    await budgetStore?.close();
    await redis?.quit();
  };
  try {
    if (config.port !== undefined) {
      const app = createDeploymentApp({
        ...base,
        callbacks,
        ...(config.metricsPort === undefined ? { registries } : {}),
      });
      servers.push(await listenOn(app, config.host, config.port));
    }
    if (config.metricsPort !== undefined) {
      const app = createDeploymentApp({ ...base, callbacks: () => new Map(), registries });
      servers.push(await listenOn(app, config.host, config.metricsPort));
    }
    await runner.apply(first.deployment);
  } catch (error) {
    await runner.stop().catch(() => undefined);
    await closeAll();
    throw error instanceof WorkerStartError
      ? error
      : new WorkerStartError(String(error instanceof Error ? error.message : error), {
          cause: error,
        });
  }
  const url = config.port === undefined ? undefined : servers[0]?.url;
  const metricsUrl = config.metricsPort === undefined ? undefined : servers.at(-1)?.url;
  const stdout = options.stdout ?? process.stdout;
  for (const [role, at] of [
    ['callbacks', url],
    ['metrics', metricsUrl],
  ] as const) {
    if (at !== undefined)
      stdout.write(
        `${JSON.stringify({ message: 'listening', role, url: at, worker, pid: process.pid })}\n`,
      );
  }
  const reload = async (): Promise<void> => {
    const next = await loadDeploymentFile(file);
    if (next.status === 'error') {
      logger.error('deployment file has errors; nothing changed', {
        errors: next.issues.map(formatDeploymentIssue),
      });
      return;
    }
    try {
      await runner.apply(next.deployment);
    } catch (error) {
      logger.error('deployment reload refused; nothing changed', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  let watcher: FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  if (options.watchFile ?? true) {
    // The directory, not the file: editors replace files (a new inode) when they save.
    watcher = watch(dirname(first.file), (_event, name) => {
      if (name !== null && join(dirname(first.file), name) !== first.file) return;
      clearTimeout(debounce);
      debounce = setTimeout(() => void reload(), 200);
    });
    watcher.unref();
  }
  let stopping: Promise<void> | undefined;
  return {
    runner,
    logger,
    url,
    metricsUrl,
    reload,
    drain: () => (draining = true),
    stop() {
      draining = true;
      stopping ??= (async () => {
        watcher?.close();
        clearTimeout(debounce);
        await runner.stop();
        for (const m of metrics.values()) m.dispose();
        await closeAll();
        logger.info('stopped');
      })();
      return stopping;
    },
  };
}
