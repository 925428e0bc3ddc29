import { relative } from 'node:path';
import type { Command } from 'commander';
import { scaffoldBot } from './init-project.js';
import { CliError } from './run-command.js';

/**
 * Adds `switchboard init <dir>`: scaffolds a bot project (package.json with `dev`, `test`
 * and `start` scripts, tsconfig, a flow, a handler, a passing test, a README).
 */
export function registerInitCommand(program: Command): Command {
  return program
    .command('init')
    .description('Create a bot project: a flow, a handler, a passing test, scripts and a README')
    .argument('<dir>', 'the directory to create (must not exist, or be empty)')
    .option(
      '--dependency <spec>',
      'the switchboard dependency of the new package.json (default: the one your project uses, else a file: link to this copy)',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ npx switchboard init my-bot && cd my-bot && npm install && npm test
  $ switchboard init my-bot --dependency file:../switchboard-0.1.0.tgz`,
    )
    .action(async (dir: string, opts: { dependency?: string }) => {
      const result = await scaffoldBot({
        dir,
        ...(opts.dependency === undefined ? {} : { dependency: opts.dependency }),
      });
      if (result.status === 'refused') throw new CliError(`switchboard init: ${result.message}`, 2);
      const shown = relative(process.cwd(), result.dir) || '.';
      process.stdout.write(
        [
          `Created ${shown}/: ${result.files.join(', ')}`,
          `switchboard dependency: ${result.dependency}`,
          '',
          'Next:',
          `  cd ${shown}`,
          '  npm install',
          '  npm test        # the conversation as a test (vitest)',
          '  npm run dev     # chat with the bot in your terminal',
          '',
        ].join('\n'),
      );
    });
}
