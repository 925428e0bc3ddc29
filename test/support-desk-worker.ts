import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cliEnv } from './cli-env.js';

/** A `switchboard run examples/support-desk` process the test can kill -9. */
export interface SupportDeskWorker {
  readonly child: ChildProcess;
  kill9(): Promise<void>;
}

/**
 * Starts `switchboard run examples/support-desk --poll <poll>` (metrics on an ephemeral
 * port, 127.0.0.1, JSON logs at warn) with `env` over the test environment, and resolves
 * once it logs "listening"; rejects with its last stderr if it exits first.
 */
export async function startSupportDeskWorker(
  env: Record<string, string>,
  poll: string,
): Promise<SupportDeskWorker> {
  const child = spawn(
    process.execPath,
    [
      'bin/switchboard.js',
      'run',
      'examples/support-desk',
      '--poll',
      poll,
      '--metrics-port',
      '0',
      '--host',
      '127.0.0.1',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: cliEnv({ LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env }),
    },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`worker exited with ${String(code)}: ${stderr}`)),
    );
    lines.on('line', (line) => {
      if (line.includes('"listening"')) resolve();
    });
  });
  child.removeAllListeners('exit');
  return {
    child,
    async kill9() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
