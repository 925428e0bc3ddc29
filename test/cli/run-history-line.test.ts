import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBot } from '../../src/bot/load-bot.js';
import type { ResolvedBot } from '../../src/bot/resolve-bot.js';
import { parseRunConfig, type RunConfig } from '../../src/cli/run-config.js';
import { checkApiAtStart, startWorker, type RunningWorker } from '../../src/cli/run-worker.js';
import { silentLogger } from '../../src/log/logger.js';
import { lineOfFirstRead } from '../../src/engine/history-line-of.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { connectTestRedis, deleteByPrefix, REDIS_URL } from '../store/redis-test-helpers.js';
import { waitUntil } from '../wait-until.js';

const OLD = '+15557100001';
const FIRST = '+15557100002';
const BETWEEN = '+15557100003';

describe('switchboard run: the history line of a first start', () => {
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

  const configFor = (env: Record<string, string>): RunConfig => {
    const parsed = parseRunConfig(
      { host: '127.0.0.1', poll: '200ms' },
      { MESSAGING_API_BASE_URL: apiUrl, MESSAGING_API_KEY: sandbox.config.keys[0]!.key, ...env },
    );
    if (parsed.status !== 'ok') throw new Error(parsed.message);
    return parsed.config;
  };
  const answered = (to: string): number => sandbox.control.sent().filter((s) => s.to === to).length;

  it('should answer a message written right after the key check, never one from before (SQLite)', async () => {
    sandbox.control.injectInbound({ type: 'text', from: OLD, text: 'hi' });
    const config = configFor({ STATE_PATH: join(tmpdir(), `sb-line-${randomUUID()}`, 'state.db') });
    // The worker's first API request is its key check; the contact writes as it arrives.
    const check = await checkApiAtStart(config);
    sandbox.control.injectInbound({ type: 'text', from: FIRST, text: 'hi' });
    const worker = await startWorker(supportDesk, config, {
      stdout: new PassThrough(),
      logger: silentLogger,
      firstCheck: check,
    });
    try {
      expect(await waitUntil(() => answered(FIRST) > 0, 15_000)).toBe(true);
      // The old message never is, whatever more passes run.
      const sentBefore = sandbox.control.sent().length;
      sandbox.control.injectInbound({ type: 'text', from: BETWEEN, text: 'hi' });
      expect(await waitUntil(() => answered(BETWEEN) > 0, 15_000)).toBe(true);
      expect(sandbox.control.sent().length).toBeGreaterThan(sentBefore);
      expect(answered(OLD)).toBe(0);
    } finally {
      await worker.stop();
    }
  });

  it('should make three fresh Redis workers agree on the first line recorded', async () => {
    const redis = await connectTestRedis();
    const prefix = `sbtest:line:${randomUUID()}:`;
    const workers: RunningWorker[] = [];
    const contact = '+15557100010';
    const late = '+15557100011';
    try {
      const config = configFor({ REDIS_URL, REDIS_PREFIX: prefix });
      // Three checks at three moments: a message arrives between the first and the others.
      const first = await checkApiAtStart(config);
      sandbox.control.injectInbound({ type: 'text', from: contact, text: 'hi' });
      const others = await Promise.all([checkApiAtStart(config), checkApiAtStart(config)]);
      sandbox.control.injectInbound({ type: 'text', from: late, text: 'hi' });
      // They start at once, the first check last: whoever records first, one line holds.
      workers.push(
        ...(await Promise.all(
          [...others, first].map((check) =>
            startWorker(supportDesk, config, {
              stdout: new PassThrough(),
              logger: silentLogger,
              firstCheck: check,
            }),
          ),
        )),
      );
      const lines = [first, ...others].map((check) =>
        check.status === 'ok' ? lineOfFirstRead(check.conversations ?? []) : undefined,
      );
      const stored = JSON.parse((await redis.get(`${prefix}v:engine:cutoff`)) ?? 'null') as {
        v: unknown;
      };
      // One of the three lines won, and every worker uses it.
      expect(lines).toContainEqual(stored.v);
      const byFirst = JSON.stringify(stored.v) === JSON.stringify(lines[0]);
      expect(await waitUntil(() => answered(late) > 0, 20_000)).toBe(true);
      if (byFirst) expect(await waitUntil(() => answered(contact) > 0, 20_000)).toBe(true);
      await Promise.all(workers.map((w) => w.bot.idle()));
      const replies = answered(late);
      // The same greeting once: no worker answered it a second time by a line of its own.
      await Promise.all(workers.map((w) => w.bot.pollOnce()));
      await Promise.all(workers.map((w) => w.bot.idle()));
      expect(answered(late)).toBe(replies);
      expect(answered(contact)).toBe(byFirst ? replies : 0);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await deleteByPrefix(redis, prefix);
      await redis.quit();
    }
  });
});
