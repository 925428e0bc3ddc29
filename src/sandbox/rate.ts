import type { BudgetRule } from '../api/limiter.js';

/** Outcome of {@link RateCounter.take}, with the RateLimit-* headers to return. */
export type RateResult =
  | { readonly status: 'allowed'; readonly headers: Record<string, string> }
  | {
      readonly status: 'limited';
      readonly retryAfterSeconds: number;
      readonly headers: Record<string, string>;
    };

/**
 * Sliding-window request counters of spec part 8 on the sandbox clock. A request
 * takes one unit from every rule or from none. Headers describe the governing rule
 * (the one with the least room): RateLimit-Limit, RateLimit-Remaining and
 * RateLimit-Reset (seconds to wait until a unit frees, not a timestamp), plus
 * RateLimit-Policy listing every rule as `"<scope>";q=<limit>;w=<seconds>`, e.g.
 * `"send-key-1s";q=20;w=1`.
 */
export class RateCounter {
  readonly #log = new Map<string, number[]>();

  take(rules: readonly BudgetRule[], now: number): RateResult {
    const views = rules.map((rule) => {
      const hits = this.#prune(rule, now);
      const oldest = hits[0];
      const resetMs = oldest === undefined ? 0 : oldest + rule.windowMs - now;
      return { rule, hits, used: hits.length, resetMs };
    });
    const policy = rules
      .map((r) => `"${policyName(r.key)}";q=${r.limit};w=${Math.ceil(r.windowMs / 1000)}`)
      .join(', ');
    const full = views.filter((v) => v.used >= v.rule.limit);
    if (full.length > 0) {
      const waitMs = Math.max(...full.map((v) => v.resetMs));
      const governing = full.reduce((a, b) => (b.resetMs > a.resetMs ? b : a));
      const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      return {
        status: 'limited',
        retryAfterSeconds,
        headers: {
          'RateLimit-Policy': policy,
          'RateLimit-Limit': String(governing.rule.limit),
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': String(retryAfterSeconds),
          'Retry-After': String(retryAfterSeconds),
        },
      };
    }
    for (const v of views) v.hits.push(now);
    const governing = views.reduce((a, b) =>
      b.rule.limit - b.used < a.rule.limit - a.used ? b : a,
    );
    const remaining = governing.rule.limit - governing.used - 1;
    const first = governing.hits[0] ?? now;
    return {
      status: 'allowed',
      headers: {
        'RateLimit-Policy': policy,
        'RateLimit-Limit': String(governing.rule.limit),
        'RateLimit-Remaining': String(remaining),
        'RateLimit-Reset': String(
          Math.max(0, Math.ceil((first + governing.rule.windowMs - now) / 1000)),
        ),
      },
    };
  }

  /** Forgets every counter. */
  reset(): void {
    this.#log.clear();
  }

  #prune(rule: BudgetRule, now: number): number[] {
    const hits = (this.#log.get(rule.key) ?? []).filter((t) => t > now - rule.windowMs && t <= now);
    this.#log.set(rule.key, hits);
    return hits;
  }
}

/** `send:key:key0:1s` -> `send-key-1s`: the rule's kind without the id. */
function policyName(key: string): string {
  const parts = key.split(':');
  return [parts[0], parts[1], parts.at(-1)].join('-');
}
