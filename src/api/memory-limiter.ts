import { systemClock, type Clock } from '../core/clock.js';
import type { BudgetRule, Limiter, Slot, TakeResult } from './limiter.js';

/** Options of {@link MemoryLimiter}. */
export interface MemoryLimiterOptions {
  /** Time source for slot TTLs (take() gets `now` from its caller). Default: wall clock. */
  readonly clock?: Clock;
}

/**
 * An in-process {@link Limiter}: an exact sliding-window log per rule key, all-or-nothing
 * takes across rules, blocks from retry hints, and concurrency slots with a TTL.
 * A take at `now` counts earlier takes at `t` with `t > now - windowMs`, so any half-open
 * window of `windowMs` holds at most `limit` takes.
 * @example
 * const limiter = new MemoryLimiter({ clock });
 * const r = await limiter.take(sendBudgetRules(identity), clock.now());
 * if (!r.ok) await sleep(r.retryAfterMs);
 */
export class MemoryLimiter implements Limiter {
  readonly #clock: Clock;
  /** Ascending take times per rule key. */
  readonly #logs = new Map<string, number[]>();
  readonly #blocks = new Map<string, number>();
  /** Holders per slot key: holder token -> expiry (epoch ms). */
  readonly #slots = new Map<string, Map<symbol, number>>();

  constructor(options: MemoryLimiterOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  /** Takes one unit from every rule, or from none; otherwise says how long until all have room. */
  take(rules: readonly BudgetRule[], now: number): Promise<TakeResult> {
    let waitMs = 0;
    for (const rule of rules) {
      const blockedUntil = this.#blocks.get(rule.key);
      if (blockedUntil !== undefined) {
        if (blockedUntil > now) waitMs = Math.max(waitMs, blockedUntil - now);
        else this.#blocks.delete(rule.key);
      }
      const log = this.#prune(rule, now);
      if (log.length >= rule.limit) {
        // The take that must leave the window before this one fits.
        const oldest = log[log.length - rule.limit];
        if (oldest !== undefined) waitMs = Math.max(waitMs, oldest + rule.windowMs - now);
      }
    }
    if (waitMs > 0) return Promise.resolve({ ok: false, retryAfterMs: waitMs });
    for (const rule of rules) {
      const log = this.#logs.get(rule.key) ?? [];
      // Callers may pass a slightly older `now`; keep the log sorted.
      let i = log.length;
      while (i > 0 && (log[i - 1] ?? 0) > now) i--;
      log.splice(i, 0, now);
      this.#logs.set(rule.key, log);
    }
    return Promise.resolve({ ok: true });
  }

  /** Blocks the keys until `untilMs`; an earlier block never shortens a longer one. */
  block(keys: readonly string[], untilMs: number): Promise<void> {
    for (const key of keys) {
      this.#blocks.set(key, Math.max(this.#blocks.get(key) ?? 0, untilMs));
    }
    return Promise.resolve();
  }

  /** Takes one of `max` slots of `key`, or undefined when all are held (expired ones are freed). */
  acquireSlot(key: string, max: number, ttlMs: number): Promise<Slot | undefined> {
    const now = this.#clock.now();
    const holders = this.#slots.get(key) ?? new Map<symbol, number>();
    for (const [token, expiresAt] of holders) if (expiresAt <= now) holders.delete(token);
    if (holders.size >= max) return Promise.resolve(undefined);
    const token = Symbol(key);
    holders.set(token, now + ttlMs);
    this.#slots.set(key, holders);
    return Promise.resolve({
      release: () => {
        holders.delete(token);
        return Promise.resolve();
      },
    });
  }

  /** Number of takes of `rule` inside its window at `now` (for tests and metrics). */
  count(rule: BudgetRule, now: number): number {
    return this.#prune(rule, now).length;
  }

  #prune(rule: BudgetRule, now: number): number[] {
    const log = this.#logs.get(rule.key);
    if (log === undefined) return [];
    const from = now - rule.windowMs;
    let drop = 0;
    while (drop < log.length && (log[drop] ?? 0) <= from) drop++;
    if (drop > 0) log.splice(0, drop);
    if (log.length === 0) this.#logs.delete(rule.key);
    return log;
  }
}
