/** Per-state figures of a studio session (see {@link StateAnalytics}). */
export interface StateFigures {
  /** Times a conversation entered the state. */
  readonly visits: number;
  /**
   * Visits after which the customer did not go on: left by a timeout, or the conversation
   * still waits there with no event for longer than the idle threshold.
   */
  readonly dropOffs: number;
  /** Median time spent in the state by visits that ended, ms (undefined: none ended yet). */
  readonly medianMs: number | undefined;
  /** Conversations in the state now. */
  readonly current: number;
}

interface OpenVisit {
  readonly flowId: string;
  readonly state: string;
  readonly enteredAt: number;
  lastActivityAt: number;
  final: boolean;
}

/** States that are not places a person can be: before the first message, after the end. */
const NOT_A_STATE = new Set(['', '_idle']);

/** Default: a conversation waiting this long (studio clock) in a state counts as dropped. */
export const DROP_OFF_IDLE_MS = 10 * 60_000;

/**
 * Per-state analytics of a session: visits, drop-offs and median time in state, fed with
 * the state each conversation is in after every event (in order) and the event that moved
 * it. States passed through within one step (a `say` that goes on at once) are not seen:
 * they count on the state they lead to.
 */
export class StateAnalytics {
  readonly #visits = new Map<string, number>();
  readonly #dropped = new Map<string, number>();
  readonly #durations = new Map<string, number[]>();
  readonly #open = new Map<string, OpenVisit>();
  readonly #idleMs: number;

  constructor(options: { idleMs?: number } = {}) {
    this.#idleMs = options.idleMs ?? DROP_OFF_IDLE_MS;
  }

  /**
   * Records where a conversation is after an event at `at` (studio clock ms). `cause` is
   * the event type that moved it (`timer.fired` marks a drop-off of the state left).
   */
  record(input: {
    readonly conversationId: string;
    readonly flowId: string;
    readonly state: string;
    readonly ended: boolean;
    readonly at: number;
    readonly cause: string | undefined;
  }): void {
    const open = this.#open.get(input.conversationId);
    if (open !== undefined && open.flowId === input.flowId && open.state === input.state) {
      open.lastActivityAt = input.at;
      open.final = input.ended;
      return;
    }
    if (open !== undefined) {
      const key = keyOf(open.flowId, open.state);
      push(this.#durations, key, Math.max(0, input.at - open.enteredAt));
      if (input.cause === 'timer.fired' && !open.final) bump(this.#dropped, key);
      this.#open.delete(input.conversationId);
    }
    if (NOT_A_STATE.has(input.state)) return;
    bump(this.#visits, keyOf(input.flowId, input.state));
    this.#open.set(input.conversationId, {
      flowId: input.flowId,
      state: input.state,
      enteredAt: input.at,
      lastActivityAt: input.at,
      final: input.ended,
    });
  }

  /** The figures of every state of `flowId` seen so far, at `now` (studio clock ms). */
  figures(flowId: string, now: number): Record<string, StateFigures> {
    const out: Record<string, StateFigures> = {};
    const waiting = new Map<string, { current: number; idle: number }>();
    for (const visit of this.#open.values()) {
      if (visit.flowId !== flowId) continue;
      const w = waiting.get(visit.state) ?? { current: 0, idle: 0 };
      w.current += 1;
      if (!visit.final && now - visit.lastActivityAt >= this.#idleMs) w.idle += 1;
      waiting.set(visit.state, w);
    }
    const prefix = `${flowId}\u0000`;
    const states = new Set(
      [...this.#visits.keys()]
        .filter((k) => k.startsWith(prefix))
        .map((k) => k.slice(prefix.length)),
    );
    for (const state of states) {
      const key = keyOf(flowId, state);
      const w = waiting.get(state) ?? { current: 0, idle: 0 };
      out[state] = {
        visits: this.#visits.get(key) ?? 0,
        dropOffs: (this.#dropped.get(key) ?? 0) + w.idle,
        medianMs: median(this.#durations.get(key) ?? []),
        current: w.current,
      };
    }
    return out;
  }
}

function keyOf(flowId: string, state: string): string {
  return `${flowId}\u0000${state}`;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

/** The median of a list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? 0) + upper) / 2;
}
