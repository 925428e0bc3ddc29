import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { cliEnv } from '../cli-env.js';

/** `switchboard run` with the default store, on `statePath`; resolves once it listens. */
function run(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [
      'bin/switchboard.js',
      'run',
      'examples/support-desk',
      '--poll',
      '1s',
      '--metrics-port',
      '0',
      '--host',
      '127.0.0.1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: cliEnv({ LOG_LEVEL: 'warn', ...env }) },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const listening = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"listening"')) resolve();
    });
  });
  return { child, exited, listening, stderr: () => stderr };
}

describe('switchboard run: one process per state file', () => {
  it('should refuse a second process on the same file with one line that points to Redis', async () => {
    const sandbox = createSandbox();
    const server = await sandbox.listen(0, '127.0.0.1');
    const env = {
      MESSAGING_API_BASE_URL: server.url,
      MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
      STATE_PATH: join(tmpdir(), `sb-state-${randomUUID()}`, 'state.db'),
    };
    const first = run(env);
    try {
      await first.listening;
      const second = run(env);
      expect(await second.exited).toBe(2);
      const lines = second.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/state file .* is in use by another switchboard process/);
      expect(lines[0]).toContain('REDIS_URL');
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
      await sandbox.close();
    }
  }, 60_000);
});
