import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/core/duration.js';

describe('parseDuration', () => {
  it.each([
    ['25h', 90_000_000],
    ['10m', 600_000],
    ['30s', 30_000],
    ['1500ms', 1_500],
    ['2d', 172_800_000],
    ['1h30m', 5_400_000],
    ['1500', 1_500],
  ])('should parse %s', (input, ms) => {
    expect(parseDuration(input)).toEqual({ status: 'valid', ms });
  });

  it('should accept a number of milliseconds', () => {
    expect(parseDuration(250)).toEqual({ status: 'valid', ms: 250 });
  });

  it.each(['', 'soon', '10x', 'h', '5m later', '-1s'])('should reject %j', (input) => {
    expect(parseDuration(input).status).toBe('invalid');
  });

  it('should reject negative numbers', () => {
    expect(parseDuration(-5).status).toBe('invalid');
  });
});
