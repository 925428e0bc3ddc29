import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBot } from '../../src/bot/load-bot.js';
import type { ResolvedBot } from '../../src/bot/resolve-bot.js';
import { parseRunConfig, type RunConfig, type RunFlags } from '../../src/cli/run-config.js';
import { startWorker } from '../../src/cli/run-worker.js';
import { silentLogger } from '../../src/log/logger.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { connectTestRedis, deleteByPrefix, REDIS_URL } from '../store/redis-test-helpers.js';
import { waitUntil } from '../wait-until.js';

const SECRET = 'run-worker-test-secret';

const until = waitUntil;

/** The value of the sample `name{labels}` in Prometheus text, or 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('startWorker (switchboard run)', () => {
  let sandbox: Sandbox;
  let apiUrl: string;
  let supportDesk: ResolvedBot;

  const configFor = (flags: RunFlags, env: Record<string, string> = {}): RunConfig => {
    const parsed = parseRunConfig(
      { host: '127.0.0.1', ...flags },
      {
        MESSAGING_API_BASE_URL: apiUrl,
        MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
        CALLBACK_SECRET: SECRET,
        ...(env['REDIS_URL'] === undefined
          ? { STATE_PATH: join(tmpdir(), `sb-worker-${randomUUID()}`, 'state.db') }
          : {}),
        ...env,
      },
    );
    if (parsed.status !== 'ok') throw new Error(parsed.message);
    return parsed.config;
  };

  beforeAll(async () => {
    sandbox = createSandbox();
    apiUrl = (await sandbox.listen()).url;
    const loaded = await loadBot('examples/support-desk');
    if (loaded.status !== 'ok') throw new Error(loaded.message);
    supportDesk = loaded.bot;
  });
  afterAll(() => sandbox.close());

  it('should serve health, readiness and metrics that change after a conversation, and print its URL', async () => {
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (c: Buffer) => (printed += c.toString()));
    const worker = await startWorker(supportDesk, configFor({ port: '0', poll: '200ms' }), {
      stdout,
      logger: silentLogger,
    });
    try {
      expect(worker.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(JSON.parse(printed.trim())).toEqual({
        message: 'listening',
        role: 'callbacks',
        url: worker.url,
        callbacks: `${worker.url}/callbacks`,
        worker: worker.worker,
        pid: process.pid,
      });
      const health = await fetch(`${worker.url}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
      const ready = await fetch(`${worker.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
      expect(worker.isPollLeader()).toBe(true);

      const before = await (await fetch(`${worker.url}/metrics`)).text();
      expect(sample(before, 'switchboard_poll_leader')).toBe(1);
      expect(sample(before, 'switchboard_sends_total{outcome="accepted"}')).toBe(0);
      sandbox.control.setCallback({ url: `${worker.url}/callbacks`, secret: SECRET });
      sandbox.control.injectInbound({ type: 'text', from: '+15551239001', text: 'hi' });
      expect(await until(() => sandbox.control.sent().length >= 2, 15_000)).toBe(true);
      let after = '';
      expect(
        await until(async () => {
          const res = await fetch(`${worker.url}/metrics`);
          after = await res.text();
          return sample(after, 'switchboard_sends_total{outcome="accepted"}') >= 2;
        }, 10_000),
      ).toBe(true);
      expect(sample(after, 'switchboard_inbound_messages_total{type="text"}')).toBe(1);
      expect(sample(after, 'switchboard_flow_events_total{type="inbound.message"}')).toBe(1);
      expect(after).toContain('process_cpu_user_seconds_total');
      expect(after).not.toContain('+15551239001');
      expect(after).not.toContain(sandbox.config.keys[0]!.key);
    } finally {
      sandbox.control.setCallback(undefined);
      await worker.stop();
    }
  });

  it('should answer 503 on health, readiness and callbacks while draining', async () => {
    const worker = await startWorker(supportDesk, configFor({ port: '0' }), {
      stdout: new PassThrough(),
      logger: silentLogger,
    });
    try {
      expect((await fetch(`${worker.url}/healthz`)).status).toBe(200);
      worker.drain();
      const health = await fetch(`${worker.url}/healthz`);
      expect([health.status, await health.json()]).toEqual([503, { status: 'draining' }]);
      const ready = await fetch(`${worker.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([
        503,
        { status: 'not_ready', reason: 'draining' },
      ]);
      const callback = await fetch(`${worker.url}/callbacks`, { method: 'POST', body: '{}' });
      expect([callback.status, callback.headers.get('retry-after')]).toEqual([503, '1']);
    } finally {
      await worker.stop();
    }
  });

  it('should serve the endpoints on --metrics-port when only polling, and not lead after stop', async () => {
    const worker = await startWorker(supportDesk, configFor({ poll: '1s', metricsPort: '0' }), {
      stdout: new PassThrough(),
      logger: silentLogger,
    });
    let stopped = false;
    try {
      expect(worker.url).toBeUndefined();
      const metrics = await fetch(`${worker.metricsUrl ?? ''}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      expect(await metrics.text()).toContain('switchboard_poll_leader 1');
      expect((await fetch(`${worker.metricsUrl ?? ''}/readyz`)).status).toBe(200);
      expect((await fetch(`${worker.metricsUrl ?? ''}/callbacks`, { method: 'POST' })).status).toBe(
        404,
      );
      await worker.stop();
      stopped = true;
      expect(worker.isPollLeader()).toBe(false);
    } finally {
      if (!stopped) await worker.stop();
    }
  });

  it('should elect one poller among workers sharing REDIS_URL and REDIS_PREFIX, and check Redis for readiness', async () => {
    const prefix = `sb:test:run-worker:${randomUUID()}:`;
    const env = { REDIS_URL, REDIS_PREFIX: prefix };
    const start = () =>
      startWorker(supportDesk, configFor({ poll: '1s', metricsPort: '0' }, env), {
        stdout: new PassThrough(),
        logger: silentLogger,
      });
    const workers = [await start(), await start()];
    const redis = await connectTestRedis();
    try {
      expect(workers.map((w) => w.isPollLeader()).sort()).toEqual([false, true]);
      for (const w of workers) {
        const ready = await fetch(`${w.metricsUrl ?? ''}/readyz`);
        expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
      }
      const gauges = await Promise.all(
        workers.map(async (w) =>
          sample(
            await (await fetch(`${w.metricsUrl ?? ''}/metrics`)).text(),
            'switchboard_poll_leader',
          ),
        ),
      );
      expect(gauges.sort()).toEqual([0, 1]);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await deleteByPrefix(redis, prefix);
      redis.disconnect();
    }
  });
});
