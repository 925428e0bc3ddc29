import { describe, expect, it } from 'vitest';
import { TurnGate } from '../../src/engine/turn-gate.js';

describe('TurnGate', () => {
  it('should hold work beyond the admissions of a turn until a later event-loop turn', async () => {
    const gate = new TurnGate(1, 0);
    await gate.enter();
    let admitted = false;
    const second = gate.enter().then(() => (admitted = true));
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(admitted).toBe(false);
    await new Promise<void>((resolve) => setImmediate(resolve));
    await second;
    expect(admitted).toBe(true);
  });

  it('should admit every waiter eventually, in order', async () => {
    const gate = new TurnGate(2, 0);
    const done: number[] = [];
    await Promise.all(Array.from({ length: 7 }, (_, i) => gate.enter().then(() => done.push(i))));
    expect(done).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
