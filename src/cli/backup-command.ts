import { join } from 'node:path';
import type { Command } from 'commander';
import { keyIdOf } from '../api/budgets.js';
import { StateLabelSchema } from '../store/sqlite-identity.js';
import {
  StateBackupError,
  backupStateFile,
  restoreStateFile,
  type RestoreExpectation,
} from '../store/sqlite-backup.js';
import { CliError } from './run-command.js';

/** Where the backup commands write (injectable for tests). */
export interface BackupCommandIo {
  readonly out: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const defaultIo: BackupCommandIo = {
  out: (t) => process.stdout.write(t),
  env: process.env,
};

function statePath(flag: string | undefined, env: BackupCommandIo['env']): string {
  const fromEnv = env['STATE_PATH']?.trim();
  return (
    flag ?? (fromEnv === undefined || fromEnv === '' ? join('.switchboard', 'state.db') : fromEnv)
  );
}

/** Runs `work`, turning a {@link StateBackupError} into one line and exit code 2. */
function oneLine<T>(command: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof StateBackupError)
      throw new CliError(`switchboard ${command}: ${error.message}`, 2, { cause: error });
    throw error;
  }
}

/**
 * Adds `backup <file>` (a consistent copy of the SQLite state file, while the bot runs) and
 * `restore <file>` (checked against the bot's key id and label; `--force` skips the check).
 * @example
 * // switchboard backup backups/state-$(date +%F).db --state .switchboard/state.db
 */
export function registerBackupCommands(program: Command, io: BackupCommandIo = defaultIo): Command {
  program
    .command('backup')
    .description('Copy the SQLite state file while the bot runs (a consistent snapshot)')
    .argument('<file>', 'the backup file to write')
    .option('--state <file>', 'the state file (default: STATE_PATH or .switchboard/state.db)')
    .option('--force', 'replace <file> when it exists')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard backup backups/state.db --state examples/support-desk/.switchboard/state.db\n\nSafe while `switchboard run` writes: SQLite copies one snapshot (VACUUM INTO).',
    )
    .action((file: string, opts: { state?: string; force?: boolean }) => {
      const source = statePath(opts.state, io.env);
      const result = oneLine('backup', () =>
        backupStateFile(source, file, { force: opts.force === true }),
      );
      const who = result.identity.keyId ?? 'no key id recorded';
      io.out(
        `backed up ${source} to ${file}: ${result.conversations} conversations, ${result.bytes} bytes (${who}${result.identity.label === undefined ? '' : `, label "${result.identity.label}"`})\n`,
      );
    });
  program
    .command('restore')
    .description("Replace the SQLite state file with a backup of this bot's (stop the bot first)")
    .argument('<file>', 'the backup file')
    .option(
      '--state <file>',
      'the state file to replace (default: STATE_PATH or .switchboard/state.db)',
    )
    .option('--label <label>', "this bot's label (default: SWITCHBOARD_LABEL)")
    .option('--force', 'restore even when the backup belongs to another key id or label')
    .addHelpText(
      'after',
      `
The backup must carry the key id of MESSAGING_API_KEY (a fingerprint, never the key) and,
when both have one, the same label. The replaced file is kept as <state>.before-restore-<time>.

Examples:
  $ MESSAGING_API_KEY=... switchboard restore backups/state.db --state .switchboard/state.db`,
    )
    .action((file: string, opts: { state?: string; label?: string; force?: boolean }) => {
      const target = statePath(opts.state, io.env);
      const key = io.env['MESSAGING_API_KEY']?.trim();
      const label = opts.label ?? io.env['SWITCHBOARD_LABEL']?.trim();
      if (label !== undefined && label !== '' && !StateLabelSchema.safeParse(label).success)
        throw new CliError('switchboard restore: --label must be 1–100 printable characters', 2);
      const expected: RestoreExpectation = {
        ...(key === undefined || key === '' ? {} : { keyId: keyIdOf(key) }),
        ...(label === undefined || label === '' ? {} : { label }),
      };
      const result = oneLine('restore', () =>
        restoreStateFile(file, target, expected, { force: opts.force === true }),
      );
      io.out(
        `restored ${file} to ${target}: ${result.conversations} conversations` +
          (result.previous === undefined ? '' : `; the replaced file is ${result.previous}`) +
          '\n',
      );
    });
  return program;
}
