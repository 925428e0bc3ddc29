import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'libsql';

/** How often the checkpointer looks at the WAL (and copies it while writes are busy). */
export const CHECKPOINT_EVERY_MS = 250;

/**
 * How often it copies the WAL while writes are few: fewer than
 * {@link BUSY_FRAMES_PER_SECOND} frames a second since the last copy. Each copy syncs the WAL and the file (two fsyncs): at the real-load
 * bench's 4.5 messages/s, four copies a second were ~0.8 ms of CPU per message on the
 * checkpointer thread, for ~30 frames each.
 */
export const QUIET_CHECKPOINT_MS = 2_000;

/**
 * Frames written per second (4 MiB at 4 KiB pages) that make the writes busy: the real-load
 * bench writes ~150 a second; a webhook burst ~10,000.
 */
const BUSY_FRAMES_PER_SECOND = 1024;

/** SQLite's default: an automatic checkpoint once the WAL holds this many pages. */
const AUTO_CHECKPOINT_PAGES = 1000;

/**
 * The checkpointer thread: its own connection, a passive checkpoint on a timer (every look
 * while writes are busy, every {@link QUIET_CHECKPOINT_MS} while they are few, never while
 * nothing was committed: `PRAGMA data_version` tells, reading shared memory only). A passive
 * checkpoint never waits for the writer, so under writes that never pause it never copies
 * the very last frames, and the WAL, which only starts over once everything in it is
 * copied, grows without end (~40 MB/s at 250 messages/s; ~60 MB/s in a webhook burst).
 * Once it holds more than `boundFrames` (the size it is cut back to), the thread syncs the
 * database file itself, holding no lock (what the passive checkpoints copied is on disk
 * then), and asks the writer for a catch-up: the writer runs a FULL checkpoint between two
 * group commits, copying and syncing only the frames written since, and its next write
 * starts the WAL over. The thread cannot take the writer lock itself during a burst (the
 * group commits hold it almost all the time), and without the sync first the FULL
 * checkpoint's sync of everything copied held the writer ~30 ms at a million conversations.
 */
const WORKER_SOURCE = `
const { fsyncSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsql);
const db = new Database(workerData.path);
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw();
const dataVersion = db.prepare('PRAGMA data_version').raw();
let seenVersion;
let checkpointedAt = 0;
let lastFrames = 0;
let busy = true;
const tick = () => {
  // Nothing committed since the last look: nothing to copy.
  const [version] = dataVersion.get();
  if (version === seenVersion) return;
  const now = Date.now();
  if (!busy && now - checkpointedAt < workerData.quietEveryMs) return;
  const seconds = Math.max(1, now - checkpointedAt) / 1000;
  seenVersion = version;
  checkpointedAt = now;
  const [, frames] = passive.get();
  // A WAL started over holds only what came since.
  const written = frames >= lastFrames ? frames - lastFrames : frames;
  busy = written >= workerData.busyFramesPerSecond * seconds;
  lastFrames = frames;
  if (workerData.report) parentPort.postMessage({ checkpointed: frames });
  if (workerData.boundFrames <= 0 || frames <= workerData.boundFrames) return;
  if (workerData.fileFd >= 0) fsyncSync(workerData.fileFd);
  parentPort.postMessage({ catchUp: true });
};
const timer = setInterval(() => {
  try { tick(); } catch (error) { parentPort.postMessage({ error: String(error) }); }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { passive.get(); } finally { db.close(); parentPort.close(); }
});
`;

/** A running checkpointer; `stop` ends it after a last checkpoint. */
export interface Checkpointer {
  stop(): Promise<void>;
  /**
   * Closes the descriptor the thread syncs the file through. Call it only once every
   * connection to the file in this process is closed: closing any descriptor of a file
   * drops the process's POSIX locks on it, SQLite's included.
   */
  closeFile(): void;
}

