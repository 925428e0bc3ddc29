/**
 * `switchboard eval <flow> <csv>` run in-process with the builtin understander and a fixed
 * clock (the labels' date, UTC), as the eval tests run it; returns what it printed.
 */
import { Command } from 'commander';
import { registerEvalCommand } from '../../../src/cli/eval-command.js';

export async function runEvalCli(flow: string, csv: string): Promise<string> {
  let out = '';
  const program = new Command().exitOverride();
  registerEvalCommand(program, {
    out: (t) => (out += t),
    err: (t) => (out += t),
    setExitCode: () => undefined,
    env: {},
  });
  await program.parseAsync(
    [
      'eval',
      flow,
      csv,
      '--understander',
      'builtin',
      '--now',
      '2026-11-28T12:00:00Z',
      '--timezone',
      'UTC',
    ],
    { from: 'user' },
  );
  return out;
}
