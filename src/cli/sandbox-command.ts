import type { Command } from 'commander';
import { createLogger } from '../log/logger.js';
import {
  createSandbox,
  defaultSandboxConfig,
  loadSandboxConfig,
  type SandboxConfig,
  type SandboxServer,
} from '../sandbox/index.js';
import { listenFailure } from './listen-error.js';
import { CliError } from './run-command.js';
import { catchSignals, stopOnce } from './signals.js';

/**
 * Adds `switchboard sandbox [--port 4010] [--host 127.0.0.1] [--config sandbox.json]`:
 * a local Messaging API with a control API, kept in memory. Prints the base URL and the
 * keys; stops on SIGINT/SIGTERM.
 */
export function registerSandboxCommand(program: Command): Command {
  return program
    .command('sandbox')
    .description(
      'Run a local sandbox of the Messaging Developer API (in memory, with a /sandbox control API)',
    )
    .option('-p, --port <port>', 'port to listen on', '4010')
    .option('-H, --host <host>', 'interface to bind', '127.0.0.1')
    .option(
      '-c, --config <file>',
      'JSON configuration: numbers, keys, contacts, templates, callback',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ switchboard sandbox
  $ switchboard sandbox --port 5000 --config sandbox.json
  $ curl -H "Authorization: Bearer <key>" http://127.0.0.1:4010/v1/conversations
  $ curl -X POST http://127.0.0.1:4010/sandbox/inbound -H 'content-type: application/json' \\
      -d '{"type":"text","from":"+15551230001","text":"hi"}'

The control API (/sandbox/...) is documented in docs/sandbox-control.md.`,
    )
    .action(async (opts: { port: string; host: string; config?: string }) => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) {
        process.stderr.write(
          `switchboard sandbox: --port must be an integer 0..65535 (got "${opts.port}")\n`,
        );
        process.exitCode = 2;
        return;
      }
      let config: SandboxConfig = defaultSandboxConfig;
      if (opts.config !== undefined) {
        const loaded = await loadSandboxConfig(opts.config);
        if (loaded.status === 'invalid') {
          process.stderr.write(`switchboard sandbox: ${loaded.message}\n`);
          process.exitCode = 2;
          return;
        }
        config = loaded.config;
      }
      const logger = createLogger({
        level: 'info',
        secrets: [
          ...config.keys.map((k) => k.key),
          ...(config.callback === undefined ? [] : [config.callback.secret]),
        ],
      });
      const sandbox = createSandbox({ config, logger });
      const signals = catchSignals();
      let server: SandboxServer;
      try {
        server = await sandbox.listen(port, opts.host);
      } catch (error) {
        await sandbox.close();
        const line = listenFailure(error, { port, host: opts.host, flag: '--port' });
        if (line === undefined) throw error;
        throw new CliError(`switchboard sandbox: ${line}`, 2, { cause: error });
      }
      const key = sandbox.config.keys.find((k) => k.state === 'active') ?? sandbox.config.keys[0];
      const secret = sandbox.config.callback?.secret;
      const lines = [
        `Sandbox listening on ${server.url} (control API: ${server.url}/sandbox)`,
        'To run a bot against it, export:',
        `  export MESSAGING_API_BASE_URL=${server.url}`,
        ...(key === undefined ? [] : [`  export MESSAGING_API_KEY=${key.key}`]),
        ...(secret === undefined ? [] : [`  export CALLBACK_SECRET=${secret}`]),
        'API keys:',
        ...sandbox.config.keys.map(
          (k) => `  ${k.key}  number=${k.number} scopes=${k.scopes.join(',')} state=${k.state}`,
        ),
        `Contacts: ${sandbox.config.contacts.map((c) => `${c.name} ${c.phoneNumber}`).join(', ') || '(none)'}`,
        'Press Ctrl+C to stop.',
      ];
      signals.handle(stopOnce(() => sandbox.close()));
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
