import { describe, expect, it } from 'vitest';
import { counterDeltas } from '../../bench/scale-out.js';
import type { TargetStats } from '../../bench/spawn-target.js';

const stats = (
  involuntarySwitches: number,
  voluntarySwitches: number,
  readCalls: number,
  writeCalls: number,
): TargetStats => ({
  events: 0,
  sends: 0,
  rss: 0,
  cpuMicros: 0,
  involuntarySwitches,
  voluntarySwitches,
  readCalls,
  writeCalls,
});

describe('scale-out worker counters', () => {
  it('sums each worker’s growth between the two readings', () => {
    expect(
      counterDeltas(
        [stats(10, 1, 100, 50), stats(20, 2, 200, 60)],
        [stats(15, 4, 130, 90), stats(60, 2, 210, 61)],
      ),
    ).toEqual({ involuntarySwitches: 45, voluntarySwitches: 3, readCalls: 40, writeCalls: 41 });
  });

  it('is undefined when a worker cannot read its counters (not Linux)', () => {
    const bare: TargetStats = { events: 0, sends: 0, rss: 0, cpuMicros: 0 };
    expect(counterDeltas([stats(1, 1, 1, 1), bare], [stats(2, 2, 2, 2), bare])).toBeUndefined();
    expect(counterDeltas([bare], [stats(2, 2, 2, 2)])).toBeUndefined();
  });
});
