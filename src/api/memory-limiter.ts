import { systemClock, type Clock } from '../core/clock.js';
import { fairShareWait } from './fair-share.js';
import {
  DEFAULT_IN_FLIGHT_MS,
  type BudgetRule,
  type Limiter,
  type Slot,
  type TakeOptions,
  type TakeResult,
  type Ticket,
} from './limiter.js';

/** One unit in a rule's log: completed at `at`, or in flight and counted until `at`. */
interface Entry {
  at: number;
  readonly ticket: Ticket;
  /** The member that took it, in a fairly shared budget ('' when unknown). */
  readonly member: string;
}

/** Options of {@link MemoryLimiter}. */
export interface MemoryLimiterOptions {
  /** Time source for slot TTLs (take() gets `now` from its caller). Default: wall clock. */
  readonly clock?: Clock;
}

/**
 * An in-process {@link Limiter}: an exact sliding-window log per rule key, all-or-nothing
 * takes across rules, settle-at-completion entries, blocks from retry hints, and
 * concurrency slots with a TTL. A take at `now` counts entries at `t > now - windowMs`;
 * an in-flight entry sits at `take + inFlightMs` until completed, so it counts in every
 * window meanwhile (see limiter.ts for why this holds the server's budget exactly).
 * @example
 * const limiter = new MemoryLimiter({ clock });
 * const r = await limiter.take(sendBudgetRules(identity), clock.now());
 * if (!r.ok) await sleep(r.retryAfterMs);
 * else try { await call(); } finally { await limiter.complete(rules, r.ticket, clock.now()); }
 */
export class MemoryLimiter implements Limiter {
  readonly #clock: Clock;
  /** Entries per rule key, ascending by `at`. */
  readonly #logs = new Map<string, Entry[]>();
  readonly #blocks = new Map<string, number>();
  /** Per shared rule key: member -> time it last asked (see fair-share.ts). */
  readonly #demand = new Map<string, Map<string, number>>();
  /** Holders per slot key: holder token -> expiry (epoch ms). */
  readonly #slots = new Map<string, Map<symbol, number>>();
  #tickets = 0;

  constructor(options: MemoryLimiterOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  /** Takes one unit from every rule, or from none; otherwise says how long until all have room. */
  take(rules: readonly BudgetRule[], now: number, options: TakeOptions = {}): Promise<TakeResult> {
    let waitMs = 0;
    for (const rule of rules) {
      const blockedUntil = this.#blocks.get(rule.key);
      if (blockedUntil !== undefined) {
        if (blockedUntil > now) waitMs = Math.max(waitMs, blockedUntil - now);
        else this.#blocks.delete(rule.key);
      }
      const log = this.#prune(rule, now);
      // A refused member asks too: its reservation holds from its first refusal on.
      const active = rule.share === undefined ? undefined : this.#asked(rule, rule.share, now);
      if (log.length >= rule.limit) {
        // The entry that must leave the window before this take fits; an in-flight one
        // leaves a full window after it completes, at the earliest now.
        const oldest = log[log.length - rule.limit];
        if (oldest !== undefined) {
          waitMs = Math.max(waitMs, Math.min(oldest.at, now) + rule.windowMs - now);
        }
      } else if (rule.share !== undefined && active !== undefined) {
        waitMs = Math.max(
          waitMs,
          fairShareWait(log, active, rule.share, rule.limit, rule.windowMs, now),
        );
      }
    }
    if (waitMs > 0) {
      // A refused member stays active until a window after it asks again.
      for (const rule of rules)
        if (rule.share !== undefined) this.#demand.get(rule.key)?.set(rule.share, now + waitMs);
      return Promise.resolve({ ok: false, retryAfterMs: Math.ceil(waitMs) });
    }
    const ticket = `m${++this.#tickets}`;
    const until = now + (options.inFlightMs ?? DEFAULT_IN_FLIGHT_MS);
    for (const rule of rules) {
      const log = this.#logs.get(rule.key) ?? [];
      insertSorted(log, { at: until, ticket, member: rule.share ?? '' });
      this.#logs.set(rule.key, log);
    }
    return Promise.resolve({ ok: true, ticket });
  }

  /** Settles `ticket`: its entry in every rule's log moves to `now`. */
  complete(rules: readonly BudgetRule[], ticket: Ticket, now: number): Promise<void> {
    for (const rule of rules) {
      const log = this.#logs.get(rule.key);
      const i = log?.findIndex((e) => e.ticket === ticket) ?? -1;
      if (log === undefined || i < 0) continue;
      const [entry] = log.splice(i, 1);
      if (entry !== undefined) insertSorted(log, { ...entry, at: now });
    }
    return Promise.resolve();
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

  /**
   * Adds units used before this limiter existed (a restart: the API counts the key's
   * traffic, not the process's), each completed at `at`.
   */
  restore(entries: readonly { readonly key: string; readonly at: number }[]): void {
    for (const { key, at } of entries) {
      const log = this.#logs.get(key) ?? [];
      insertSorted(log, { at, ticket: `r${++this.#tickets}`, member: '' });
      this.#logs.set(key, log);
    }
  }

  /** Number of entries of `rule` (in flight included) inside its window at `now`. */
  count(rule: BudgetRule, now: number): number {
    return this.#prune(rule, now).length;
  }

  /**
   * Records that `member` asks now (keeping a later mark: a refused member's next ask);
   * returns the members whose mark lies within the window.
   */
  #asked(rule: BudgetRule, member: string, now: number): Set<string> {
    const demand = this.#demand.get(rule.key) ?? new Map<string, number>();
    this.#demand.set(rule.key, demand);
    demand.set(member, Math.max(now, demand.get(member) ?? now));
    const active = new Set<string>();
    for (const [m, at] of demand) {
      if (at > now - rule.windowMs) active.add(m);
      else demand.delete(m);
    }
    return active;
  }

  #prune(rule: BudgetRule, now: number): Entry[] {
    const log = this.#logs.get(rule.key);
    if (log === undefined) return [];
    const from = now - rule.windowMs;
    let drop = 0;
    while (drop < log.length && (log[drop]?.at ?? 0) <= from) drop++;
    if (drop > 0) log.splice(0, drop);
    if (log.length === 0) this.#logs.delete(rule.key);
    return log;
  }
}

/** Inserts keeping `log` ascending by `at` (after equal times, so order of takes holds). */
function insertSorted(log: Entry[], entry: Entry): void {
  let i = log.length;
  while (i > 0 && (log[i - 1]?.at ?? 0) > entry.at) i--;
  log.splice(i, 0, entry);
}
