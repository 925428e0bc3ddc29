import { RedisStore } from '../../store/redis-store.js';
import { connectRedis, describeTarget } from '../../store/redis-connection.js';
import { layoutKey, REDIS_LAYOUT_VERSION } from '../../store/redis-layout.js';
import { parseRedisUrl, RedisUrlError } from '../../store/redis-url.js';
import { SqliteStateReader, StateFileReadError } from '../../store/sqlite-reader.js';
import type { AttachReader } from './attach-source.js';
import { readOnlyStore } from './read-only-store.js';

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
  /** The store's reads behind {@link readOnlyStore}: every write rejects before reaching it. */
  readonly reader: AttachReader;
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
 * `RedisStore`. SQLite: the journal contract's `SqliteStateReader`, which takes no holder
 * record and reads beside the running bot.
 */
export async function openAttachedStore(target: AttachTarget): Promise<AttachedStore> {
  if (target.kind === 'sqlite') {
    let file: SqliteStateReader;
    try {
      file = new SqliteStateReader(target.path);
    } catch (error) {
      if (error instanceof StateFileReadError)
        throw new AttachStoreError(
          `${error.message} (pass --state <file> or set STATE_PATH to the file \`switchboard run\` uses, or REDIS_URL for Redis)`,
        );
      throw error;
    }
    return {
      reader: readOnlyStore(file),
      description: `SQLite state file ${target.path}`,
      close: () => file.close(),
    };
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
      : new AttachStoreError(
          `cannot read the ${where}: ${error instanceof Error ? error.message : String(error)}`,
        );
  }
  return {
    reader: readOnlyStore(new RedisStore({ redis, prefix: target.prefix })),
    description: `${where}, prefix ${target.prefix}`,
    close: async () => {
      redis.disconnect();
      await Promise.resolve();
    },
  };
}
