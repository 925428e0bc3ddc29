import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Slots looked at before giving up (that many live workers of one bot on one machine). */
const DEFAULT_SLOTS = 64;

/** Lock files claimed by this process (a worker restarted in the same process takes its slot back). */
const claimedHere = new Set<string>();

/** Options of {@link claimWorkerId} (tests inject the pid and the liveness check). */
export interface ClaimWorkerIdOptions {
  readonly slots?: number;
  readonly pid?: number;
  readonly isAlive?: (pid: number) => boolean;
}

/** A claimed worker id: stable across restarts of the worker that holds its slot. */
export interface ClaimedWorkerId {
  readonly id: string;
  /** The slot's number (its files are `worker-<slot>.id` and `worker-<slot>.pid`). */
  readonly slot: number;
  /** Frees the slot (on a clean stop; after a crash, a dead pid frees it). */
  release(): void;
}

/**
 * A stable worker id kept in `dir` (beside the bot's state): the first free slot
 * `worker-<n>` is claimed with an exclusive lock file holding this process's pid, and its
 * id file (created once, random) names the worker. A slot whose pid is dead (kill -9, a
 * crash) is taken over, so a restarted worker gets its own id back and takes its leases
 * back at once; two live workers never share a slot.
 * @example
 * const claimed = claimWorkerId('.switchboard/workers');
 * process.once('exit', () => claimed.release());
 */
export function claimWorkerId(dir: string, options: ClaimWorkerIdOptions = {}): ClaimedWorkerId {
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processIsAlive;
  const slots = options.slots ?? DEFAULT_SLOTS;
  mkdirSync(dir, { recursive: true });
  for (let slot = 0; slot < slots; slot++) {
    const lock = join(dir, `worker-${slot}.pid`);
    if (claimedHere.has(lock) || !claim(lock, pid, isAlive)) continue;
    claimedHere.add(lock);
    const id = idOf(join(dir, `worker-${slot}.id`));
    return {
      id,
      slot,
      release() {
        claimedHere.delete(lock);
        if (readPid(lock) === pid) unlinkQuietly(lock);
      },
    };
  }
  throw new Error(
    `no free worker id slot in ${dir} (${slots} live workers hold one each); set SWITCHBOARD_WORKER_ID`,
  );
}

/** Takes the lock file: free, or held by a dead pid (or by this very process, restarted). */
function claim(lock: string, pid: number, isAlive: (pid: number) => boolean): boolean {
  if (createExclusive(lock, String(pid))) return true;
  const holder = readPid(lock);
  // Unreadable (being written right now by another claimer): not ours to take.
  if (holder === undefined) return false;
  if (holder !== pid && isAlive(holder)) return false;
  // Take the stale lock over by renaming it away: of racing claimers only one rename
  // moves it; one that moved a fresh lock (its content changed) puts it back.
  const aside = `${lock}.stale-${pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lock, aside);
  } catch {
    return false; // Another claimer moved it first.
  }
  if (readPid(aside) !== holder) {
    renameSync(aside, lock);
    return false;
  }
  unlinkQuietly(aside);
  return createExclusive(lock, String(pid));
}

function createExclusive(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // Gone meanwhile: the caller looks again or moves on.
  }
}

/** The slot's id, created once (random) and kept. */
function idOf(path: string): string {
  const fresh = `${hostname()}:${randomBytes(6).toString('hex')}`;
  if (createExclusive(path, fresh)) return fresh;
  const stored = readFileSync(path, 'utf8').trim();
  if (/^[\w.:-]{1,200}$/.test(stored)) return stored;
  // A damaged id file: a new id (the old leases expire by themselves).
  writeFileSync(path, fresh);
  return fresh;
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to free.
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
