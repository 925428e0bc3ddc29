import { MinHeap } from './min-heap.js';
import type { TimerRecord } from './store.js';
import { compactString } from './to-json.js';

interface TimerState extends TimerRecord {
  /** Bumped on every change; heap entries of older generations are stale. */
  readonly generation: number;
}

interface HeapEntry {
  /** When the timer can be claimed: its `dueAt`, or the end of its current claim. */
  readonly at: number;
  readonly id: string;
  readonly generation: number;
}

/**
 * The durable-timer part of the memory store: a min-heap of "claimable at" times with
 * lazy deletion. A claim moves a timer's claimable time to the end of the claim, so an
 * uncompleted timer fires again later (late, never never).
 */
export class MemoryTimers {
  readonly #timers = new Map<string, TimerState>();
  readonly #heap = new MinHeap<HeapEntry>((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
  #generation = 0;

  /** Adds or replaces a timer; replacing clears any claim. */
  schedule(timer: TimerRecord): void {
    const id = this.#timers.has(timer.id) ? timer.id : compactString(timer.id);
    this.#set(
      { id, conversationId: timer.conversationId, name: timer.name, dueAt: timer.dueAt },
      timer.dueAt,
    );
  }

  /** The timers of one conversation, in `dueAt` order (copies). */
  ofConversation(conversationId: string): TimerRecord[] {
    const found: TimerRecord[] = [];
    for (const t of this.#timers.values()) {
      if (t.conversationId === conversationId)
        found.push({ id: t.id, conversationId, name: t.name, dueAt: t.dueAt });
    }
    return found.sort((a, b) => a.dueAt - b.dueAt || (a.id < b.id ? -1 : 1));
  }

  cancel(id: string): void {
    this.#timers.delete(id);
    this.#compact();
  }

  /** Claims up to `limit` timers claimable at `now`, hiding each until `now + claimMs`. */
  claimDue(now: number, limit: number, claimMs: number): TimerRecord[] {
    const claimed: TimerRecord[] = [];
    while (claimed.length < limit) {
      const top = this.#heap.peek();
      if (top === undefined || top.at > now) break;
      this.#heap.pop();
      const state = this.#timers.get(top.id);
      if (state === undefined || state.generation !== top.generation) continue;
      this.#set(state, now + claimMs);
      claimed.push(copy(state));
    }
    return claimed;
  }

  /** Removes a timer unless it was rescheduled to another `dueAt` meanwhile. */
  complete(id: string, dueAt: number): void {
    const state = this.#timers.get(id);
    if (state !== undefined && state.dueAt === dueAt) this.cancel(id);
  }

  /** The earliest time at which some timer can be claimed (a claimed one: when its claim ends). */
  nextDue(): number | undefined {
    for (;;) {
      const top = this.#heap.peek();
      if (top === undefined) return undefined;
      const state = this.#timers.get(top.id);
      if (state !== undefined && state.generation === top.generation) return top.at;
      this.#heap.pop();
    }
  }

  #set(record: TimerRecord, at: number): void {
    const generation = ++this.#generation;
    this.#timers.set(record.id, {
      id: record.id,
      conversationId: record.conversationId,
      name: record.name,
      dueAt: record.dueAt,
      generation,
    });
    this.#heap.push({ at, id: record.id, generation });
    this.#compact();
  }

  /** Rebuilds the heap when stale entries outnumber live ones, so memory stays bounded. */
  #compact(): void {
    if (this.#heap.size <= 2 * this.#timers.size + 1024) return;
    this.#heap.retain((e) => this.#timers.get(e.id)?.generation === e.generation);
  }
}

function copy(timer: TimerRecord): TimerRecord {
  return {
    id: timer.id,
    conversationId: timer.conversationId,
    name: timer.name,
    dueAt: timer.dueAt,
  };
}
