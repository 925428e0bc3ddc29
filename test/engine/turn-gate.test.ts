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

  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it("should start late comers at once within a turn's time slice", async () => {
    const gate = new TurnGate(1, 60_000);
    await gate.enter();
    await turn(); // the turn opens a slice
    let started = 0;
    for (let i = 0; i < 3; i++) void gate.enter().then(() => started++);
    await settle();
    expect(started).toBe(3);
  });

  it('should end the slice on a press and give the next turn none: one item per turn', async () => {
    const gate = new TurnGate(1, 60_000);
    await gate.enter();
    await turn(); // a slice is open
    gate.press(); // a request came in: the slice ends now
    let started = 0;
    for (let i = 0; i < 3; i++) void gate.enter().then(() => started++);
    await settle();
    expect(started).toBe(1); // this turn's own allowance only
    await turn(); // pressed: admits perTurn (1), opens no slice
    await settle();
    expect(started).toBe(2);
    void gate.enter().then(() => started++);
    await settle();
    expect(started).toBe(2);
    await turn(); // not pressed again: one admitted, and a slice for late comers
    await settle();
    expect(started).toBe(3);
    void gate.enter().then(() => started++);
    await settle();
    expect(started).toBe(4);
    await turn();
    await settle();
    expect(started).toBe(5);
  });
  it('should count as under pressure for pressureMs after a press, and not before one', async () => {
    const gate = new TurnGate(1, 0, 60_000);
    expect(gate.underPressure).toBe(false);
    gate.press();
    expect(gate.underPressure).toBe(true);
    const brief = new TurnGate(1, 0, 5);
    brief.press();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(brief.underPressure).toBe(false);
    expect(brief.pressureMs).toBe(5);
  });
});
