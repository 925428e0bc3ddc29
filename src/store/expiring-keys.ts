/**
 * A set of keys that each expire at an epoch-millisecond time. Expiry is lazy (checked on
 * read) plus an amortised sweep: after as many writes as there were keys after the last
 * sweep (at least `minSweepInterval`), one pass drops every expired key. No timers,
 * O(1) amortised per write; expired keys held are bounded by the writes since a sweep.
 * @example
 * const seen = new ExpiringKeys();
 * seen.addIfAbsent('msg:1', now, now + 86_400_000); // true
 * seen.addIfAbsent('msg:1', now, now + 86_400_000); // false
 */
export class ExpiringKeys {
  /** key -> expiresAt (epoch ms). */
  readonly #keys = new Map<string, number>();
  readonly #minSweepInterval: number;
  #writesSinceSweep = 0;
  #sizeAfterSweep = 0;

  constructor(minSweepInterval = 1024) {
    this.#minSweepInterval = minSweepInterval;
  }

  /** Number of keys held, expired ones not yet swept included. */
  get size(): number {
    return this.#keys.size;
  }

  /** True when `key` is present and not expired at `now`. */
  has(key: string, now: number): boolean {
    const expiresAt = this.#keys.get(key);
    if (expiresAt === undefined) return false;
    if (expiresAt > now) return true;
    this.#keys.delete(key);
    return false;
  }

  /** Adds `key` until `expiresAt` unless it is live at `now`; true when added. */
  addIfAbsent(key: string, now: number, expiresAt: number): boolean {
    if (this.has(key, now)) return false;
    this.#keys.set(key, expiresAt);
    this.#afterWrite(now);
    return true;
  }

  delete(key: string): void {
    this.#keys.delete(key);
  }

  /** Drops every key expired at `now`. */
  sweep(now: number): void {
    for (const [key, expiresAt] of this.#keys) if (expiresAt <= now) this.#keys.delete(key);
    this.#writesSinceSweep = 0;
    this.#sizeAfterSweep = this.#keys.size;
  }

  #afterWrite(now: number): void {
    this.#writesSinceSweep++;
    // A sweep costs the current size, at most twice the writes since the last one.
    if (this.#writesSinceSweep >= Math.max(this.#minSweepInterval, this.#sizeAfterSweep)) {
      this.sweep(now);
    }
  }
}