/**
 * Moves WAL checkpoints off the event loop. SQLite checkpoints inside the COMMIT that
 * crosses 1,000 WAL pages, copying pages and syncing the file on the thread that serves
 * every webhook; here a worker thread with its own connection checkpoints every
 * {@link CHECKPOINT_EVERY_MS} (passive: it never blocks the writer), and the writer's own
 * automatic checkpoints are off. If the thread fails, automatic checkpoints come back.
 * `betweenWrites` runs the writer's catch-up checkpoint on `db` outside any transaction
 * (the store's group commit; default: at once); `onCheckpoint` is told each passive
 * checkpoint with the WAL's size in frames.
 * @example
 * const checkpointer = startCheckpointer(db, '.switchboard/state.db', (e) => log(e));
 * await checkpointer.stop();
 */
export function startCheckpointer(
  db: Database.Database,
  path: string,
  onError: (message: string) => void = () => undefined,
  everyMs = CHECKPOINT_EVERY_MS,
  betweenWrites: (task: () => void) => void = (task) => task(),
  onCheckpoint?: (walFrames: number) => void,
): Checkpointer {
  const libsql = createRequire(import.meta.url).resolve('libsql');
  const fileFd = openForSync(path);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      libsql,
      path,
      everyMs,
      quietEveryMs: Math.max(everyMs, QUIET_CHECKPOINT_MS),
      busyFramesPerSecond: BUSY_FRAMES_PER_SECOND,
      report: onCheckpoint !== undefined,
      fileFd,
      boundFrames: walBoundFrames(db),
    },
  });
  worker.unref();
  db.exec('PRAGMA wal_autocheckpoint = 0');
  let running = true;
  // Once the thread is gone, for whatever reason, the writer checkpoints by itself again.
  const fallBack = (message: string | undefined): void => {
    if (db.open) db.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    if (running && message !== undefined) onError(message);
    running = false;
  };
  const full = db.prepare('PRAGMA wal_checkpoint(FULL)').raw();
  let catchUpAsked = false;
  const catchUp = (): void => {
    catchUpAsked = false;
    if (!db.open) return;
    // Never waits: a reader on an old snapshot (another process) or the thread's own
    // checkpoint running makes it copy what it can (or nothing); the thread asks again.
    const waitMs = pragmaNumber(db, 'busy_timeout');
    try {
      db.exec('PRAGMA busy_timeout = 0');
      full.get();
    } catch (error) {
      onError(`WAL checkpoint failed: ${String(error)}`);
    } finally {
      db.exec(`PRAGMA busy_timeout = ${waitMs}`);
    }
  };
  worker.on('message', (message: { error?: string; catchUp?: boolean; checkpointed?: number }) => {
    if (message.error !== undefined) onError(`WAL checkpoint failed: ${message.error}`);
    if (message.checkpointed !== undefined) onCheckpoint?.(message.checkpointed);
    if (message.catchUp === true && running && !catchUpAsked) {
      catchUpAsked = true;
      betweenWrites(catchUp);
    }
  });
  worker.on('error', (error) => fallBack(`WAL checkpointer stopped: ${String(error)}`));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      fallBack(`WAL checkpointer exited with code ${code}`);
      resolve();
    }),
  );
  return {
    async stop() {
      if (running) {
        running = false;
        // Held open until the thread has exited: an unref'd worker being waited for
        // would let the event loop run dry (a top-level `await close()` exits with 13).
        worker.ref();
        worker.postMessage('stop');
      }
      await exited;
    },
    closeFile() {
      if (fileFd >= 0) closeSync(fileFd);
    },
  };
}

/** A descriptor of the database file to sync it with, or -1 (then FULL checkpoints sync it). */
function openForSync(path: string): number {
  try {
    return openSync(path, 'r');
  } catch {
    return -1;
  }
}

/** The WAL's bound in frames: its size limit (`journal_size_limit`) over the page size. */
function walBoundFrames(db: Database.Database): number {
  const limit = pragmaNumber(db, 'journal_size_limit');
  const pageSize = pragmaNumber(db, 'page_size');
  return limit > 0 && pageSize > 0 ? Math.floor(limit / pageSize) : 0;
}

/** The value of a numeric pragma on `db` (0 when it has none). */
function pragmaNumber(db: Database.Database, pragma: string): number {
  return Number((db.prepare(`PRAGMA ${pragma}`).raw().get() as [unknown] | undefined)?.[0] ?? 0);
}
