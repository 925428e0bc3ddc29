import { Command } from 'commander';
import { registerBroadcastCommand } from './broadcast-command.js';
import { registerDevCommand } from './dev-command.js';
import { registerEvalCommand } from './eval-command.js';
import { registerFlowCommands } from './flow-commands.js';
import { registerInitCommand } from './init-command.js';
import { registerForgetCommand } from './forget-command.js';
import { registerBackupCommands } from './backup-command.js';
import { registerConversationsCommand } from './conversations-command.js';
import { registerInspectCommand } from './inspect-command.js';
import { registerRunCommand } from './run-command.js';
import { registerSandboxCommand } from './sandbox-command.js';
import { registerStudioCommand } from './studio-command.js';

/** Builds the `switchboard` command with every subcommand. */
export function buildProgram(): Command {
  const program = new Command('switchboard')
    .description('Build and run conversational bots on the Messaging Developer API')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      `
Examples:
  $ switchboard dev                                 chat with the support-desk example
  $ switchboard dev examples/order-status           chat with another bot
  $ switchboard validate flows/*.yaml               check flow files
  $ switchboard run examples/support-desk --poll 2s run against MESSAGING_API_BASE_URL
  $ switchboard <command> --help                    help of a command`,
    );
  registerDevCommand(program);
  registerRunCommand(program);
  registerSandboxCommand(program);
  registerFlowCommands(program);
  registerEvalCommand(program);
  registerBroadcastCommand(program);
  registerInitCommand(program);
  registerStudioCommand(program);
  registerForgetCommand(program);
  registerBackupCommands(program);
  registerInspectCommand(program);
  registerConversationsCommand(program);
  return program;
}
