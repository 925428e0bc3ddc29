/**
 * Backup and restore of a SQLite state file. A backup is taken while the bot runs:
 * `VACUUM INTO` on a second connection reads one snapshot (a read transaction of the WAL
 * journal) and writes it as a compact file, so it is consistent whatever the bot writes
 * meanwhile (`libsql` has no online-backup API: its `backup()` throws "not implemented").
 * A restore refuses a file that belongs to another bot (its key id or label differ) unless
 * forced, and refuses to replace a state file a live process holds.
 */
import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import Database from 'libsql';
import { SQLITE_SCHEMA_VERSION, openStateFile, releaseStateFile } from './sqlite-schema.js';
import { readStateIdentity, type StateIdentity } from './sqlite-identity.js';

/** A backup or restore that cannot be done as asked; the message says why and how to fix it. */
export class StateBackupError extends Error {
  override readonly name = 'StateBackupError';
}

/** What {@link backupStateFile} wrote. */
export interface BackupResult {
  readonly file: string;
  readonly bytes: number;
  readonly conversations: number;
  readonly identity: StateIdentity;
}

/** What a state or backup file holds, as {@link describeStateFile} reads it. */
export interface StateFileFacts {
  readonly schema: number;
  readonly conversations: number;
  readonly identity: StateIdentity;
}

/**
 * Reads a state file's schema version, conversation count and identity on a connection of
 * its own (no holder record taken). Throws {@link StateBackupError} when the file is not a
 * switchboard state file or fails SQLite's integrity check.
 */
export function describeStateFile(path: string): StateFileFacts {
  if (!existsSync(path)) throw new StateBackupError(`${path}: no such file`);
  const db = new Database(path);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const check = db.prepare('PRAGMA quick_check').raw().get() as [string] | undefined;
    if (check?.[0] !== 'ok')
      throw new StateBackupError(`${path}: SQLite integrity check failed (${String(check?.[0])})`);
    const hasMeta = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
      .raw()
      .get();
    const schema =
      hasMeta === undefined
        ? undefined
        : (db.prepare("SELECT value FROM meta WHERE key = 'schema'").raw().get() as
            [string] | undefined);
    if (schema === undefined)
      throw new StateBackupError(`${path} is not a switchboard state file (no schema version)`);
    const conversations = db.prepare('SELECT COUNT(*) FROM conversations').raw().get() as [number];
    return {
      schema: Number(schema[0]),
      conversations: Number(conversations[0]),
      identity: readStateIdentity(db),
    };
  } catch (error) {
    if (error instanceof StateBackupError) throw error;
    throw new StateBackupError(
      `${path} cannot be read as a state file: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    db.close();
  }
}

/**
 * Writes a consistent copy of the state file `source` to `target` while a bot may be
 * running on it. `force` replaces an existing `target`. The copy is written beside the
 * target and renamed into place, so `target` is never a half-written file; the running
 * process's holder record is left out of it.
 * @example
 * const result = await backupStateFile('.switchboard/state.db', 'backups/state-2026-03-02.db');
 */
export function backupStateFile(
  source: string,
  target: string,
  options: { readonly force?: boolean } = {},
): BackupResult {
  describeStateFile(source);
  if (existsSync(target) && options.force !== true)
    throw new StateBackupError(
      `${target} exists; choose another file or pass --force to replace it`,
    );
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  const db = new Database(source);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new StateBackupError(
      `backup of ${source} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    db.close();
  }
  const copy = new Database(partial);
  try {
    copy.prepare("DELETE FROM meta WHERE key = 'holder'").run();
    copy
      .prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('backup_taken_at', ?)")
      .run(new Date().toISOString());
  } finally {
    copy.close();
  }
  renameSync(partial, target);
  const facts = describeStateFile(target);
  return {
    file: target,
    bytes: statSync(target).size,
    conversations: facts.conversations,
    identity: facts.identity,
  };
}

/** Who the restored state must belong to. */
export interface RestoreExpectation {
  /** The key id of the bot's API key (`keyIdOf(MESSAGING_API_KEY)`). */
  readonly keyId?: string;
  /** The operator label the bot runs with, when it has one. */
  readonly label?: string;
}

