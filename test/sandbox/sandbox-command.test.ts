import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerSandboxCommand } from '../../src/cli/sandbox-command.js';

describe('registerSandboxCommand', () => {
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  const program = () => {
    const p = new Command('switchboard').exitOverride();
    registerSandboxCommand(p);
    return p;
  };

  it('should describe its options and examples in --help', () => {
    const sandbox = program().commands.find((c) => c.name() === 'sandbox')!;
    let help = '';
    sandbox.configureOutput({ writeOut: (s) => (help += s) });
    sandbox.outputHelp();
    expect(help).toContain('--port');
    expect(help).toContain('--host');
    expect(help).toContain('--config');
    expect(help).toContain('Examples:');
  });

  it('should exit with code 2 and one clear line for an invalid config file', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await program().parseAsync([
      'node',
      'switchboard',
      'sandbox',
      '--config',
      '/nonexistent/sandbox.json',
    ]);
    expect(process.exitCode).toBe(2);
    expect(String(stderr.mock.calls[0]?.[0])).toContain('/nonexistent/sandbox.json');
  });

  it('should exit with code 2 for a bad port', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await program().parseAsync(['node', 'switchboard', 'sandbox', '--port', 'abc']);
    expect(process.exitCode).toBe(2);
    expect(String(stderr.mock.calls[0]?.[0])).toContain('--port');
  });
});
