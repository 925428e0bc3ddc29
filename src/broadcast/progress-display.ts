import type { Clock } from '../core/clock.js';
import type { BroadcastProgress } from './broadcast-tally.js';

/** Options of {@link createProgressDisplay}. */
export interface ProgressDisplayOptions {
  readonly stream: NodeJS.WritableStream;
  /** A live bar on a terminal; JSON lines otherwise. */
  readonly tty: boolean;
  readonly clock: Clock;
  /** Interval of JSON lines, ms (default 5,000). */
  readonly jsonIntervalMs?: number;
}

/** Shows a broadcast's progress. */
export interface ProgressDisplay {
  update(progress: BroadcastProgress): void;
  /** The run pauses: a 429 or 503 named a wait. */
  pause(code: string, ms: number): void;
  /** Draws the last state and ends the bar's line. */
  finish(): void;
}

const BAR_WIDTH = 30;

/**
 * A progress bar with rate and ETA on a terminal (redrawn at most 10 times a second), or
 * one JSON line every few seconds when the output is a file or a pipe.
 * @example
 * const display = createProgressDisplay({ stream: process.stderr, tty: process.stderr.isTTY === true, clock });
 */
export function createProgressDisplay(options: ProgressDisplayOptions): ProgressDisplay {
  const { stream, tty, clock } = options;
  const every = tty ? 100 : (options.jsonIntervalMs ?? 5_000);
  let last: BroadcastProgress | undefined;
  let shownAt = Number.NEGATIVE_INFINITY;
  const show = (p: BroadcastProgress): void => {
    shownAt = clock.now();
    if (tty) stream.write(`\r${bar(p, clock.now())}\x1b[K`);
    else
      stream.write(
        `${JSON.stringify({ progress: { ...p, at: new Date(clock.now()).toISOString() } })}\n`,
      );
  };
  return {
    update(p) {
      last = p;
      if (clock.now() - shownAt >= every) show(p);
    },
    pause(code, ms) {
      const text = `paused ${Math.ceil(ms / 1000)} s: the API answered ${code}`;
      if (tty) stream.write(`\r${text}\x1b[K\n`);
      else stream.write(`${JSON.stringify({ pause: { code, ms } })}\n`);
    },
    finish() {
      if (last !== undefined) show(last);
      if (tty) stream.write('\n');
    },
  };
}

function bar(p: BroadcastProgress, now: number): string {
  const ratio = p.total === 0 ? 1 : p.done / p.total;
  const filled = Math.round(ratio * BAR_WIDTH);
  const eta =
    p.settlingUntil !== undefined
      ? `settling ${Math.ceil((p.settlingUntil - now) / 1000)} s`
      : p.etaSeconds === undefined
        ? 'ETA --'
        : `ETA ${formatSeconds(p.etaSeconds)}`;
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${p.done}/${p.total} ` +
    `${Math.floor(ratio * 100)}% ${p.perMinute}/min ${eta} ` +
    `(accepted ${p.accepted}, rejected ${p.rejected}${p.inDoubt > 0 ? `, in doubt ${p.inDoubt}` : ''})`
  );
}

function formatSeconds(s: number): string {
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m${String(s % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