/** What {@link restoreStateFile} did. */
export interface RestoreResult {
  readonly file: string;
  /** Where the state file that was replaced now is (undefined: there was none). */
  readonly previous: string | undefined;
  readonly conversations: number;
  readonly identity: StateIdentity;
}

/**
 * Replaces the state file `target` with the backup `backup`, after checking that the
 * backup belongs to this bot: its key id must be `expected.keyId`, and its label (when both
 * it and the bot's have one, the bot's given or the one in the current state file) must be
 * the same. `force` skips those checks, not the others: the backup must be a switchboard
 * state file no newer than this code, and no live process may hold `target` (stop the bot
 * first). The replaced file is kept as `<target>.before-restore-<time>`.
 * @example
 * restoreStateFile('backups/state.db', '.switchboard/state.db', { keyId: keyIdOf(apiKey) });
 */
export function restoreStateFile(
  backup: string,
  target: string,
  expected: RestoreExpectation,
  options: { readonly force?: boolean; readonly now?: Date } = {},
): RestoreResult {
  const facts = describeStateFile(backup);
  if (facts.schema > SQLITE_SCHEMA_VERSION)
    throw new StateBackupError(
      `${backup} has schema version ${facts.schema}; this switchboard knows ${SQLITE_SCHEMA_VERSION}: upgrade switchboard`,
    );
  const current = existsSync(target) ? holdAndRead(target) : undefined;
  if (options.force !== true) refuseForeign(backup, facts.identity, expected, current);
  const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const previous = current === undefined ? undefined : `${target}.before-restore-${stamp}`;
  if (previous !== undefined)
    for (const suffix of ['', '-wal', '-shm'])
      if (existsSync(`${target}${suffix}`))
        renameSync(`${target}${suffix}`, `${previous}${suffix}`);
  copyFileSync(backup, target);
  // Opened once as the bot will open it: the schema is brought up to date here.
  const db = openStateFile(target);
  // Leases in the copy were held by the process that wrote the source file, which never
  // opens this one: released (tokens kept, so fencing tokens still only grow), or the
  // restored bot would wait out each one before answering those conversations.
  db.prepare("UPDATE leases SET owner = '', expires_at = 0 WHERE owner <> ''").run();
  releaseStateFile(db, target);
  db.close();
  return { file: target, previous, conversations: facts.conversations, identity: facts.identity };
}

/** Takes the target's holder record (refused when a live process holds it) and reads its identity. */
function holdAndRead(target: string): StateIdentity {
  let db: Database.Database;
  try {
    db = openStateFile(target);
  } catch (error) {
    throw new StateBackupError(
      `${target} is in use: stop the bot before restoring (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  try {
    return readStateIdentity(db);
  } finally {
    releaseStateFile(db, target);
    db.close();
  }
}

function refuseForeign(
  backup: string,
  found: StateIdentity,
  expected: RestoreExpectation,
  current: StateIdentity | undefined,
): void {
  const force = 'pass --force to restore it anyway';
  if (expected.keyId === undefined)
    throw new StateBackupError(
      `set MESSAGING_API_KEY to this bot's key so that ${backup} can be checked, or ${force}`,
    );
  if (found.keyId === undefined)
    throw new StateBackupError(
      `${backup} records no key id (written before switchboard recorded one), so it cannot be checked against this bot (key id ${expected.keyId}); ${force}`,
    );
  if (found.keyId !== expected.keyId)
    throw new StateBackupError(
      `${backup} belongs to key id ${found.keyId}${found.label === undefined ? '' : ` (label "${found.label}")`}, not to this bot's key id ${expected.keyId}; restore the backup of this bot, or after a key rotation ${force}`,
    );
  const label = expected.label ?? current?.label;
  if (label !== undefined && found.label !== undefined && label !== found.label)
    throw new StateBackupError(
      `${backup} has label "${found.label}", this bot's is "${label}"; ${force}`,
    );
}
