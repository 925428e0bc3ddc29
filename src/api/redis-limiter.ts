import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { systemClock, type Clock } from '../core/clock.js';
import type { RedisClient } from '../store/redis-script.js';
import {
  DEFAULT_IN_FLIGHT_MS,
  type BudgetRule,
  type Limiter,
  type Slot,
  type TakeOptions,
  type TakeResult,
  type Ticket,
} from './limiter.js';
import * as scripts from './redis-limiter-scripts.js';

/** Options of {@link RedisLimiter}. */
export interface RedisLimiterOptions {
  /** An ioredis client (or cluster) owned by the caller. */
  readonly redis: RedisClient;
  /** Prefix of every key, e.g. `switchboard:prod:`. */
  readonly prefix: string;
  /** Time source for blocks and slot expiry (take() gets `now` from its caller). */
  readonly clock?: Clock;
}

/** Real TTLs outlive logical expiry by this much, to absorb clock differences. */
const GC_GRACE_MS = 60_000;

const reply = z.number().int().nonnegative();

/**
 * A {@link Limiter} whose budgets, blocks and slots live in Redis, so every worker shares
 * them. A take checks every rule and block in one Lua script and consumes from all or
 * from none; its entries stay in flight until a second script settles them at the
 * completion time (see limiter.ts). Time comes from the workers' clocks, not Redis: keep
 * them synchronised (the client's margin absorbs their skew).
 * All keys of one limiter share the hash tag `{<prefix>limiter}`, so a multi-rule take
 * stays in one Redis Cluster slot.
 * @example
 * const limiter = new RedisLimiter({ redis, prefix: 'bot:' });
 * const r = await limiter.take(rules, Date.now());
 */
export class RedisLimiter implements Limiter {
  readonly #redis: RedisClient;
  readonly #tag: string;
  readonly #clock: Clock;
  /** Makes take ids unique within this process; the UUID makes them unique across workers. */
  readonly #id = randomUUID();
  #takes = 0;

  constructor(options: RedisLimiterOptions) {
    this.#redis = options.redis;
    this.#tag = `{${options.prefix}limiter}`;
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Takes one unit from every rule, or from none; otherwise says how long until all have
   * room. The units stay in flight until {@link RedisLimiter.complete}.
   */
  async take(
    rules: readonly BudgetRule[],
    now: number,
    options: TakeOptions = {},
  ): Promise<TakeResult> {
    const ticket = `${this.#id}:${++this.#takes}`;
    if (rules.length === 0) return { ok: true, ticket };
    const keys = [
      ...rules.map((r) => this.#logKey(r.key)),
      ...rules.map((r) => this.#blockKey(r.key)),
    ];
    const until = now + (options.inFlightMs ?? DEFAULT_IN_FLIGHT_MS);
    const args: (string | number)[] = [now, ticket, GC_GRACE_MS, until];
    for (const rule of rules) args.push(rule.limit, rule.windowMs);
    const shared = sharedRule(rules);
    if (shared !== undefined) {
      keys.push(`${this.#tag}:demand:${shared.rule.key}`);
      args.push(shared.index, shared.member);
    }
    const waitMs = reply.parse(await scripts.takeAll.run(this.#redis, keys, args));
    return waitMs === 0 ? { ok: true, ticket } : { ok: false, retryAfterMs: waitMs };
  }

  /** Settles `ticket` for every worker: its entry in every rule's log moves to `now`. */
  async complete(rules: readonly BudgetRule[], ticket: Ticket, now: number): Promise<void> {
    if (rules.length === 0) return;
    const args: (string | number)[] = [now, ticket, GC_GRACE_MS];
    for (const rule of rules) args.push(rule.windowMs);
    const shared = sharedRule(rules);
    if (shared !== undefined) args.push(shared.index, shared.member);
    reply.parse(
      await scripts.completeTake.run(
        this.#redis,
        rules.map((r) => this.#logKey(r.key)),
        args,
      ),
    );
  }

  /** Blocks the keys until `untilMs` for every worker; a shorter block never shortens a longer one. */
  async block(keys: readonly string[], untilMs: number): Promise<void> {
    if (keys.length === 0) return;
    await scripts.blockKeys.run(
      this.#redis,
      keys.map((k) => this.#blockKey(k)),
      [untilMs, this.#clock.now(), GC_GRACE_MS],
    );
  }

  /** Takes one of `max` slots of `key`, or undefined when all are held (dead holders expire). */
  async acquireSlot(key: string, max: number, ttlMs: number): Promise<Slot | undefined> {
    const slotKey = `${this.#tag}:slot:${key}`;
    const holder = `${this.#id}:${++this.#takes}`;
    const now = this.#clock.now();
    const taken = reply.parse(
      await scripts.acquireSlot.run(
        this.#redis,
        [slotKey],
        [now, max, holder, now + ttlMs, Math.ceil(ttlMs) + GC_GRACE_MS],
      ),
    );
    if (taken === 0) return undefined;
    return {
      release: async () => {
        await this.#redis.zrem(slotKey, holder);
      },
    };
  }

  #logKey(ruleKey: string): string {
    return `${this.#tag}:log:${ruleKey}`;
  }

  #blockKey(ruleKey: string): string {
    return `${this.#tag}:block:${ruleKey}`;
  }
}

/**
 * The one rule of a take shared fairly (its 1-based index for the scripts) and its
 * member. A member is a number id: `|` separates it from the ticket, so it may not hold one.
 */
function sharedRule(
  rules: readonly BudgetRule[],
): { index: number; rule: BudgetRule; member: string } | undefined {
  const index = rules.findIndex((r) => r.share !== undefined);
  const rule = rules[index];
  if (rule?.share === undefined) return undefined;
  if (rules.some((r, i) => i !== index && r.share !== undefined))
    throw new Error('RedisLimiter: a take may share at most one rule fairly');
  return { index: index + 1, rule, member: rule.share.replaceAll('|', '_') };
}
