import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';

/** Polls `check` until it is true or the deadline passes (no fixed sleeps). */
async function until(check: () => boolean, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('switchboard run', () => {
  const sandbox = createSandbox();
  afterAll(() => sandbox.close());

  it('should answer through polling in production mode and stop on SIGTERM with exit 0', async () => {
    const { url } = await sandbox.listen();
    const child = spawn(
      process.execPath,
      ['bin/switchboard.js', 'run', 'examples/support-desk', '--poll', '200ms'],
      {
        env: {
          PATH: process.env['PATH'] ?? '',
          MESSAGING_API_BASE_URL: url,
          MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
          LOG_FORMAT: 'json',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let logs = '';
    child.stderr.on('data', (c: Buffer) => (logs += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      expect(await until(() => logs.includes('switchboard running'), 20_000)).toBe(true);
      expect(logs).not.toContain(sandbox.config.keys[0]!.key);
      sandbox.control.injectInbound({ type: 'text', from: '+15551230001', text: 'hi' });
      expect(await until(() => sandbox.control.sent().length >= 2, 20_000)).toBe(true);
      expect(sandbox.control.sent()[0]?.request).toMatchObject({
        type: 'text',
        text: { body: expect.stringContaining('Hi Ada Lovelace') },
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
