import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MessagingClient } from '../../src/api/client.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  connectTestRedis,
  deleteByPrefix,
  REDIS_CLUSTER_URL,
  REDIS_URL,
} from '../store/redis-test-helpers.js';
import { waitUntil } from '../wait-until.js';
import { startSupportDeskWorker, type SupportDeskWorker } from '../support-desk-worker.js';

/**
 * The protocol probe of issue 11, in the suite: `switchboard run examples/support-desk
 * --poll 500ms` against a sandbox, once with the default store (SQLite state file) and once
 * with Redis. History from before the first start gets no send; contacts writing while the
 * bot is killed with -9 and restarted four times get exactly one answer each; a final
 * restart answers nobody again.
 */
const GREETING = 2; // the welcome text and its menu

const phone = (group: string, i: number): string => `+1555${group}${String(i).padStart(4, '0')}`;

type Worker = SupportDeskWorker;

const startWorker = (env: Record<string, string>): Promise<Worker> =>
  startSupportDeskWorker(env, '500ms');

async function probe(env: Record<string, string>): Promise<void> {
  const sandbox: Sandbox = createSandbox();
  const server = await sandbox.listen(0, '127.0.0.1');
  const key = sandbox.config.keys[0]!.key;
  const all = { ...env, MESSAGING_API_BASE_URL: server.url, MESSAGING_API_KEY: key };
  const sentTo = (to: string): number => sandbox.control.sent().filter((s) => s.to === to).length;
  let worker: Worker | undefined;
  try {
    // 25 contacts wrote before the bot's first start; an earlier deployment answered 12.
    const client = new MessagingClient({ baseUrl: server.url, apiKey: key });
    for (let i = 0; i < 25; i++) {
      sandbox.control.injectInbound({ from: phone('70', i), type: 'text', text: 'hello?' });
      if (i % 2 === 0)
        await client.send({
          messaging_product: 'whatsapp',
          to: phone('70', i),
          type: 'text',
          text: { body: 'earlier answer' },
        });
    }
    const historySends = sandbox.control.sent().length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    worker = await startWorker(all);
    // A reply within seconds.
    sandbox.control.injectInbound({ from: phone('71', 0), type: 'text', text: 'hi' });
    expect(await waitUntil(() => sentTo(phone('71', 0)) === GREETING, 30_000)).toBe(true);
    // 40 contacts write while the bot is killed and restarted four times.
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 10; i++)
        sandbox.control.injectInbound({
          from: phone('72', round * 10 + i),
          type: 'text',
          text: 'hi',
        });
      await new Promise((resolve) => setTimeout(resolve, 300 + round * 250));
      await worker.kill9();
      worker = await startWorker(all);
    }
    const contacts = Array.from({ length: 40 }, (_, i) => phone('72', i));
    expect(await waitUntil(() => contacts.every((c) => sentTo(c) >= GREETING), 60_000)).toBe(true);
    // One more kill and restart: nobody is answered again.
    await worker.kill9();
    const restartedAt = Date.now();
    worker = await startWorker(all);
    const listeningAfter = Date.now() - restartedAt;
    sandbox.control.injectInbound({ from: phone('71', 1), type: 'text', text: 'hi' });
    expect(await waitUntil(() => sentTo(phone('71', 1)) === GREETING, 30_000)).toBe(true);
    console.log(
      `kill-restart (${env['REDIS_URL'] === undefined ? 'default store' : env['REDIS_URL'].includes('cluster') ? 'Redis Cluster' : 'Redis'}): ` +
        `listening ${listeningAfter} ms after the restart, a new message answered ` +
        `${Date.now() - restartedAt - listeningAfter} ms after that`,
    );
    // A duplicate would come from the restarted worker's first passes: it has polled past
    // every earlier message once it answered 71/1; two more poll intervals of margin.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const counts = contacts.map((c) => sentTo(c));
    expect(counts.filter((n) => n !== GREETING)).toEqual([]);
    expect(sentTo(phone('71', 0))).toBe(GREETING);
    // History: not one send beyond the earlier deployment's answers.
    const historyContacts = Array.from({ length: 25 }, (_, i) => phone('70', i));
    const historyNow = sandbox.control.sent().filter((s) => historyContacts.includes(s.to)).length;
    expect(historyNow).toBe(historySends);
  } finally {
    await worker?.kill9();
    await sandbox.close();
  }
}

describe('kill -9 and restart (issue 11 probe)', () => {
  const prefix = `sbtest:kill:${randomUUID()}:`;
  afterAll(async () => {
    for (const url of [REDIS_URL, REDIS_CLUSTER_URL]) {
      const redis = await connectTestRedis(url);
      await deleteByPrefix(redis, prefix);
      await redis.quit();
    }
  });

  it('should answer each message exactly once and never history, with the default store', async () => {
    await probe({ STATE_PATH: join(tmpdir(), `sb-kill-${randomUUID()}`, 'state.db') });
  }, 240_000);

  it('should answer each message exactly once and never history, with Redis', async () => {
    await probe({
      REDIS_URL,
      REDIS_PREFIX: prefix,
      SWITCHBOARD_WORKER_ID: `probe-${randomUUID()}`,
    });
  }, 240_000);

  it('should answer each message exactly once and never history, on a Redis Cluster', async () => {
    await probe({
      REDIS_URL: REDIS_CLUSTER_URL,
      REDIS_PREFIX: prefix,
      SWITCHBOARD_WORKER_ID: `probe-${randomUUID()}`,
    });
  }, 240_000);
});
