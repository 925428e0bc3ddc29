import { parseDuration } from '../core/duration.js';
import { parseRedisUrl, RedisUrlError } from '../store/redis-url.js';
import type { RedisDurability } from '../store/redis-wait.js';

/** Production configuration of `switchboard run`, from flags and the environment. */
export interface RunConfig {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Poll interval in ms, when polling. */
  readonly pollMs: number | undefined;
  /** Callback port, when receiving callbacks. */
  readonly port: number | undefined;
  /** Port of a server with only `/healthz`, `/readyz` and `/metrics`, when set. */
  readonly metricsPort: number | undefined;
  readonly host: string;
  readonly callbackPath: string;
  readonly callbackSecret: string | undefined;
  /** Bearer token of `POST /events` (enables it, on `--port`). */
  readonly eventsToken: string | undefined;
  /** `REDIS_URL`: one node, a cluster or a Sentinel primary (docs/scaling.md). */
  readonly redisUrl: string | undefined;
  /** `REDIS_CLUSTER=1`: a single `redis://` URL names a cluster seed. */
  readonly redisCluster: boolean;
  /** `REDIS_WAIT_REPLICAS` (and `REDIS_WAIT_TIMEOUT`): replicas that must hold key writes. */
  readonly redisDurability: RedisDurability | undefined;
  readonly redisPrefix: string;
  /**
   * The embedded state file (without `REDIS_URL` and `--memory`): `--state`, else
   * `STATE_PATH`, else undefined (then `.switchboard/state.db` beside the bot).
   */
  readonly statePath: string | undefined;
  /** `--memory`: an explicit throwaway store (state is lost on exit). */
  readonly memory: boolean;
  /** `--backfill`: answer unanswered messages this much older than the first start. */
  readonly backfillMs: number;
  /** `SWITCHBOARD_WORKER_ID`: a stable owner name for this worker's leases. */
  readonly workerId: string | undefined;
  /**
   * `RETENTION_SENDS` (default 7d: dedup marks and send records, covering the API's
   * redelivery) and `RETENTION_IDLE` (default 30d: idle conversation documents).
   */
  readonly retention: { readonly sendRecordsMs: number; readonly idleConversationMs: number };
  readonly logLevel: 'error' | 'warn' | 'info' | 'debug' | 'silent';
  readonly logFormat: 'json' | 'pretty' | undefined;
}

/** Flags of `switchboard run`. */
export interface RunFlags {
  readonly poll?: string;
  readonly port?: string;
  readonly metricsPort?: string;
  readonly host?: string;
  readonly path?: string;
  readonly state?: string;
  readonly memory?: boolean;
  readonly backfill?: string;
}

/** Outcome of {@link parseRunConfig}: a config, or one line saying what to fix. */
export type RunConfigResult =
  | { readonly status: 'ok'; readonly config: RunConfig }
  | { readonly status: 'invalid'; readonly message: string };

const LEVELS = ['error', 'warn', 'info', 'debug', 'silent'] as const;
const FORMATS = ['json', 'pretty'] as const;

/**
 * Reads `MESSAGING_API_BASE_URL`, `MESSAGING_API_KEY`, `CALLBACK_SECRET`, `REDIS_URL`,
 * `REDIS_PREFIX`, `STATE_PATH`, `SWITCHBOARD_WORKER_ID`, `RETENTION_SENDS`, `RETENTION_IDLE`, `LOG_LEVEL`, `LOG_FORMAT` and
 * the flags; the first problem found is
 * reported on one line.
 */
