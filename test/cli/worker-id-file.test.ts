import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBot } from '../../src/bot/load-bot.js';
import type { ResolvedBot } from '../../src/bot/resolve-bot.js';
import { parseRunConfig } from '../../src/cli/run-config.js';
import { startWorker } from '../../src/cli/run-worker.js';
import { claimWorkerId } from '../../src/cli/worker-id-file.js';
import { silentLogger } from '../../src/log/logger.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { connectTestRedis, deleteByPrefix, REDIS_URL } from '../store/redis-test-helpers.js';
import { waitUntil } from '../wait-until.js';

const fresh = (): string => mkdtempSync(join(tmpdir(), 'sb-worker-ids-'));

describe('claimWorkerId', () => {
  it('should give two live workers of one bot different ids, each kept in its slot', () => {
    const dir = fresh();
    const a = claimWorkerId(dir, { pid: 1001, isAlive: () => true });
    const b = claimWorkerId(dir, { pid: 1002, isAlive: () => true });
    expect([a.slot, b.slot]).toEqual([0, 1]);
    expect(a.id).not.toBe(b.id);
    expect(readFileSync(join(dir, 'worker-0.id'), 'utf8')).toBe(a.id);
    expect(readFileSync(join(dir, 'worker-1.pid'), 'utf8')).toBe('1002');
    a.release();
    b.release();
  });

  it('should give a restarted worker its id back after a clean stop', () => {
    const dir = fresh();
    const first = claimWorkerId(dir, { pid: 2001, isAlive: () => true });
    first.release();
    expect(claimWorkerId(dir, { pid: 2002, isAlive: () => true }).id).toBe(first.id);
  });

  it('should take over the slot of a worker killed with -9 (its pid is dead)', async () => {
    const dir = fresh();
    // A real process holds slot 0, then dies without cleaning up.
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = child.pid ?? 0;
    writeFileSync(join(dir, 'worker-0.pid'), String(pid));
    writeFileSync(join(dir, 'worker-0.id'), 'vm:crashed-worker');
    const alive = claimWorkerId(dir);
    expect(alive.slot).toBe(1);
    alive.release();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const restarted = claimWorkerId(dir);
    expect([restarted.slot, restarted.id]).toEqual([0, 'vm:crashed-worker']);
    expect(readFileSync(join(dir, 'worker-0.pid'), 'utf8')).toBe(String(process.pid));
    restarted.release();
  });

  it('should never hand one slot to two claimers racing for a dead one', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'worker-0.pid'), '999999');
    const claims = Array.from({ length: 6 }, (_, i) =>
      claimWorkerId(dir, { pid: 3000 + i, isAlive: (p) => p !== 999999 }),
    );
    expect(new Set(claims.map((c) => c.slot)).size).toBe(6);
    expect(new Set(claims.map((c) => c.id)).size).toBe(6);
  });

  it('should say what to do when every slot is held', () => {
    const dir = fresh();
    claimWorkerId(dir, { pid: 4001, isAlive: () => true, slots: 1 });
    expect(() => claimWorkerId(dir, { pid: 4002, isAlive: () => true, slots: 1 })).toThrow(
      /no free worker id slot in .* \(1 live workers hold one each\); set SWITCHBOARD_WORKER_ID/,
    );
  });
});

describe('startWorker on Redis without --port', () => {
  let sandbox: Sandbox;
  let apiUrl: string;
  let supportDesk: ResolvedBot;
  beforeAll(async () => {
    sandbox = createSandbox();
    apiUrl = (await sandbox.listen()).url;
    const loaded = await loadBot('examples/support-desk');
    if (loaded.status !== 'ok') throw new Error(loaded.message);
    supportDesk = loaded.bot;
  });
  afterAll(() => sandbox.close());

  it('should take its own poll lease back at once after a restart', async () => {
    const redis = await connectTestRedis();
    const prefix = `sbtest:wid:${randomUUID()}:`;
    const parsed = parseRunConfig(
      { host: '127.0.0.1', poll: '200ms' },
      {
        MESSAGING_API_BASE_URL: apiUrl,
        MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
        REDIS_URL,
        REDIS_PREFIX: prefix,
      },
    );
    if (parsed.status !== 'ok') throw new Error(parsed.message);
    const options = { stdout: new PassThrough(), logger: silentLogger, workerIdDir: fresh() };
    try {
      const first = await startWorker(supportDesk, parsed.config, options);
      const id = first.worker;
      expect(await waitUntil(() => first.isPollLeader(), 10_000)).toBe(true);
      await first.stop();
      // As after kill -9: the lease is still held, 15 s to run, in the old worker's name.
      const store = new RedisStore({ redis, prefix });
      expect(await store.acquireLease('poller', id, 15_000, Date.now())).toBeDefined();
      const started = Date.now();
      const second = await startWorker(supportDesk, parsed.config, options);
      try {
        expect(second.worker).toBe(id);
        expect(await waitUntil(() => second.isPollLeader(), 5_000)).toBe(true);
        expect(Date.now() - started).toBeLessThan(10_000);
      } finally {
        await second.stop();
      }
    } finally {
      await deleteByPrefix(redis, prefix);
      await redis.quit();
    }
  });
});
