/**
 * The operations side of a `switchboard run` worker's start: tracing from the `OTEL_*`
 * variables, the Redis layout version, and the identity (key id, label) recorded in a
 * SQLite state file. Each helper throws an {@link OperationsStartError} with one line for
 * what the operator must fix.
 */
import { keyIdOf } from '../api/budgets.js';
import type { Logger } from '../log/logger.js';
import { startTracing, type Tracing } from '../observe/tracing.js';
import { ensureRedisLayout, RedisLayoutError } from '../store/redis-layout.js';
import type { RedisClient } from '../store/redis-script.js';
import { recordStateIdentity, StateLabelSchema } from '../store/sqlite-identity.js';
import type { SqliteStore } from '../store/sqlite-store.js';
import type { StoreRetention } from '../store/store.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A setting the operator must fix (the worker maps it to its start error, exit code 2). */
export class OperationsStartError extends Error {
  override readonly name = 'OperationsStartError';
}

/** Tracing from the `OTEL_*` variables: undefined when off. */
export async function startWorkerTracing(env: Env, logger: Logger): Promise<Tracing | undefined> {
  const started = await startTracing({ env });
  if (started.status === 'invalid') throw new OperationsStartError(started.message);
  if (started.status === 'off') {
    logger.debug('tracing off', { reason: started.reason });
    return undefined;
  }
  logger.info('tracing on', { exporter: started.tracing.description });
  return started.tracing;
}

/** The business number of `SWITCHBOARD_BUSINESS_NUMBER`, an attribute of every span. */
export function businessNumberOf(env: Env): string | undefined {
  const value = env['SWITCHBOARD_BUSINESS_NUMBER']?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The operator label of `SWITCHBOARD_LABEL` (checked), recorded in a SQLite state file. */
export function stateLabelOf(env: Env): string | undefined {
  const value = env['SWITCHBOARD_LABEL']?.trim();
  if (value === undefined || value === '') return undefined;
  if (!StateLabelSchema.safeParse(value).success)
    throw new OperationsStartError('SWITCHBOARD_LABEL must be 1–100 printable characters');
  return value;
}

/** Brings the Redis layout under `prefix` up to date; refuses a newer one. */
export async function checkRedisLayout(
  redis: RedisClient,
  prefix: string,
  retention: StoreRetention,
  logger: Logger,
): Promise<void> {
  try {
    await ensureRedisLayout(redis, prefix, { retention, logger });
  } catch (error) {
    if (error instanceof RedisLayoutError)
      throw new OperationsStartError(error.message, { cause: error });
    throw error;
  }
}

/**
 * Records whose state a SQLite file is (a restore checks a backup against it); warns when
 * it last ran with another key (a rotated key, or another bot's file).
 */
export function recordWorkerIdentity(
  store: SqliteStore,
  apiKey: string,
  label: string | undefined,
  logger: Logger,
): void {
  const keyId = keyIdOf(apiKey);
  const before = recordStateIdentity(store.database, { keyId, label });
  if (before.keyId !== undefined && before.keyId !== keyId)
    logger.warn('the state file was last used with another API key (a rotated key?)', {
      before: before.keyId,
      now: keyId,
    });
}
