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
 * A thread answers with how many requests it has done so far (it does them in order).
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
let done = 0;
parentPort.on('message', (request) => {
  if (request === null) { db.close(); parentPort.close(); return; }
  try {
    lookups(request[0], request[1]);
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
  parentPort.postMessage(++done);
});
`;

/** Requests the threads may have in hand; past it, a caller waits behind the last one. */
export const PREFETCH_MAX_PENDING = 64;

/** The threads, one per share of the lookups (see WORKER_SOURCE). */
const PARTS = 2;

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
  /** Resolvers of the requests in hand, oldest first. */
  #pending: Array<() => void> = [];
  /** The promise of the newest request in hand. */
  #last: Promise<void> | undefined;
  /** Requests each thread has done; a request is done once every thread has done it. */
  readonly #doneBy: number[];
  #done = 0;
  #stopped = false;
  readonly #exited: Promise<void>;

  constructor(path: string, onError: (message: string) => void = () => undefined) {
    const libsql = createRequire(import.meta.url).resolve('libsql');
    this.#doneBy = Array.from({ length: PARTS }, () => 0);
    this.#workers = this.#doneBy.map((_, part) => {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, libsql, part } });
      worker.unref();
      worker.on('message', (message: number | { error: string }) => {
        if (typeof message === 'number') this.#answered(part, message);
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

  /**
   * Has the thread read the pages of `conversationId`'s next turn (`seenKey`: the dedup
   * mark its inbox item will write); the promise resolves once it has, or undefined when
   * the thread is gone and nothing is waiting (the caller goes on at once).
   */
  warm(conversationId: string, seenKey: string): Promise<void> | undefined {
    if (this.#stopped) return undefined;
    if (this.#pending.length >= PREFETCH_MAX_PENDING) return this.#last;
    const answered = new Promise<void>((resolve) => this.#pending.push(resolve));
    this.#last = answered;
    for (const worker of this.#workers) worker.postMessage([conversationId, seenKey]);
    return answered;
  }

  /** Lets every waiting caller go and ends the thread (its connection closed). */
  stop(): Promise<void> {
    if (!this.#stopped) {
      this.#end();
      for (const worker of this.#workers) worker.postMessage(null);
    }
    return this.#exited;
  }

  #answered(part: number, count: number): void {
    this.#doneBy[part] = count;
    const done = Math.min(...this.#doneBy);
    while (this.#done < done) {
      this.#done++;
      this.#pending.shift()?.();
    }
  }

  #end(): void {
    this.#stopped = true;
    const waiting = this.#pending;
    this.#pending = [];
    this.#last = undefined;
    for (const resolve of waiting) resolve();
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
