import { RedisStore } from '../../store/redis-store.js';
import { connectRedis, describeTarget } from '../../store/redis-connection.js';
import { layoutKey, REDIS_LAYOUT_VERSION } from '../../store/redis-layout.js';
import { parseRedisUrl, RedisUrlError } from '../../store/redis-url.js';
import type { Store } from '../../store/store.js';
import { readOnlyStore } from './read-only-store.js';
import { openStateFileReadOnly, StateFileAttachError } from './sqlite-read-adapter.js';

/** Where the production state lives: Redis (`REDIS_URL`) or the SQLite state file. */
export type AttachTarget =
  | {
      readonly kind: 'redis';
      readonly url: string;
      readonly cluster: boolean;
      readonly prefix: string;
    }
  | { readonly kind: 'sqlite'; readonly path: string };

/** Outcome of {@link resolveAttachTarget}: a target, or one line saying what to fix. */
export type AttachTargetResult =
  | { readonly status: 'ok'; readonly target: AttachTarget }
  | { readonly status: 'invalid'; readonly message: string };

/**
 * The store `switchboard run` would use, resolved the same way (src/cli/run-config.ts):
 * `REDIS_URL` (with `REDIS_CLUSTER`, `REDIS_PREFIX`), else `--state`, else `STATE_PATH`,
 * else `defaultPath` (`.switchboard/state.db` beside the bot). No API variable is read:
 * the attached studio has no API client.
 */
export function resolveAttachTarget(
  flags: { readonly state?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
  defaultPath: string,
): AttachTargetResult {
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const invalid = (message: string): AttachTargetResult => ({ status: 'invalid', message });
  const redisUrl = value('REDIS_URL');
  const clusterFlag = value('REDIS_CLUSTER');
  if (clusterFlag !== undefined && !['0', '1', 'true', 'false'].includes(clusterFlag))
    return invalid(`REDIS_CLUSTER "${clusterFlag}" must be 1 or 0`);
  const cluster = clusterFlag === '1' || clusterFlag === 'true';
  if (redisUrl !== undefined) {
    if (flags.state !== undefined)
      return invalid('REDIS_URL is set: state lives in Redis; drop --state, or unset REDIS_URL');
    try {
      parseRedisUrl(redisUrl, { cluster });
    } catch (error) {
      if (error instanceof RedisUrlError) return invalid(error.message);
      throw error;
    }
    return {
      status: 'ok',
      target: {
        kind: 'redis',
        url: redisUrl,
        cluster,
        prefix: value('REDIS_PREFIX') ?? 'switchboard:',
      },
    };
  }
  return {
    status: 'ok',
    target: { kind: 'sqlite', path: flags.state ?? value('STATE_PATH') ?? defaultPath },
  };
}

/** A store opened for the attached studio: reads only. */
export interface AttachedStore {
  /** The store behind {@link readOnlyStore}: every write rejects before reaching it. */
  readonly store: Store;
  /** What the page says it is attached to (no password, no secret). */
  readonly description: string;
  close(): Promise<void>;
}

/** The store cannot be attached to: what and where, and how to fix it. */
export class AttachStoreError extends Error {
  override readonly name = 'AttachStoreError';
}

/**
 * Opens the target for reading only. Redis: connects, refuses a layout newer than this
 * code (an older one is read as it is: attaching never migrates), and wraps a
 * `RedisStore`. SQLite: a query-only connection beside the running bot.
 */
export async function openAttachedStore(target: AttachTarget): Promise<AttachedStore> {
  if (target.kind === 'sqlite') {
    try {
      const file = openStateFileReadOnly(target.path);
      return {
        store: readOnlyStore(file),
        description: `SQLite state file ${target.path}`,
        close: () => file.close(),
      };
    } catch (error) {
      if (error instanceof StateFileAttachError) throw new AttachStoreError(error.message);
      throw error;
    }
  }
  const where = describeTarget(parseRedisUrl(target.url, { cluster: target.cluster }));
  const redis = await connectRedis(target.url, { cluster: target.cluster }).catch(
    (error: unknown) => {
      throw new AttachStoreError(error instanceof Error ? error.message : String(error));
    },
  );
  try {
    const raw = await redis.get(layoutKey(target.prefix));
    if (raw !== null && Number(raw) > REDIS_LAYOUT_VERSION)
      throw new AttachStoreError(
        `Redis prefix "${target.prefix}" has layout version ${raw}; this switchboard knows ${REDIS_LAYOUT_VERSION}: upgrade switchboard`,
      );
  } catch (error) {
    redis.disconnect();
    throw error instanceof AttachStoreError
      ? error
      : new AttachStoreError(`cannot read the ${where}: ${String(error)}`);
  }
  return {
    store: readOnlyStore(new RedisStore({ redis, prefix: target.prefix })),
    description: `${where}, prefix ${target.prefix}`,
    close: async () => {
      redis.disconnect();
      await Promise.resolve();
    },
  };
}
