import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/** A Redis client the Redis adapters accept: a single node or a cluster. */
export type RedisClient = Redis | Cluster;

/**
 * A Lua script run with EVALSHA, falling back to EVAL when the server does not have it
 * cached yet (what ioredis' `defineCommand` does internally, but typed, and without adding
 * untyped methods to an injected client).
 * @example
 * const incr = new RedisScript('return redis.call("INCR", KEYS[1])');
 * const n = await incr.run(redis, ['counter'], []);
 */
export class RedisScript {
  readonly lua: string;
  readonly sha: string;

  constructor(lua: string) {
    this.lua = lua;
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  /** Runs the script; the reply is unknown until the caller validates it. */
  async run(
    redis: RedisClient,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}

/** The client as a `Cluster` when it is one (ioredis' `isCluster` does not narrow the type). */
export function asCluster(client: RedisClient): Cluster | undefined {
  return client.isCluster ? (client as Cluster) : undefined;
}
