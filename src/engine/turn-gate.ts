import { performance } from 'node:perf_hooks';

/**
 * Paces engine work by event-loop turns: each turn (`setImmediate`, the check phase)
 * admits `perTurn` waiting units of work, and more start only while the turn's time
 * slice lasts; the rest wait for a later turn. Between two turns the poll phase answers
 * every pending request first, so callbacks are acknowledged promptly under load while
 * the engine works off the backlog (and runs back to back when nothing else is waiting).
 * Ingress {@link press}es the gate: a turn after requests came in admits only `perTurn`
 * items, without the time slice, so a burst of callbacks is acknowledged first (the
 * inbox is durable) and the engine takes the whole turn again once the burst is over.
 * @example
 * const gate = new TurnGate(1, 2);
 * await gate.enter(); // then process one inbox item
 */
export class TurnGate {
  readonly #perTurn: number;
  readonly #sliceMs: number;
  readonly #pressureMs: number;
  #lastPress = Number.NEGATIVE_INFINITY;
  #used = 0;
  #sliceEnd = 0;
  #waiters: Array<() => void> = [];
  #turn: NodeJS.Immediate | undefined;
  #pressed = false;

  /** `pressureMs`: how long after a {@link press} the gate counts as {@link underPressure}. */
  constructor(perTurn: number, sliceMs: number, pressureMs = 100) {
    this.#perTurn = Math.max(1, perTurn);
    this.#sliceMs = sliceMs;
    this.#pressureMs = pressureMs;
  }

  /** True while requests keep coming in: one was {@link press}ed within `pressureMs`. */
  get underPressure(): boolean {
    return performance.now() - this.#lastPress < this.#pressureMs;
  }

  /** How long after the last press {@link underPressure} stays true. */
  get pressureMs(): number {
    return this.#pressureMs;
  }

  /** Resolves when this unit of work may start. */
  enter(): Promise<void> {
    this.#scheduleTurn();
    const free = this.#waiters.length === 0 && this.#used < this.#perTurn;
    if (free || performance.now() < this.#sliceEnd) {
      this.#used++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Tells the gate that a request came in: this turn's slice ends, the next has none. */
  press(): void {
    this.#pressed = true;
    this.#sliceEnd = 0;
    this.#lastPress = performance.now();
  }

  #scheduleTurn(): void {
    if (this.#turn !== undefined) return;
    this.#turn = setImmediate(() => {
      this.#turn = undefined;
      this.#sliceEnd = this.#pressed ? 0 : performance.now() + this.#sliceMs;
      this.#pressed = false;
      const admitted = this.#waiters.splice(0, this.#perTurn);
      this.#used = admitted.length;
      if (this.#waiters.length > 0) this.#scheduleTurn();
      for (const resolve of admitted) resolve();
    });
  }
}
