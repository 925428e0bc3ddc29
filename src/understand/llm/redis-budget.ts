/**
 * The model's call budget in Redis, shared by every worker: one counter per clock minute,
 * incremented and checked in one Lua script (atomic), expiring after two minutes. The key
 * carries a hash tag, so it lives in one Redis Cluster slot.
 */
import { z } from 'zod';
import { systemClock, type Clock } from '../../core/clock.js';
import { RedisScript, type RedisClient } from '../../store/redis-script.js';
import type { LlmBudget } from './budget.js';

const takeScript = new RedisScript(`
local used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if used > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return 0
end
return 1
`);

const reply = z.union([z.literal(0), z.literal(1)]);

/** Options of {@link RedisLlmBudget}. */
export interface RedisLlmBudgetOptions {
  /** An ioredis client (or cluster) owned by the caller. */
  readonly redis: RedisClient;
  /** Key prefix, e.g. `switchboard:prod:`. */
  readonly prefix: string;
  readonly perMinute: number;
  readonly clock?: Clock;
}

/**
 * A {@link LlmBudget} shared by all workers through Redis.
 * @example
 * const budget = new RedisLlmBudget({ redis, prefix: 'bot:', perMinute: 120 });
 */
export class RedisLlmBudget implements LlmBudget {
  readonly #o: RedisLlmBudgetOptions;
  readonly #clock: Clock;

  constructor(options: RedisLlmBudgetOptions) {
    if (!Number.isInteger(options.perMinute) || options.perMinute < 0) {
      throw new RangeError(`perMinute must be a whole number ≥ 0, got ${options.perMinute}`);
    }
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
  }

  async take(): Promise<boolean> {
    const minute = Math.floor(this.#clock.now() / 60_000);
    const key = `{${this.#o.prefix}llm-budget}:${minute}`;
    const r = reply.parse(await takeScript.run(this.#o.redis, [key], [this.#o.perMinute, 120_000]));
    return r === 1;
  }
}
