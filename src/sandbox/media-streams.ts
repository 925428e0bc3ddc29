import { BUDGETS } from '../core/limits.js';

/** A hold on downloads, as listed by `GET /sandbox/media/holds`. */
export interface MediaHoldView {
  readonly id: string;
  /** Only downloads of this media id are caught (undefined: any media). */
  readonly mediaId: string | undefined;
  /** Downloads this hold will still catch. */
  readonly remaining: number;
  /** Downloads caught and waiting (headers sent, no body byte yet). */
  readonly waiting: number;
}

interface Hold {
  readonly id: string;
  readonly mediaId: string | undefined;
  remaining: number;
  readonly waiters: Set<() => void>;
}

/** A download caught by a hold: resolves when released; `cancel` when its client went away. */
export interface HeldDownload {
  readonly released: Promise<void>;
  cancel(): void;
}

/**
 * Active media streams per key and per number (spec part 8: 8 each), and holds that
 * keep chosen downloads open (headers sent, no body byte) until released, so tests can
 * fill the slots deterministically. A hold catches the next `count` downloads (of one
 * media id, or of any); other requests and connections are never held. `hold(true)`
 * is the older global switch: every download is held until `hold(false)`.
 */
export class MediaStreams {
  readonly #active = new Map<string, number>();
  readonly #holds: Hold[] = [];
  #globalWaiters = new Set<() => void>();
  #held = false;
  #nextHold = 1;

  /** Takes a slot for every key, or none when any is at the limit. */
  acquire(keys: readonly string[]): { release(): void } | undefined {
    if (keys.some((k) => (this.#active.get(k) ?? 0) >= BUDGETS.mediaStreams)) return undefined;
    for (const k of keys) this.#active.set(k, (this.#active.get(k) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        for (const k of keys) {
          const left = (this.#active.get(k) ?? 1) - 1;
          if (left <= 0) this.#active.delete(k);
          else this.#active.set(k, left);
        }
      },
    };
  }

  /** Active streams counted under a key (`key:<id>` or `number:<id>`). */
  active(key: string): number {
    return this.#active.get(key) ?? 0;
  }

  /** Adds a hold on the next `count` downloads (of `mediaId` when given); returns its id. */
  addHold(count: number, mediaId?: string): MediaHoldView {
    const hold: Hold = {
      id: `hold_${this.#nextHold++}`,
      mediaId,
      remaining: count,
      waiters: new Set(),
    };
    this.#holds.push(hold);
    return view(hold);
  }

  /** Releases the downloads a hold caught and removes it; false when there is no such hold. */
  releaseHold(id: string): boolean {
    const index = this.#holds.findIndex((h) => h.id === id);
    const hold = this.#holds[index];
    if (hold === undefined) return false;
    this.#holds.splice(index, 1);
    for (const w of hold.waiters) w();
    hold.waiters.clear();
    return true;
  }

  /** Releases every hold (and the global switch). */
  releaseAll(): void {
    for (const hold of [...this.#holds]) this.releaseHold(hold.id);
    this.hold(false);
  }

  holds(): MediaHoldView[] {
    return this.#holds.map(view);
  }

  /** While held (the global switch), every download waits before its first body byte. */
  hold(held: boolean): void {
    this.#held = held;
    if (!held) {
      const waiters = this.#globalWaiters;
      this.#globalWaiters = new Set();
      for (const w of waiters) w();
    }
  }

  /**
   * Decides, as a download starts, whether a hold catches it: the first hold with
   * downloads left that matches the media id (else the global switch). Undefined: stream now.
   */
  catchDownload(mediaId: string): HeldDownload | undefined {
    const hold = this.#holds.find(
      (h) => h.remaining > 0 && (h.mediaId === undefined || h.mediaId === mediaId),
    );
    if (hold !== undefined) {
      hold.remaining--;
      return wait(hold.waiters);
    }
    return this.#held ? wait(this.#globalWaiters) : undefined;
  }
}

function wait(waiters: Set<() => void>): HeldDownload {
  let done: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    done = () => {
      waiters.delete(done);
      resolve();
    };
  });
  waiters.add(done);
  return { released, cancel: done };
}

function view(hold: Hold): MediaHoldView {
  return {
    id: hold.id,
    mediaId: hold.mediaId,
    remaining: hold.remaining,
    waiting: hold.waiters.size,
  };
}
