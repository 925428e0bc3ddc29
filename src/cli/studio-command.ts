import type { Command } from 'commander';
import { BotConfigError } from '../engine/types.js';
import { createLogger } from '../log/logger.js';
import { DEFAULT_DEV_BOT } from './dev-command.js';
import { CliError } from './run-command.js';
import { catchSignals, stopOnce } from './signals.js';

/**
 * Adds `switchboard studio [bot] [--port <n>]`: the sandbox, the bot against it and a
 * local web page to try, watch and debug the bot (phone, inbox, clock, flow panel).
 */
export function registerStudioCommand(program: Command): Command {
  return program
    .command('studio')
    .description(
      'Try, watch and debug a bot in a local web page, against a sandbox (no configuration needed)',
    )
    .argument('[bot]', 'a flow file or a bot module/directory (default: the support-desk example)')
    .option(
      '-p, --port <port>',
      'port of the web page on 127.0.0.1 (default: 4321; 0 = a free port)',
    )
    .option('--no-poll', 'receive messages by callbacks only (default: callbacks and polling)')
    .option('--no-watch', 'do not reload the bot when its files change')
    .option(
      '--attach',
      'show the real conversations of the store `switchboard run` uses (REDIS_URL, else --state / STATE_PATH), read-only: no sandbox, nothing sent or changed',
    )
    .option(
      '--state <file>',
      'with --attach: the SQLite state file (default: STATE_PATH or .switchboard/state.db beside the bot)',
    )
    .option(
      '--host <address>',
      'with --attach: the address to bind (default 127.0.0.1; any other needs a token)',
    )
    .option(
      '--token <secret>',
      'with --attach: every request must present it (default: STUDIO_TOKEN; at least 16 characters)',
    )
    .option('--limit <n>', 'with --attach: conversations read per look (default 1000)')
    .addHelpText(
      'after',
      `
Examples:
  $ switchboard studio
  $ switchboard studio examples/appointment-booking --port 5000
  $ npm run studio
  $ STATE_PATH=.switchboard/state.db switchboard studio examples/support-desk --attach
  $ STUDIO_TOKEN=$(openssl rand -hex 24) switchboard studio examples/support-desk --attach --host 0.0.0.0

Open the printed URL, type "hi" and press Enter. Editing a flow or handler file reloads the
bot; running conversations go on. LOG_LEVEL (default warn) sets what the bot logs to stderr.`,
    )
    .action(
      async (
        botPath: string | undefined,
        opts: {
          port?: string;
          poll: boolean;
          watch: boolean;
          attach?: boolean;
          state?: string;
          host?: string;
          token?: string;
          limit?: string;
        },
      ) => {
        const port = opts.port === undefined ? 4321 : Number(opts.port);
        if (!Number.isInteger(port) || port < 0 || port > 65_535)
          throw new CliError(
            `switchboard studio: --port must be an integer 0..65535 (got "${opts.port}")`,
            2,
          );
        const level = process.env['LOG_LEVEL'] ?? 'warn';
        const logger = createLogger({
          level:
            level === 'error' || level === 'info' || level === 'debug' || level === 'silent'
              ? level
              : 'warn',
          format: 'pretty',
        });
        // Loaded on use: the other commands (and every `run` worker) do not pay for the studio.
        if (opts.attach === true) {
          const { runStudioAttach } = await import('./studio-attach.js');
          return runStudioAttach(
            botPath ?? DEFAULT_DEV_BOT,
            {
              port,
              ...(opts.host === undefined ? {} : { host: opts.host }),
              ...(opts.token === undefined ? {} : { token: opts.token }),
              ...(opts.state === undefined ? {} : { state: opts.state }),
              ...(opts.limit === undefined ? {} : { limit: opts.limit }),
            },
            logger,
          );
        }
        for (const [flag, value] of [
          ['--state', opts.state],
          ['--host', opts.host],
          ['--token', opts.token],
          ['--limit', opts.limit],
        ] as const)
          if (value !== undefined)
            throw new CliError(
              `switchboard studio: ${flag} applies to --attach only (the sandbox studio binds to 127.0.0.1)`,
              2,
            );
        const { startStudio, StudioStartError } = await import('../studio/studio.js');
        const signals = catchSignals();
        let studio;
        try {
          studio = await startStudio({
            bot: botPath ?? DEFAULT_DEV_BOT,
            port,
            logger,
            poll: opts.poll,
            watch: opts.watch,
          });
        } catch (error) {
          if (error instanceof StudioStartError || error instanceof BotConfigError)
            throw new CliError(`switchboard studio: ${error.message}`, 2);
          if ((error as { code?: unknown }).code === 'EADDRINUSE')
            throw new CliError(
              `switchboard studio: port ${port} is in use; pick another with --port (0 = any free port)`,
              2,
            );
          throw error;
        }
        const flows = studio.runtime
          .resolved()
          .flows.map((f) => f.id)
          .join(', ');
        signals.handle(stopOnce(() => studio.close()));
        process.stdout.write(
          [
            `switchboard studio: ${botPath ?? 'examples/support-desk'} (flows: ${flows})`,
            `Open ${studio.url} in your browser. Ctrl+C stops.`,
            '',
          ].join('\n'),
        );
      },
    );
}
