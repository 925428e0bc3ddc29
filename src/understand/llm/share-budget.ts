/**
 * Shares an llm understander's per-minute call budget between every worker of a bot on
 * one Redis: `switchboard run` calls this when `REDIS_URL` is set.
 */
import type { RedisClient } from '../../store/redis-script.js';
import type { Understander } from '../types.js';
import { isLlmUnderstander } from './index.js';
import { RedisLlmBudget } from './redis-budget.js';

/**
 * Gives `understander`, when it is the llm one, a {@link RedisLlmBudget} of its calls a
 * minute under `prefix`; true when it did.
 * @example
 * shareLlmBudget(bot.understanding?.understander, redis, 'switchboard:');
 */
export function shareLlmBudget(
  understander: Understander | undefined,
  redis: RedisClient,
  prefix: string,
): boolean {
  if (!isLlmUnderstander(understander)) return false;
  understander.useBudget(
    new RedisLlmBudget({ redis, prefix, perMinute: understander.callsPerMinute }),
  );
  return true;
}
