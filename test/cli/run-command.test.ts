import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { connectTestRedis, deleteByPrefix, REDIS_URL } from '../store/redis-test-helpers.js';
import { waitUntil } from '../wait-until.js';

const until = waitUntil;

/** A spawned `switchboard run` with what it printed so far. */
interface Spawned {
  readonly child: ChildProcess;
  readonly out: { stdout: string; stderr: string };
  readonly exited: Promise<number | null>;
}

function spawnRun(args: readonly string[], env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, ['bin/switchboard.js', 'run', ...args], {
    env: {
      PATH: process.env['PATH'] ?? '',
      LOG_FORMAT: 'json',
      // Each run its own state file (the default lives beside the bot, shared by every run).
      ...(env['REDIS_URL'] === undefined
        ? { STATE_PATH: join(tmpdir(), `sb-run-${randomUUID()}`, 'state.db') }
        : {}),
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

/** The `url` of the `listening` line of `role` printed on stdout, once printed. */
async function listeningUrl(run: Spawned, role: string): Promise<string> {
  let url: string | undefined;
  const found = await until(() => {
    for (const line of run.out.stdout.split('\n')) {
      if (!line.startsWith('{')) continue;
      const parsed: unknown = JSON.parse(line);
      if (Reflect.get(Object(parsed), 'role') === role) {
        const value: unknown = Reflect.get(Object(parsed), 'url');
        if (typeof value === 'string') url = value;
      }
    }
    return url !== undefined;
  }, 45_000);
  if (!found || url === undefined)
    throw new Error(`no listening line for ${role}: ${run.out.stdout} ${run.out.stderr}`);
  return url;
}

describe('switchboard run', () => {
  const sandbox = createSandbox();
  afterAll(() => sandbox.close());

  it('should answer through polling in production mode and stop on SIGTERM with exit 0', async () => {
    const { url } = await sandbox.listen();
    const run = spawnRun(['examples/support-desk', '--poll', '200ms'], {
      MESSAGING_API_BASE_URL: url,
      MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
    });
    try {
      expect(await until(() => run.out.stderr.includes('switchboard running'), 45_000)).toBe(true);
      expect(run.out.stderr).not.toContain(sandbox.config.keys[0]!.key);
      sandbox.control.injectInbound({ type: 'text', from: '+15551230001', text: 'hi' });
      expect(await until(() => sandbox.control.sent().length >= 2, 45_000)).toBe(true);
      expect(sandbox.control.sent()[0]?.request).toMatchObject({
        type: 'text',
        text: { body: expect.stringContaining('Hi Ada Lovelace') },
      });
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  // docs/production.md: `switchboard run examples/order-status --poll 2s --metrics-port 9464` (port 0 here).
  it('should serve health and metrics on --metrics-port when polling, logging its worker without secrets', async () => {
    const { url } = await sandbox.listen();
    const run = spawnRun(['examples/order-status', '--poll', '2s', '--metrics-port', '0'], {
      MESSAGING_API_BASE_URL: url,
      MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
    });
    try {
      const base = await listeningUrl(run, 'metrics');
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toContain('switchboard_poll_leader 1');
      expect(metrics).not.toContain(sandbox.config.keys[0]!.key);
      // One process per state file: a fixed lease owner, taken back at once after a restart.
      expect(run.out.stderr).toMatch(/"worker":"local:[^"]+"/);
      expect(run.out.stderr).toContain('"store":"sqlite ');
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      expect(run.out.stderr).not.toContain(sandbox.config.keys[0]!.key);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  // docs/production.md: `REDIS_URL=... REDIS_PREFIX=acme-support: CALLBACK_SECRET=... switchboard run
  // examples/support-desk --port 8080 --poll 5s` (port 0 and a random prefix here).
  it('should run with Redis, callbacks and polling, and answer readiness on the callback port', async () => {
    const { url } = await sandbox.listen();
    const prefix = `sb:test:run-command:${randomUUID()}:`;
    const secret = 'run-command-test-secret';
    const run = spawnRun(['examples/support-desk', '--port', '0', '--poll', '5s'], {
      MESSAGING_API_BASE_URL: url,
      MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
      CALLBACK_SECRET: secret,
      REDIS_URL,
      REDIS_PREFIX: prefix,
    });
    const redis = await connectTestRedis();
    try {
      const base = await listeningUrl(run, 'callbacks');
      const ready = await fetch(`${base}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
      expect(await (await fetch(`${base}/metrics`)).text()).toContain('switchboard_poll_leader 1');
      expect(run.out.stderr).not.toContain(secret);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
      await deleteByPrefix(redis, prefix);
      redis.disconnect();
    }
  });
});
