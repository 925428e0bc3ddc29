import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { loadBot } from '../bot/load-bot.js';
import { BotConfigError } from '../engine/types.js';
import { createLogger } from '../log/logger.js';
import { startBotHarness } from '../testing/bot-harness.js';
import { CHAT_PROMPT, runChat } from './dev-chat.js';
import { DevClock } from './dev-clock.js';
import { listenFailure } from './listen-error.js';
import { CliError } from './run-command.js';
import { catchSignals, stopOnce } from './signals.js';

/** The bot `switchboard dev` runs when none is named. */
export const DEFAULT_DEV_BOT = fileURLToPath(
  new URL('../../examples/support-desk', import.meta.url),
);

const CONTACT_PHONE = '+15551230001';

/**
 * Adds `switchboard dev [bot]`: a sandbox, the bot against it (callbacks and polling)
 * and a terminal chat in which you are the contact. No configuration needed.
 */
export function registerDevCommand(program: Command): Command {
  return program
    .command('dev')
    .description(
      'Chat with a bot in your terminal, against a local sandbox (no configuration needed)',
    )
    .argument('[bot]', 'a flow file or a bot module/directory (default: the support-desk example)')
    .option('-p, --port <port>', 'port of the sandbox API (default: a free port)')
    .option('--no-poll', 'receive messages by callbacks only (default: callbacks and polling)')
    .addHelpText(
      'after',
      `
Examples:
  $ switchboard dev
  $ switchboard dev examples/appointment-booking
  $ switchboard dev flows/order-status.yaml --port 4010

In the chat, type text, pick a button or list row by its number, or use a command:
  /image  /document  /location  /contact  /unsupported  /takeover  /release
  /advance 25h  /state  /help  /quit
Input may be piped: "${CHAT_PROMPT.trim()}" is printed each time the bot has answered; end of input quits.
LOG_LEVEL (default warn) sets what the bot logs to stderr.`,
    )
    .action(async (botPath: string | undefined, opts: { port?: string; poll: boolean }) => {
      const port = opts.port === undefined ? 0 : Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new CliError(
          `switchboard dev: --port must be an integer 0..65535 (got "${opts.port}")`,
          2,
        );
      const loaded = await loadBot(botPath ?? DEFAULT_DEV_BOT);
      if (loaded.status === 'error') throw new CliError(`switchboard dev: ${loaded.message}`, 2);
      const level = process.env['LOG_LEVEL'] ?? 'warn';
      const logger = createLogger({
        level:
          level === 'error' || level === 'info' || level === 'debug' || level === 'silent'
            ? level
            : 'warn',
        format: 'pretty',
      });
      const signals = catchSignals();
      let harness;
      try {
        harness = await startBotHarness({
          bot: loaded.bot,
          clock: new DevClock(),
          logger,
          sandboxPort: port,
          tickMs: 1000,
          ...(opts.poll ? { polling: { minIntervalMs: 1000, maxIntervalMs: 5000 } } : {}),
        });
      } catch (error) {
        if (error instanceof BotConfigError)
          throw new CliError(`switchboard dev: ${error.message.replace(/\n/g, ' ')}`, 2);
        const line = listenFailure(error, { port, host: '127.0.0.1', flag: '--port' });
        if (line !== undefined) throw new CliError(`switchboard dev: ${line}`, 2, { cause: error });
        throw error;
      }
      let closing = false;
      const close = async (): Promise<void> => {
        if (closing) return;
        closing = true;
        await harness.close();
      };
      signals.handle(stopOnce(close));
      const contact = harness.sandbox.config.contacts.find((c) => c.phoneNumber === CONTACT_PHONE);
      const flows = loaded.bot.flows.map((f) => f.id).join(', ');
      process.stdout.write(
        [
          `switchboard dev: ${botPath ?? 'examples/support-desk'} (flows: ${flows})`,
          `sandbox API at ${harness.apiUrl} (key ${harness.sandbox.config.keys[0]?.key ?? '?'})`,
          `You are ${contact?.name ?? 'the contact'} (${CONTACT_PHONE}). Say hi to start; /help lists the commands.`,
          '',
        ].join('\n'),
      );
      await runChat({
        harness,
        phone: CONTACT_PHONE,
        input: process.stdin,
        output: process.stdout,
      });
      await close();
      process.exit(0);
    });
}
