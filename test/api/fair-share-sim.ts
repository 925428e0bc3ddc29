import type { BudgetRule, Limiter } from '../../src/api/limiter.js';

/** One member of a simulated workspace: when it starts asking and how long a send takes. */
export interface SimMember {
  readonly id: string;
  /** First time it asks (ms from the start). */
  readonly startMs?: number;
  /** Time between a take and its completion (the request's latency). */
  readonly latencyMs?: number;
}

/** What a simulation saw: each member's take times. */
export interface SimResult {
  readonly takes: ReadonlyMap<string, readonly number[]>;
  /** Every take time, ascending. */
  readonly all: readonly number[];
}

/**
 * Drives saturated senders against a limiter on a simulated clock: each member asks again
 * as soon as its previous send completed, or after the wait a refusal named. Ties go to
 * the member listed first, every time: the most unfair order a shared bucket can see.
 */
export async function simulate(
  limiter: Limiter,
  rulesOf: (member: string) => readonly BudgetRule[],
  members: readonly SimMember[],
  t0: number,
  durationMs: number,
): Promise<SimResult> {
  const next = new Map(members.map((m) => [m.id, t0 + (m.startMs ?? 0)]));
  const takes = new Map<string, number[]>(members.map((m) => [m.id, []]));
  const all: number[] = [];
  for (;;) {
    let who: SimMember | undefined;
    let at = Number.POSITIVE_INFINITY;
    for (const m of members) {
      const t = next.get(m.id) ?? Number.POSITIVE_INFINITY;
      if (t < at) [who, at] = [m, t];
    }
    if (who === undefined || at >= t0 + durationMs) break;
    const rules = rulesOf(who.id);
    const r = await limiter.take(rules, at);
    if (r.ok) {
      const done = at + (who.latencyMs ?? 0);
      await limiter.complete(rules, r.ticket, done);
      takes.get(who.id)?.push(at);
      all.push(at);
      next.set(who.id, done);
    } else next.set(who.id, at + r.retryAfterMs);
  }
  return { takes, all: all.sort((a, b) => a - b) };
}

/** Takes of `member` within [from, to). */
export function takesIn(result: SimResult, member: string, from: number, to: number): number {
  return (result.takes.get(member) ?? []).filter((t) => t >= from && t < to).length;
}

/** The most takes seen within any window of `windowMs` (exact, over every start). */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while ((times[hi] ?? 0) - (times[lo] ?? 0) >= windowMs) lo++;
    most = Math.max(most, hi - lo + 1);
  }
  return most;
}
