import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * A prefetch thread: its own connection (query-only, a small page cache), reading for
 * each conversation it is told the B-tree leaves the conversation's next turn will touch,
 * so that the pages are in the OS page cache when the store's connection reads them on
 * the event loop. Each lookup descends to the leaf whether the key is there or not.
 * There are two threads, each with its share of the lookups, so that a message waits for
 * the slower share rather than for all its disk reads one after the other:
 * - part 0: the inbox dedup mark (`seen`, by its exact key), the conversation's send
 *   records (their ids begin with the conversation id) and its lease;
 * - part 1: the conversation document (its id index and its row), then the entry of the
 *   expiry index that rewriting the document deletes.
 * A thread answers with how many requests it has done so far (it does them in order) and
 * whether this one read the disk: its thread's `read_bytes` in /proc/thread-self/io grew
 * (where there is no /proc: it took over 1 ms).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsql);
const db = new Database(workerData.path);
db.exec('PRAGMA query_only = 1');
db.exec('PRAGMA busy_timeout = 2000');
db.exec('PRAGMA cache_size = -1024');
const q = (sql) => db.prepare(sql).raw();
const parts = [
  () => {
    const seen = q('SELECT 1 FROM seen WHERE key = ?');
    const sends = q('SELECT 1 FROM sends WHERE id >= ? AND id < ? LIMIT 1');
    const lease = q('SELECT 1 FROM leases WHERE name = ?');
    return (conversationId, seenKey) => {
      seen.get(seenKey);
      sends.get(conversationId + ':', conversationId + ';');
      lease.get('conv:' + conversationId);
    };
  },
  () => {
    const doc = q('SELECT expires_at FROM conversations WHERE id = ?');
    const expiry = q('SELECT 1 FROM conversations INDEXED BY conversations_expiry WHERE expires_at = ? LIMIT 1');
    return (conversationId) => {
      const row = doc.get(conversationId);
      if (row !== undefined) expiry.get(row[0]);
    };
  },
];
const lookups = parts[workerData.part]();
const { readFileSync } = require('node:fs');
const readBytes = () => {
  try {
    return Number(/^read_bytes: (\\d+)$/m.exec(readFileSync('/proc/thread-self/io', 'utf8'))[1]);
  } catch {
    return undefined;
  }
};
let done = 0;
parentPort.on('message', (request) => {
  if (request === null) { db.close(); parentPort.close(); return; }
  const bytes = readBytes();
  const started = performance.now();
  try {
    lookups(request[0], request[1]);
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
  const disk = bytes === undefined ? performance.now() - started > 1 : readBytes() > bytes;
  parentPort.postMessage([++done, disk]);
});
`;

/** Requests the threads may have in hand; past it, a caller waits behind the last one. */
export const PREFETCH_MAX_PENDING = 64;

/** The threads, one per share of the lookups (see WORKER_SOURCE). */
const PARTS = 2;

/** Options of {@link SqlitePrefetch}. */
export interface SqlitePrefetchOptions {
  /** Told when a thread fails or a lookup throws. */
  readonly onError?: (message: string) => void;
  /**
   * Callers wait for the threads while one of their lookups read the disk within this
   * many ms; otherwise only every {@link sampleEvery}th call is looked up, and nobody
   * waits for it. Default {@link PREFETCH_COLD_FOR_MS}.
   */
  readonly coldForMs?: number;
  /** Callers wait from the start, for `coldForMs` (default: from the first disk read). */
  readonly startCold?: boolean;
  /** While nothing reads the disk, one call in this many is looked up. Default 8. */
  readonly sampleEvery?: number;
}

/** How long after a lookup that read the disk callers keep waiting for the threads. */
export const PREFETCH_COLD_FOR_MS = 10_000;

/**
 * Reads a conversation's pages on a worker thread before the store's connection needs
 * them. On a state file larger than the OS keeps in memory (and larger than SQLite's own
 * page cache), each message's first reads of its conversation's B-tree leaves go to the
 * disk, and the store's connection reads synchronously on the event loop: every other
 * conversation waits for them. {@link warm} has the thread read those leaves (a query-only
 * connection of its own; WAL: it sees every committed page) and resolves once it has; the
 * caller then does its reads and writes on the page cache.
 *
 * Promises resolve in the order {@link warm} was called (the thread works in order, and a
 * caller past {@link PREFETCH_MAX_PENDING} waits behind the last request). If the thread
 * fails, every waiting caller is let go and {@link warm} returns undefined from then on.
 * @example
 * const prefetch = new SqlitePrefetch('.switchboard/state.db');
 * await prefetch.warm('conv_1', seenKey); // then read and write conv_1 on the event loop
 * await prefetch.stop();
 */
export class SqlitePrefetch {
  readonly #workers: Worker[];
  /** The requests in hand that a caller waits for, oldest first. */
  #pending: Array<{ readonly request: number; readonly resolve: () => void }> = [];
  /** Requests posted so far. */
  #posted = 0;
  /** Calls since the last one sampled (while nothing reads the disk). */
  #unsampled = 0;
  /** Until when callers wait (a lookup read the disk less than `coldForMs` ago). */
  #coldUntil: number;
  readonly #coldForMs: number;
  readonly #sampleEvery: number;
  /** The promise of the newest request in hand. */
  #last: Promise<void> | undefined;
  /** Requests each thread has done; a request is done once every thread has done it. */
  readonly #doneBy: number[];
  #stopped = false;
  readonly #exited: Promise<void>;

  constructor(path: string, options: SqlitePrefetchOptions = {}) {
    const onError = options.onError ?? (() => undefined);
    this.#coldForMs = options.coldForMs ?? PREFETCH_COLD_FOR_MS;
    this.#sampleEvery = options.sampleEvery ?? 8;
    this.#coldUntil = options.startCold === true ? performance.now() + this.#coldForMs : 0;
    const libsql = createRequire(import.meta.url).resolve('libsql');
    this.#doneBy = Array.from({ length: PARTS }, () => 0);
    this.#workers = this.#doneBy.map((_, part) => {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, libsql, part } });
      worker.unref();
      worker.on('message', (message: [number, boolean] | { error: string }) => {
        if (Array.isArray(message)) this.#answered(part, message[0], message[1]);
        else onError(`SQLite prefetch: ${message.error}`);
      });
      worker.on('error', (error) => {
        onError(`SQLite prefetch thread failed: ${error.message}`);
        this.#end();
      });
      return worker;
    });
    this.#exited = Promise.all(
      this.#workers.map(
        (worker) =>
          new Promise<void>((resolve) =>
            worker.once('exit', () => {
              this.#end();
              resolve();
            }),
          ),
      ),
    ).then(() => undefined);
  }

  /** True while the thread takes requests. */
  get running(): boolean {
    return !this.#stopped;
  }

  /** True while callers wait for the threads (their lookups read the disk lately). */
  get cold(): boolean {
    return performance.now() < this.#coldUntil;
  }

  /**
   * Has the threads read the pages of `conversationId`'s next turn (`seenKey`: the dedup
   * mark its inbox item will write) and returns a promise that resolves once they have;
   * undefined: go on at once (the threads are gone, or their lookups lately found every
   * page in memory, and nobody earlier is waiting).
   */
  warm(conversationId: string, seenKey: string): Promise<void> | undefined {
    if (this.#stopped) return undefined;
    if (!this.cold) {
      if (++this.#unsampled >= this.#sampleEvery) {
        this.#unsampled = 0;
        this.#post(conversationId, seenKey);
      }
      // Behind the callers still waiting, if any (calls go on in call order).
      return this.#pending.length > 0 ? this.#last : undefined;
    }
    if (this.#pending.length >= PREFETCH_MAX_PENDING) return this.#last;
    const request = this.#post(conversationId, seenKey);
    const answered = new Promise<void>((resolve) => this.#pending.push({ request, resolve }));
    this.#last = answered;
    return answered;
  }

  #post(conversationId: string, seenKey: string): number {
    for (const worker of this.#workers) worker.postMessage([conversationId, seenKey]);
    return ++this.#posted;
  }

  /** Lets every waiting caller go and ends the thread (its connection closed). */
  stop(): Promise<void> {
    if (!this.#stopped) {
      this.#end();
      for (const worker of this.#workers) worker.postMessage(null);
    }
    return this.#exited;
  }

  #answered(part: number, count: number, disk: boolean): void {
    if (disk) this.#coldUntil = performance.now() + this.#coldForMs;
    this.#doneBy[part] = count;
    const done = Math.min(...this.#doneBy);
    while (this.#pending.length > 0 && (this.#pending[0]?.request ?? 0) <= done)
      this.#pending.shift()?.resolve();
  }

  #end(): void {
    this.#stopped = true;
    const waiting = this.#pending;
    this.#pending = [];
    this.#last = undefined;
    for (const { resolve } of waiting) resolve();
  }
}

/**
 * Whether a state file wants the prefetch thread: `option` when given, else when the file
 * is larger than SQLite's page cache (`cacheMb`): a smaller file ends up whole in that
 * cache, and its reads never reach the disk.
 */
export function prefetchWanted(path: string, cacheMb: number, option?: boolean): boolean {
  if (path === ':memory:') return false;
  if (option !== undefined) return option;
  try {
    return statSync(path).size > cacheMb * 2 ** 20;
  } catch {
    return false;
  }
}
