/**
 * The store `switchboard inspect` and `switchboard conversations` read, opened read-only:
 * Redis when `REDIS_URL` is set (single node, `redis+cluster://`, `redis+sentinel://`;
 * keys under `REDIS_PREFIX`), else the SQLite state file (`--state`, `STATE_PATH`, or
 * `.switchboard/state.db`) through {@link SqliteStateReader}. Neither writes anything.
 */
import { join } from 'node:path';
import type { ConversationReader } from '../journal/conversation-view.js';
import { connectRedis } from '../store/redis-connection.js';
import { RedisStore } from '../store/redis-store.js';
import { SqliteStateReader, StateFileReadError } from '../store/sqlite-reader.js';
import { CliError } from './run-command.js';

/** An opened read-only store. */
export interface InspectStore {
  readonly reader: ConversationReader & Required<Pick<ConversationReader, 'listConversations'>>;
  /** What was opened, for messages (`state file x`, `Redis prefix p at …`). */
  readonly describe: string;
  close(): Promise<void>;
}

/** Where to read from. */
export interface InspectStoreOptions {
  readonly state?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * Opens the store read-only; a CliError (exit 2) says what could not be opened and why.
 * @example
 * const opened = await openInspectStore({ env: process.env });
 * try { … } finally { await opened.close(); }
 */
export async function openInspectStore(options: InspectStoreOptions): Promise<InspectStore> {
  const redisUrl = nonEmpty(options.env['REDIS_URL']);
  if (redisUrl !== undefined) {
    if (options.state !== undefined)
      throw new CliError(
        'REDIS_URL is set: state lives in Redis; drop --state, or unset REDIS_URL',
        2,
      );
    const prefix = options.env['REDIS_PREFIX'] ?? 'switchboard:';
    let redis;
    try {
      redis = await connectRedis(redisUrl, { timeoutMs: 5000, onError: () => undefined });
    } catch (error) {
      throw new CliError(`${error instanceof Error ? error.message : String(error)}`, 2, {
        cause: error,
      });
    }
    const store = new RedisStore({ redis, prefix });
    return {
      reader: store,
      describe: `Redis (prefix "${prefix}")`,
      close: async () => {
        redis.disconnect();
        await Promise.resolve();
      },
    };
  }
  const path =
    options.state ?? nonEmpty(options.env['STATE_PATH']) ?? join('.switchboard', 'state.db');
  try {
    const reader = new SqliteStateReader(path);
    return { reader, describe: `state file ${path}`, close: () => reader.close() };
  } catch (error) {
    if (error instanceof StateFileReadError)
      throw new CliError(`${error.message} (set --state, STATE_PATH or REDIS_URL)`, 2, {
        cause: error,
      });
    throw new CliError(
      `cannot open state file ${path}: ${error instanceof Error ? error.message : String(error)}`,
      2,
      { cause: error },
    );
  }
}
