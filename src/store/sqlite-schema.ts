/**
 * The tables of {@link SqliteStore}, and how a file is opened: WAL journal, one process
 * per file (a holder record: pid, host and a heartbeat; a dead or silent holder is taken
 * over at once), and the schema version in `meta`. A newer schema refuses to open.
 */
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import Database from 'libsql';
import { z } from 'zod';

/** The schema version this code writes. */
export const SQLITE_SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY, json TEXT NOT NULL, version INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS conversations_expiry ON conversations (expires_at);
CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS seen_expiry ON seen (expires_at);
CREATE TABLE IF NOT EXISTS inbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, conversation_id TEXT NOT NULL, id TEXT NOT NULL,
  sort_key REAL NOT NULL, json TEXT NOT NULL, UNIQUE (conversation_id, id));
CREATE INDEX IF NOT EXISTS inbox_order ON inbox (conversation_id, sort_key, seq);
CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, json TEXT NOT NULL, expires_at INTEGER);
CREATE INDEX IF NOT EXISTS kv_expiry ON kv (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS timers (
  id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, name TEXT NOT NULL,
  due_at INTEGER NOT NULL, claimable_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS timers_claimable ON timers (claimable_at);
CREATE TABLE IF NOT EXISTS sends (
  id TEXT PRIMARY KEY, json TEXT NOT NULL, message_id TEXT, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS sends_message ON sends (message_id) WHERE message_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS sends_expiry ON sends (expires_at);
CREATE TABLE IF NOT EXISTS leases (
  name TEXT PRIMARY KEY, owner TEXT NOT NULL, token INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS budget_log (
  ticket TEXT PRIMARY KEY, rules TEXT NOT NULL, at INTEGER NOT NULL, settled INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS budget_log_at ON budget_log (at);
`;

/** The state file is held by another process (or already open in this one). */
export class StateFileLockedError extends Error {
  override readonly name = 'StateFileLockedError';
  readonly path: string;

  constructor(path: string, options?: { cause?: unknown }) {
    super(
      `state file ${path} is in use by another switchboard process; ` +
        'one process per state file — for several workers use Redis (set REDIS_URL)',
      options,
    );
    this.path = path;
  }
}

/** Options of {@link openStateFile}. */
export interface OpenStateFileOptions {
  /**
   * `normal` (default) survives any process crash; `full` also a power loss, at an fsync
   * per write.
   */
  readonly synchronous?: 'normal' | 'full';
  /**
   * SQLite's page cache in MiB (default {@link DEFAULT_CACHE_MB}; SQLite's own is 2 MB),
   * an upper bound: a small file uses only what it has. A million conversations make a
   * 935 MB file (format-4 documents); bench growth rows on an earlier machine, handling p99
   * at 1M: 4.34–4.45 ms with 32 MiB (3 runs), 3.99 with 64, 3.49–3.72 with 128, for a peak
   * RSS of ~215 → ~235 MB. The other side, measured later on a machine whose page cache kept
   * the whole file: while the file is under 1 GiB, SQLite walks its whole page cache at the
   * end of any transaction that splits an index page mid-tree (random keys do), so there 8 MiB
   * used 10–16% less CPU per message at 1M (medians of two sets of 3 runs) and gave the lower
   * p90 (0.76–1.08 against 1.05–1.67 ms); with the OS cache dropped first, 128 MiB kept the
   * lower p99 (13–16 against 17–19 ms). A server whose memory holds the state file may do
   * better with a smaller cache.
   */
  readonly cacheMb?: number;
  /**
   * The WAL file is cut back to this many MiB (default {@link DEFAULT_WAL_LIMIT_MB}) when
   * it starts over after a checkpoint has caught up (SQLite's `journal_size_limit`).
   * Without a limit it keeps the size of the busiest burst for as long as the process
   * runs (measured: 167 MB after 5 s of writes at full speed, still 167 MB once idle).
   * It is also the WAL's bound under writes that never pause: past it, the checkpointer
   * has the writer catch the WAL up so that it starts over (measured at 250 messages/s:
   * peak ~73 MB with the default, against ~500 MB after 10 s without).
   */
  readonly walLimitMb?: number;
}

/** Default page cache of a state file, in MiB. */
export const DEFAULT_CACHE_MB = 128;

/** Default size, in MiB, the WAL file is cut back to once it starts over. */
export const DEFAULT_WAL_LIMIT_MB = 64;

function positiveMb(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`SqliteStore ${name} must be a positive number of MiB, got ${value}`);
  return value;
}

/**
 * Opens (creating it and its folder) a state file for this process alone, with the
 * schema in place. Throws {@link StateFileLockedError} when another process holds it.
 */
export function openStateFile(path: string, options: OpenStateFileOptions = {}): Database.Database {
  const cacheMb = positiveMb('cacheMb', options.cacheMb ?? DEFAULT_CACHE_MB);
  const walLimitMb = positiveMb('walLimitMb', options.walLimitMb ?? DEFAULT_WAL_LIMIT_MB);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const key = path === ':memory:' ? undefined : resolve(path);
  if (key !== undefined && openHere.has(key)) throw new StateFileLockedError(path);
  const db = new Database(path);
  try {
    db.exec('PRAGMA busy_timeout = 2000');
    db.exec('PRAGMA journal_mode = WAL');
    // Negative: a size in KiB, per connection (SQLite's default is 2 MB).
    db.exec(`PRAGMA cache_size = -${Math.max(1, Math.round(cacheMb * 1024))}`);
    db.exec(`PRAGMA journal_size_limit = ${Math.round(walLimitMb * 2 ** 20)}`);
    db.exec(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    db.exec('BEGIN IMMEDIATE');
    db.exec(SCHEMA);
    if (key !== undefined && heldElsewhere(db, Date.now())) {
      db.exec('ROLLBACK');
      throw new StateFileLockedError(path);
    }
    if (key !== undefined) beat(db, Date.now());
    const row = db.prepare('SELECT value FROM meta WHERE key = ?').raw().get('schema') as
      [string] | undefined;
    const version = row === undefined ? 0 : Number(row[0]);
    if (version > SQLITE_SCHEMA_VERSION) {
      db.exec('ROLLBACK');
      throw new Error(
        `state file ${path} has schema version ${version}; this switchboard knows ` +
          `${SQLITE_SCHEMA_VERSION}: upgrade switchboard`,
      );
    }
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(
      'schema',
      String(SQLITE_SCHEMA_VERSION),
    );
    db.exec('COMMIT');
    if (key !== undefined) openHere.add(key);
    return db;
  } catch (error) {
    db.close();
    if (isBusy(error)) throw new StateFileLockedError(path, { cause: error });
    throw error;
  }
}

/** A holder that has not beaten for this long is taken over (it is gone). */
export const HOLDER_STALE_MS = 30_000;
/** How often an open state file renews its holder record. */
export const HOLDER_BEAT_MS = 10_000;

/** Files open in this process (a second open here is refused too). */
const openHere = new Set<string>();

const Holder = z.object({ pid: z.number(), host: z.string(), beatAt: z.number() });

/** Renews this process's holder record (inside the caller's transaction, or alone). */
export function beat(db: Database.Database, now: number): void {
  const holder = JSON.stringify({ pid: process.pid, host: hostname(), beatAt: now });
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('holder', holder);
}

/** Gives the file up: removes this process's holder record. */
export function releaseStateFile(db: Database.Database, path: string): void {
  if (path === ':memory:') return;
  openHere.delete(resolve(path));
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').raw().get('holder') as
    [string] | undefined;
  const holder = row === undefined ? undefined : Holder.safeParse(JSON.parse(row[0]));
  if (holder?.success === true && holder.data.pid === process.pid) {
    db.prepare('DELETE FROM meta WHERE key = ?').run('holder');
  }
}

/** True when another live process holds the file. */
function heldElsewhere(db: Database.Database, now: number): boolean {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').raw().get('holder') as
    [string] | undefined;
  if (row === undefined) return false;
  const parsed = Holder.safeParse(JSON.parse(row[0]));
  if (!parsed.success) return false;
  const { pid, host, beatAt } = parsed.data;
  if (now - beatAt >= HOLDER_STALE_MS) return false;
  if (host !== hostname()) return true;
  return pid !== process.pid && processAlive(pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isBusy(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_LOCKED')
  );
}
