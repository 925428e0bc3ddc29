import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createSandbox,
  defaultSandboxConfig,
  parseSandboxConfig,
  type Sandbox,
} from '../../src/sandbox/index.js';
import { waitUntil } from '../wait-until.js';
import { runCli } from './cli-process.js';

interface Spawned {
  readonly child: ChildProcess;
  readonly out: { stdout: string; stderr: string };
  readonly exited: Promise<number | null>;
}

function spawnCli(args: readonly string[], env: Record<string, string> = {}): Spawned {
  const child = spawn(process.execPath, ['bin/switchboard.js', ...args], {
    env: {
      PATH: process.env['PATH'] ?? '',
      LOG_FORMAT: 'json',
      STATE_PATH: join(tmpdir(), `sb-startup-${randomUUID()}`, 'state.db'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, out, exited };
}

async function metricsUrl(run: Spawned): Promise<string> {
  let url: string | undefined;
  await waitUntil(() => {
    url = /"role":"metrics","url":"([^"]+)"/.exec(run.out.stdout)?.[1];
    return url !== undefined;
  }, 30_000);
  if (url === undefined) throw new Error(`no metrics line: ${run.out.stdout} ${run.out.stderr}`);
  return url;
}

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function sandboxWith(keys: unknown[]): Sandbox {
  const parsed = parseSandboxConfig({ ...defaultSandboxConfig, keys });
  if (parsed.status === 'invalid') throw new Error(parsed.message);
  return createSandbox({ config: parsed.config });
}

describe('switchboard run: start-up checks', () => {
  const sandbox = sandboxWith([
    { key: 'sk_good_0123456789', number: 'num_default' },
    { key: 'sk_revoked_0123456789', number: 'num_default', state: 'revoked' },
    { key: 'sk_sendonly_0123456789', number: 'num_default', scopes: ['messages:send'] },
  ]);
  afterAll(() => sandbox.close());

  const env = (url: string, key: string): Record<string, string> => ({
    MESSAGING_API_BASE_URL: url,
    MESSAGING_API_KEY: key,
  });

  it('should exit 2 with one line on a wrong, revoked or under-scoped key (base URL with /v1 too)', async () => {
    const { url } = await sandbox.listen();
    const cases: [string, string, RegExp][] = [
      [
        url,
        'sk_wrong_0123456789',
        /^switchboard run: the API refused MESSAGING_API_KEY \(401 \w+\): the key is wrong, rotated or revoked/,
      ],
      [
        `${url}/v1/`,
        'sk_revoked_0123456789',
        /^switchboard run: the API refused MESSAGING_API_KEY \(401/,
      ],
      [
        `${url}/v1`,
        'sk_sendonly_0123456789',
        /^switchboard run: MESSAGING_API_KEY lacks the messages:read scope \(403 insufficient_scope\)/,
      ],
    ];
    for (const [base, key, line] of cases) {
      const r = await runCli(['run', 'examples/support-desk', '--poll', '2s'], {
        env: { ...env(base, key), STATE_PATH: join(tmpdir(), `sb-${randomUUID()}`, 's.db') },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(line);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toContain(key);
    }
  });

  it('should exit 2 with one line when the base URL is not the API', async () => {
    const other = createSandbox();
    const { url } = await other.listen();
    try {
      const r = await runCli(['run', 'examples/support-desk', '--poll', '2s'], {
        env: { ...env(`${url}/sandbox`, 'sk_good_0123456789') },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^switchboard run: MESSAGING_API_BASE_URL \S+ does not look like the Messaging API \(GET \/v1\/conversations answered (403|404) /,
      );
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('should wait for an unreachable API: /readyz 503, one warning, ready once it answers', async () => {
    const port = await freePort();
    const run = spawnCli(
      ['run', 'examples/support-desk', '--poll', '1s', '--metrics-port', '0'],
      env(`http://127.0.0.1:${port}/v1`, 'sk_good_0123456789'),
    );
    const late = sandboxWith([{ key: 'sk_good_0123456789', number: 'num_default' }]);
    try {
      const base = await metricsUrl(run);
      const waiting = await fetch(`${base}/readyz`);
      expect(waiting.status).toBe(503);
      expect(await waiting.json()).toMatchObject({
        status: 'not_ready',
        reason: expect.stringMatching(/^API unreachable: /),
      });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      await late.listen(port, '127.0.0.1');
      expect(
        await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 200, 40_000),
      ).toBe(true);
      const warnings = run.out.stderr.split('\n').filter((l) => l.includes('"level":"warn"'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('the API does not answer; retrying with backoff');
      // Polling started once the API answered: Ada's message gets its answer.
      late.control.injectInbound({ type: 'text', from: '+15551230001', text: 'hi' });
      expect(await waitUntil(() => late.control.sent().length > 0, 30_000)).toBe(true);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      expect(run.out.stderr).toMatch(
        /"message":"SIGTERM: stopping; callbacks and \/readyz answer 503 now; waiting for handler calls and sends in flight, at most 25 s"/,
      );
      expect(run.out.stderr).toMatch(/"message":"stopped in \d+\.\d s"/);
    } finally {
      run.child.kill('SIGKILL');
      await late.close();
    }
  });

  it('should print one line and exit 2 on a busy port in sandbox, dev and run', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const { url } = await sandbox.listen();
    try {
      // Three CLIs start at once: on a loaded 2-core machine that takes a while.
      const deadlineMs = 100_000;
      const runs = await Promise.all([
        runCli(['sandbox', '--port', String(port)], { deadlineMs }),
        runCli(['dev', '--port', String(port)], { deadlineMs }),
        runCli(['run', 'examples/support-desk', '--port', String(port), '--host', '127.0.0.1'], {
          env: {
            ...env(url, 'sk_good_0123456789'),
            CALLBACK_SECRET: 'whsec_busy_port',
            STATE_PATH: join(tmpdir(), `sb-${randomUUID()}`, 's.db'),
            LOG_LEVEL: 'warn',
          },
          deadlineMs,
        }),
      ]);
      for (const [i, name] of ['sandbox', 'dev', 'run'].entries()) {
        expect(runs[i]?.code).toBe(2);
        expect(runs[i]?.stderr).toBe(
          `switchboard ${name}: port ${port} is in use; choose another with --port\n`,
        );
      }
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  }, 120_000);

  it('should print exactly what to export in the sandbox banner', async () => {
    const port = await freePort();
    const run = spawnCli(['sandbox', '--port', String(port)]);
    try {
      expect(await waitUntil(() => run.out.stdout.includes('Press Ctrl+C'), 30_000)).toBe(true);
      expect(run.out.stdout).toContain(
        `  export MESSAGING_API_BASE_URL=http://127.0.0.1:${port}\n  export MESSAGING_API_KEY=sk_sandbox_default_0123456789\n`,
      );
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});