export function parseRunConfig(
  flags: RunFlags,
  env: Readonly<Record<string, string | undefined>>,
): RunConfigResult {
  const invalid = (message: string): RunConfigResult => ({ status: 'invalid', message });
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const baseUrl = value('MESSAGING_API_BASE_URL');
  if (baseUrl === undefined)
    return invalid(
      'MESSAGING_API_BASE_URL is not set; set it to the API base URL, e.g. https://api.example.com',
    );
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    return invalid(`MESSAGING_API_BASE_URL "${baseUrl}" is not an http(s) URL`);
  }
  const apiKey = value('MESSAGING_API_KEY');
  if (apiKey === undefined)
    return invalid('MESSAGING_API_KEY is not set; set it to the API key of your business number');
  if (flags.poll === undefined && flags.port === undefined) {
    return invalid(
      'nothing to receive messages with: pass --poll <interval> (e.g. --poll 2s) and/or --port <n> for callbacks',
    );
  }
  let pollMs: number | undefined;
  if (flags.poll !== undefined) {
    const d = parseDuration(flags.poll);
    if (d.status === 'invalid' || d.ms < 100)
      return invalid(`--poll "${flags.poll}" must be a duration of at least 100ms, e.g. 2s`);
    pollMs = d.ms;
  }
  const portOf = (flag: string, raw: string | undefined): number | undefined | string => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    return /^\d+$/.test(raw) && n <= 65_535 ? n : `${flag} "${raw}" must be an integer 0..65535`;
  };
  const port = portOf('--port', flags.port);
  if (typeof port === 'string') return invalid(port);
  const metricsPort = portOf('--metrics-port', flags.metricsPort);
  if (typeof metricsPort === 'string') return invalid(metricsPort);
  const callbackSecret = value('CALLBACK_SECRET');
  if (port !== undefined && callbackSecret === undefined)
    return invalid(
      'CALLBACK_SECRET is not set; callbacks (--port) need the signing secret shared with the API',
    );
  const eventsToken = value('EVENTS_TOKEN');
  if (eventsToken !== undefined && port === undefined)
    return invalid('EVENTS_TOKEN is set but there is no --port to serve POST /events on');
  if (eventsToken !== undefined && eventsToken.length < 16)
    return invalid('EVENTS_TOKEN must be at least 16 characters (use a random secret)');
  const logLevel = value('LOG_LEVEL') ?? 'info';
  const level = LEVELS.find((l) => l === logLevel);
  if (level === undefined)
    return invalid(`LOG_LEVEL "${logLevel}" must be one of ${LEVELS.join(', ')}`);
  const logFormat = value('LOG_FORMAT');
  const format = FORMATS.find((f) => f === logFormat);
  if (logFormat !== undefined && format === undefined)
    return invalid(`LOG_FORMAT "${logFormat}" must be json or pretty`);
  const redisUrl = value('REDIS_URL');
  const clusterFlag = value('REDIS_CLUSTER');
  if (clusterFlag !== undefined && !['0', '1', 'true', 'false'].includes(clusterFlag))
    return invalid(`REDIS_CLUSTER "${clusterFlag}" must be 1 or 0`);
  const redisCluster = clusterFlag === '1' || clusterFlag === 'true';
  if (redisUrl !== undefined) {
    try {
      parseRedisUrl(redisUrl, { cluster: redisCluster });
    } catch (error) {
      if (error instanceof RedisUrlError) return invalid(error.message);
      throw error;
    }
  }
  const durability = redisDurabilityOf(value('REDIS_WAIT_REPLICAS'), value('REDIS_WAIT_TIMEOUT'));
  if (typeof durability === 'string') return invalid(durability);
  if (durability !== undefined && redisUrl === undefined)
    return invalid('REDIS_WAIT_REPLICAS is set but REDIS_URL is not: it applies to Redis only');
  const statePath = flags.state ?? value('STATE_PATH');
  const memory = flags.memory === true;
  if (memory && statePath !== undefined)
    return invalid('--memory and --state (or STATE_PATH) exclude each other: choose one store');
  if (redisUrl !== undefined && (memory || statePath !== undefined))
    return invalid(
      `REDIS_URL is set: state lives in Redis; drop ${memory ? '--memory' : flags.state !== undefined ? '--state' : 'STATE_PATH'}, or unset REDIS_URL`,
    );
  const retention = { sendRecordsMs: 7 * 86_400_000, idleConversationMs: 30 * 86_400_000 };
  for (const [name, field] of [
    ['RETENTION_SENDS', 'sendRecordsMs'],
    ['RETENTION_IDLE', 'idleConversationMs'],
  ] as const) {
    const raw = value(name);
    if (raw === undefined) continue;
    const d = parseDuration(raw);
    if (d.status === 'invalid' || d.ms < 3_600_000)
      return invalid(`${name} "${raw}" must be a duration of at least 1h, e.g. 7d`);
    retention[field] = d.ms;
  }
  let backfillMs = 0;
  if (flags.backfill !== undefined) {
    const d = parseDuration(flags.backfill);
    if (d.status === 'invalid')
      return invalid(`--backfill "${flags.backfill}" must be a duration, e.g. 2h`);
    backfillMs = d.ms;
  }
  return {
    status: 'ok',
    config: {
      baseUrl,
      apiKey,
      pollMs,
      port,
      metricsPort,
      host: flags.host ?? '0.0.0.0',
      callbackPath: flags.path ?? '/callbacks',
      callbackSecret,
      eventsToken,
      redisUrl,
      redisCluster,
      redisDurability: durability,
      redisPrefix: value('REDIS_PREFIX') ?? 'switchboard:',
      statePath,
      memory,
      backfillMs,
      workerId: value('SWITCHBOARD_WORKER_ID'),
      retention,
      logLevel: level,
      logFormat: format,
    },
  };
}

/** `REDIS_WAIT_REPLICAS` (0..5, 0 = off) and `REDIS_WAIT_TIMEOUT` (default 1s, at most 60s). */
function redisDurabilityOf(
  replicas: string | undefined,
  timeout: string | undefined,
): RedisDurability | undefined | string {
  if (replicas === undefined) {
    return timeout === undefined
      ? undefined
      : 'REDIS_WAIT_TIMEOUT is set without REDIS_WAIT_REPLICAS (the number of replicas to wait for)';
  }
  if (!/^[0-5]$/.test(replicas)) return `REDIS_WAIT_REPLICAS "${replicas}" must be an integer 0..5`;
  if (replicas === '0') return undefined;
  let timeoutMs = 1_000;
  if (timeout !== undefined) {
    const d = parseDuration(timeout);
    if (d.status === 'invalid' || d.ms < 1 || d.ms > 60_000)
      return `REDIS_WAIT_TIMEOUT "${timeout}" must be a duration from 1ms to 60s, e.g. 500ms`;
    timeoutMs = d.ms;
  }
  return { replicas: Number(replicas), timeoutMs };
}
