import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../src/api/budgets.js';
import { loadBot } from '../../src/bot/load-bot.js';
import type { ResolvedBot } from '../../src/bot/resolve-bot.js';
import { parseRunConfig } from '../../src/cli/run-config.js';
import { startWorker, WorkerStartError } from '../../src/cli/run-worker.js';
import { silentLogger } from '../../src/log/logger.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { layoutKey } from '../../src/store/redis-layout.js';
import { readStateIdentity } from '../../src/store/sqlite-identity.js';
import {
  connectTestRedis,
  deleteByPrefix,
  REDIS_URL,
  scanAll,
} from '../store/redis-test-helpers.js';

describe('switchboard run: layout versions and state identity', () => {
  let sandbox: Sandbox;
  let apiUrl: string;
  let bot: ResolvedBot;

  beforeAll(async () => {
    sandbox = createSandbox();
    apiUrl = (await sandbox.listen()).url;
    const loaded = await loadBot('examples/support-desk');
    if (loaded.status !== 'ok') throw new Error(loaded.message);
    bot = loaded.bot;
  });
  afterAll(() => sandbox.close());

  const config = (env: Record<string, string>) => {
    const parsed = parseRunConfig(
      { host: '127.0.0.1', port: '0' },
      {
        MESSAGING_API_BASE_URL: apiUrl,
        MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
        CALLBACK_SECRET: 'worker-operations-secret',
        ...env,
      },
    );
    if (parsed.status !== 'ok') throw new Error(parsed.message);
    return parsed.config;
  };

  it('should record the key id and the label in the state file', async () => {
    const path = join(tmpdir(), `sb-ops-${randomUUID()}`, 'state.db');
    const worker = await startWorker(bot, config({ STATE_PATH: path }), {
      stdout: new PassThrough(),
      logger: silentLogger,
      env: { SWITCHBOARD_LABEL: 'support-prod' },
    });
    await worker.stop();
    const db = new Database(path);
    try {
      expect(readStateIdentity(db)).toEqual({
        keyId: keyIdOf(sandbox.config.keys[0]!.key),
        label: 'support-prod',
      });
    } finally {
      db.close();
    }
  });

  it('should refuse a bad label and a Redis prefix of a newer layout', async () => {
    await expect(
      startWorker(bot, config({ STATE_PATH: join(tmpdir(), `sb-ops-${randomUUID()}.db`) }), {
        stdout: new PassThrough(),
        logger: silentLogger,
        env: { SWITCHBOARD_LABEL: 'a\u0007bell' },
      }),
    ).rejects.toThrow(new WorkerStartError('SWITCHBOARD_LABEL must be 1–100 printable characters'));

    const redis = await connectTestRedis();
    const prefix = `sb-ops-${randomUUID()}:`;
    try {
      await redis.set(layoutKey(prefix), '9');
      const start = startWorker(bot, config({ REDIS_URL, REDIS_PREFIX: prefix }), {
        stdout: new PassThrough(),
        logger: silentLogger,
      });
      await expect(start).rejects.toThrow(WorkerStartError);
      await expect(start).rejects.toThrow(/has layout version 9; this switchboard knows 2/);
      // Nothing else was written under the prefix.
      expect(await scanAll(redis, `${prefix}*`)).toEqual([layoutKey(prefix)]);
    } finally {
      await deleteByPrefix(redis, prefix);
      redis.disconnect();
    }
  });
});
