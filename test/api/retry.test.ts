import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  parseRateLimitReset,
  parseRetryAfter,
  retryHintMs,
} from '../../src/api/retry.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

describe('retry hints', () => {
  it('should read Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3_000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1_500);
    expect(parseRetryAfter(new Date(NOW + 10_000).toUTCString(), NOW)).toBe(10_000);
    expect(parseRetryAfter(new Date(NOW - 10_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });

  it('should read RateLimit-Reset as a wait in seconds, not a timestamp', () => {
    expect(parseRateLimitReset('5')).toBe(5_000);
    expect(parseRateLimitReset('x')).toBeUndefined();
  });

  it('should take the longest of the header and envelope hints', () => {
    const headers = new Headers({ 'retry-after': '2', 'ratelimit-reset': '4' });
    expect(retryHintMs(headers, { code: 'x', message: '', retryAfterSeconds: 3 }, NOW)).toBe(4_000);
    expect(retryHintMs(new Headers(), { retryAfterSeconds: 3 }, NOW)).toBe(3_000);
    expect(retryHintMs(new Headers(), { retryAfterSeconds: -1 }, NOW)).toBeUndefined();
    expect(retryHintMs(new Headers(), undefined, NOW)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1_000 };

  it('should grow exponentially under a cap with full jitter', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelayMs(a, policy, () => 0.999))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(200);
  });

  it('should stay within [0, cap] for any random value', () => {
    for (const r of [-1, 0, 0.3, 0.99, 2]) {
      const d = backoffDelayMs(10, policy, () => r);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(1_000);
    }
  });
});
