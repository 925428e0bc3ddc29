/**
 * `switchboard inspect <phone | conversation id>`: one conversation's state, variables,
 * pending timers, ownership and timeline, from the SQLite state file or Redis, read-only.
 */
import type { Command } from 'commander';
import {
  findConversations,
  readConversationView,
  type InspectedConversation,
} from '../journal/conversation-view.js';
import { formatConversation } from '../journal/format-timeline.js';
import { openInspectStore } from './inspect-store.js';
import { CliError } from './run-command.js';

/** Where the command writes and what it reads (injectable for tests). */
export interface InspectIo {
  readonly out: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
}

const defaultIo: InspectIo = {
  out: (t) => process.stdout.write(t),
  env: process.env,
  now: Date.now,
};

/**
 * Adds `inspect`.
 * @example
 * // switchboard inspect +15550001111 --state .switchboard/state.db --json
 */
export function registerInspectCommand(program: Command, io: InspectIo = defaultIo): Command {
  program
    .command('inspect')
    .description(
      "Show one conversation's timeline, state, variables, timers and ownership (read-only)",
    )
    .argument('<who>', 'a conversation id, or a contact phone number (every conversation of it)')
    .option(
      '--state <file>',
      'the SQLite state file (default: STATE_PATH or .switchboard/state.db)',
    )
    .option('--json', 'print JSON: { conversations: [view, …] }')
    .addHelpText(
      'after',
      `
Reads the store the bot runs on: REDIS_URL (with REDIS_PREFIX) when set, else the SQLite
state file. Never writes it: safe while the bot runs. Timeline entries come from the
conversation's journal (docs/inspect.md); each send shows its message id and what its
send record says now (a later failure, a reconciliation).

Examples:
  $ switchboard inspect conv_8f2c --state examples/support-desk/.switchboard/state.db
  $ switchboard inspect +15550001111 --json
  $ REDIS_URL=redis+cluster://10.0.0.5:7000 switchboard inspect conv_8f2c`,
    )
    .action(async (who: string, opts: { state?: string; json?: boolean }) => {
      const opened = await openInspectStore({ state: opts.state, env: io.env });
      try {
        const ids = await findConversations(opened.reader, who);
        if (ids.length === 0)
          throw new CliError(
            `switchboard inspect: no conversation "${who}" in ${opened.describe} (not a conversation id, and no contact with that phone)`,
            1,
          );
        const views: InspectedConversation[] = [];
        for (const id of ids) {
          const result = await readConversationView(opened.reader, id, { now: io.now() });
          if (result.status === 'invalid')
            throw new CliError(`switchboard inspect: ${result.error}`, 2);
          if (result.status === 'found') views.push(result.view);
        }
        if (opts.json === true) io.out(`${JSON.stringify({ conversations: views }, null, 2)}\n`);
        else io.out(views.map(formatConversation).join('\n'));
      } finally {
        await opened.close();
      }
    });
  return program;
}
