import { Command } from 'commander';
import { registerFlowCommands } from '../../src/cli/flow-commands.js';

/** What a flow command printed and the exit code it set (undefined: none, i.e. 0). */
export interface FlowCommandResult {
  readonly out: string;
  readonly err: string;
  readonly code: number | undefined;
}

/**
 * Runs `switchboard <args>` for the flow commands (validate, schema, …) in this process.
 * @example
 * const r = await runFlowCommand('validate', 'flows/support-desk.yaml');
 */
export async function runFlowCommand(...args: string[]): Promise<FlowCommandResult> {
  let out = '';
  let err = '';
  let code: number | undefined;
  const program = registerFlowCommands(new Command('switchboard').exitOverride(), {
    out: (t) => (out += t),
    err: (t) => (err += t),
    setExitCode: (c) => (code = c),
  });
  await program.parseAsync(['node', 'switchboard', ...args]);
  return { out, err, code };
}
