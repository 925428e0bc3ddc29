import { describe, expect, it } from 'vitest';
import { ExpiringKeys } from '../../src/store/expiring-keys.js';

describe('ExpiringKeys', () => {
  it('should expire keys lazily on read', () => {
    const keys = new ExpiringKeys();
    expect(keys.addIfAbsent('a', 0, 100)).toBe(true);
    expect(keys.has('a', 99)).toBe(true);
    expect(keys.has('a', 100)).toBe(false);
    expect(keys.size).toBe(0);
  });

  it('should sweep expired keys without reads, keeping memory bounded', () => {
    const keys = new ExpiringKeys(16);
    for (let i = 0; i < 100; i++) keys.addIfAbsent(`old${i}`, 0, 10);
    let maxSize = 0;
    for (let i = 0; i < 1000; i++) {
      keys.addIfAbsent(`new${i}`, 20 + i, 30 + i);
      maxSize = Math.max(maxSize, keys.size);
    }
    // Only the last ~10 keys are live; the sweep runs every max(16, size) writes.
    expect(maxSize).toBeLessThanOrEqual(2 * 16 + 100);
    expect(keys.size).toBeLessThan(40);
    expect(keys.has('new999', 1019)).toBe(true);
  });
});
