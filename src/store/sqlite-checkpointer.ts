import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'libsql';

/** How often the checkpointer copies the WAL into the database file. */
export const CHECKPOINT_EVERY_MS = 250;

/** SQLite's default: an automatic checkpoint once the WAL holds this many pages. */
const AUTO_CHECKPOINT_PAGES = 1000;

/** The checkpointer thread: its own connection, a passive checkpoint on a timer. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsql);
const db = new Database(workerData.path);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try { checkpoint.run(); } catch (error) { parentPort.postMessage({ error: String(error) }); }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { checkpoint.run(); } finally { db.close(); parentPort.close(); }
});
`;

/** A running checkpointer; `stop` ends it after a last checkpoint. */
export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the event loop. SQLite checkpoints inside the COMMIT that
 * crosses 1,000 WAL pages, copying pages and syncing the file on the thread that serves
 * every webhook; here a worker thread with its own connection checkpoints every
 * {@link CHECKPOINT_EVERY_MS} (passive: it never blocks the writer), and the writer's own
 * automatic checkpoints are off. If the thread fails, automatic checkpoints come back.
 * @example
 * const checkpointer = startCheckpointer(db, '.switchboard/state.db', (e) => log(e));
 * await checkpointer.stop();
 */
export function startCheckpointer(
  db: Database.Database,
  path: string,
  onError: (message: string) => void = () => undefined,
  everyMs = CHECKPOINT_EVERY_MS,
): Checkpointer {
  const libsql = createRequire(import.meta.url).resolve('libsql');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { libsql, path, everyMs } });
  worker.unref();
  db.exec('PRAGMA wal_autocheckpoint = 0');
  let running = true;
  // Once the thread is gone, for whatever reason, the writer checkpoints by itself again.
  const fallBack = (message: string | undefined): void => {
    if (db.open) db.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    if (running && message !== undefined) onError(message);
    running = false;
  };
  worker.on('message', (message: { error?: string }) => {
    if (message.error !== undefined) onError(`WAL checkpoint failed: ${message.error}`);
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
  };
}
