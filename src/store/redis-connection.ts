import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisClient } from './redis-script.js';
import { parseRedisUrl, type ParseRedisUrlOptions, type RedisTarget } from './redis-url.js';

/** Options of {@link createRedisClient} and {@link connectRedis}. */
export interface RedisConnectionOptions extends ParseRedisUrlOptions {
  /** Send the commands of one event-loop turn in one write (default true). */
  readonly autoPipelining?: boolean;
  /** Attempts of a command across reconnections (default 3; cluster: redirections 16). */
  readonly maxRetriesPerRequest?: number;
  /** Called on connection errors (ioredis otherwise prints "Unhandled error event"). */
  readonly onError?: (error: Error) => void;
  /** More ioredis options for a single node or Sentinel client (merged last). */
  readonly redisOptions?: RedisOptions;
  /** More ioredis `Cluster` options, e.g. `natMap` (merged last). */
  readonly clusterOptions?: ClusterOptions;
}

/**
 * A Redis client for a `REDIS_URL` in any of its forms ({@link parseRedisUrl}): `Redis` for
 * one node, `Cluster` for a cluster, `Redis` with `sentinels` for a Sentinel-managed
 * primary. Not connected yet (`lazyConnect`); see {@link connectRedis}. Every Redis user of
 * `switchboard` (store, limiter, leases, CLI commands) builds its client here.
 * @throws {RedisUrlError} for a malformed URL, naming the part.
 * @example
 * const redis = createRedisClient('redis+cluster://127.0.0.1:7000,127.0.0.1:7001');
 * await redis.connect();
 */
export function createRedisClient(url: string, options: RedisConnectionOptions = {}): RedisClient {
  return clientFor(parseRedisUrl(url, options), options);
}

/**
 * {@link createRedisClient}, connected and ready (a cluster: its slot map loaded and
 * `cluster_state:ok`). Rejects with a message naming the URL's kind when it cannot connect
 * within `timeoutMs` (default 10 s); the client is closed then.
 * @example
 * const redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 */
export async function connectRedis(
  url: string,
  options: RedisConnectionOptions & { readonly timeoutMs?: number } = {},
): Promise<RedisClient> {
  const target = parseRedisUrl(url, options);
  const client = clientFor(target, options);
  const timeoutMs = options.timeoutMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return client;
  } catch (error) {
    client.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot connect to the ${describeTarget(target)}: ${reason}`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

/** A short description of a target for logs and errors (no password). */
export function describeTarget(target: RedisTarget): string {
  if (target.kind === 'single') return 'Redis node of REDIS_URL';
  if (target.kind === 'cluster')
    return `Redis Cluster (seeds ${target.seeds.map((s) => `${s.host}:${s.port}`).join(', ')})`;
  return `Sentinel master "${target.name}" (sentinels ${target.sentinels.map((s) => `${s.host}:${s.port}`).join(', ')})`;
}

/** After a failover a connection may still reach the demoted node: reconnect and resend. */
function reconnectOnReadonly(error: Error): 2 | false {
  return error.message.startsWith('READONLY') ? 2 : false;
}

function clientFor(target: RedisTarget, options: RedisConnectionOptions): RedisClient {
  const common = {
    lazyConnect: true,
    enableAutoPipelining: options.autoPipelining ?? true,
  } as const;
  let client: RedisClient;
  if (target.kind === 'cluster') {
    const auth = {
      ...(target.username === undefined ? {} : { username: target.username }),
      ...(target.password === undefined ? {} : { password: target.password }),
      ...(target.tls ? { tls: {} } : {}),
    };
    client = new Cluster(
      target.seeds.map((s) => ({ host: s.host, port: s.port })),
      {
        ...common,
        // Reads go to primaries too: a version check must see the write before it.
        scaleReads: 'master',
        // A failover takes a few node timeouts: keep retrying a command meanwhile
        // (32 redirections of 300 ms: about 10 s before a command fails).
        maxRedirections: 32,
        retryDelayOnClusterDown: 300,
        retryDelayOnFailover: 200,
        retryDelayOnTryAgain: 200,
        slotsRefreshTimeout: 2_000,
        redisOptions: { ...auth, reconnectOnError: reconnectOnReadonly, ...options.redisOptions },
        ...options.clusterOptions,
      },
    );
  } else {
    const base: RedisOptions = {
      ...common,
      maxRetriesPerRequest: options.maxRetriesPerRequest ?? 3,
      reconnectOnError: reconnectOnReadonly,
    };
    client =
      target.kind === 'single'
        ? new Redis(target.url, { ...base, ...options.redisOptions })
        : new Redis({
            ...base,
            sentinels: target.sentinels.map((s) => ({ host: s.host, port: s.port })),
            name: target.name,
            db: target.db,
            // Reconnect to the new primary as soon as a Sentinel announces +switch-master.
            failoverDetector: true,
            ...(target.username === undefined ? {} : { username: target.username }),
            ...(target.password === undefined ? {} : { password: target.password }),
            ...(target.sentinelPassword === undefined
              ? {}
              : { sentinelPassword: target.sentinelPassword }),
            ...(target.tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
            ...options.redisOptions,
          });
  }
  client.on('error', (error: Error) => options.onError?.(error));
  return client;
}
