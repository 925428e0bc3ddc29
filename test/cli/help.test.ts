import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

function helpOf(name: string | undefined): string {
  const program = buildProgram();
  let out = '';
  const targets: Command[] = [program, ...program.commands];
  for (const c of targets)
    c.exitOverride().configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  try {
    program.parse(['node', 'switchboard', ...(name === undefined ? [] : [name]), '--help']);
  } catch {
    // commander throws (exitOverride) after printing help: the output is what we test.
  }
  return out;
}

describe('switchboard --help', () => {
  it('should list every command with examples', () => {
    const help = helpOf(undefined);
    for (const command of ['dev', 'run', 'sandbox', 'validate', 'graph', 'schema'])
      expect(help).toMatch(new RegExp(`\\n  ${command}\\b`));
    expect(help).toContain('Examples:');
  });

  it.each([
    ['dev', /switchboard dev examples\/appointment-booking/],
    ['run', /MESSAGING_API_BASE_URL[\s\S]*CALLBACK_SECRET[\s\S]*REDIS_URL[\s\S]*--poll 2s/],
    ['sandbox', /switchboard sandbox --port 5000/],
    ['validate', /switchboard validate flows\/\*\.yaml/],
    ['graph', /switchboard graph flows\/support-desk\.yaml/],
    ['schema', /switchboard schema > flows\/flow\.schema\.json/],
  ])('should show usage and examples for %s', (command, example) => {
    const help = helpOf(command);
    expect(help).toContain(`Usage: switchboard ${command}`);
    expect(help).toMatch(/Examples?:/);
    expect(help).toMatch(example);
  });
});
