import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MessagingClient } from '../../src/api/client.js';
import { RedisLimiter } from '../../src/api/redis-limiter.js';
import { broadcast } from '../../src/broadcast/broadcast.js';
import { ManualClock } from '../../src/core/clock.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { connectRedis } from '../../src/store/redis-connection.js';
import { NUMBERS, workspaceConfig } from './deployment-fixture.js';
import { VirtualTime } from './virtual-time.js';

const MIN = 60_000;
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const sink = (): Writable =>
  new Writable({
    write(_chunk: Buffer, _enc, done) {
      done();
    },
  });

describe('a broadcast during a deployment’s traffic (one workspace budget in Redis)', () => {
  it('should take its sends from the budget the workers share: 0 × 429, the workspace at ≥ 95%', async () => {
    const clock = new ManualClock(Date.parse('2026-03-02T09:00:00Z'));
    const sandbox = createSandbox({ config: workspaceConfig(), clock, tickMs: 0 });
    sandbox.control.addTemplate({ name: 'welcome', language: 'en_US' });
    const statuses = new Map<number, number>();
    const front = express();
    front.use((_req, res, next) => {
      res.on('finish', () => statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1));
      next();
    });
    front.use(sandbox.app);
    const server = await new Promise<Server>((resolve) => {
      const s = front.listen(0, '127.0.0.1', () => resolve(s));
    });
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const three = NUMBERS.slice(0, 3);
    for (const n of three)
      sandbox.control.injectInbound({
        type: 'text',
        from: '+15551230001',
        number: n.id,
        text: 'hi',
      });
    // Two processes' clients on one Redis prefix: the deployment's worker, the broadcast.
    const prefix = `sbtest:broadcast-budget:${randomUUID()}:`;
    const workerRedis = await connectRedis(REDIS_URL);
    const broadcastRedis = await connectRedis(REDIS_URL);
    const workerLimiter = new RedisLimiter({ redis: workerRedis, prefix, clock });
    const broadcastLimiter = new RedisLimiter({ redis: broadcastRedis, prefix, clock });
    const time = new VirtualTime(clock, three.length + 1);
    const start = clock.now();
    const end = start + 2 * MIN;
    const dir = mkdtempSync(join(tmpdir(), 'sb-broadcast-budget-'));
    const csv = join(dir, 'contacts.csv');
    const phones = Array.from({ length: 1_500 }, (_, i) => `+1555700${String(i).padStart(4, '0')}`);
    writeFileSync(csv, `phone\n${phones.join('\n')}\n`);
    const stop = new AbortController();
    try {
      const sales = NUMBERS[0]!;
      const broadcasting = (async () => {
        try {
          return await broadcast(
            {
              baseUrl: url,
              apiKey: sales.key,
              template: 'welcome',
              language: 'en_US',
              to: csv,
              params: [],
              journal: join(dir, 'journal.jsonl'),
              dryRun: false,
              concurrency: 1,
            },
            {
              stdout: sink(),
              stderr: sink(),
              tty: false,
              clock,
              sleep: time.sleep,
              signal: stop.signal,
              progressIntervalMs: 3_600_000,
              budget: {
                limiter: broadcastLimiter,
                identity: { numberId: sales.id, workspaceId: 'ws_acme' },
              },
            },
          );
        } finally {
          time.done();
        }
      })();
      await Promise.all(
        three.map(async (n) => {
          const client = new MessagingClient({
            baseUrl: url,
            apiKey: n.key,
            clock,
            limiter: workerLimiter,
            sleep: time.sleep,
            identity: { numberId: n.id, workspaceId: 'ws_acme' },
          });
          while (clock.now() < end) {
            await client.send({
              messaging_product: 'whatsapp',
              to: '+15551230001',
              type: 'text',
              text: { body: `from ${n.id}` },
            });
            await time.sleep(30); // the request's latency as the API saw it
          }
          stop.abort();
          time.done();
        }),
      );
      await broadcasting;
    } finally {
      workerRedis.disconnect();
      broadcastRedis.disconnect();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sandbox.close();
    }
    expect(statuses.get(429) ?? 0).toBe(0);
    const sent = sandbox.control.sent().map((s) => ({
      n: s.numberId,
      broadcast: s.request['type'] === 'template',
      at: Date.parse(s.acceptedAt),
    }));
    const broadcastSends = sent.filter((s) => s.broadcast).length;
    expect(broadcastSends).toBeGreaterThan(100);
    for (const from of [start + MIN - 1, start + MIN / 2]) {
      const window = sent.filter((s) => s.at >= from && s.at < from + MIN);
      expect(window.length).toBeGreaterThanOrEqual(0.95 * 1_200);
      expect(window.length).toBeLessThanOrEqual(1_200);
      // Each number keeps its fair share (sales: its worker and the broadcast together).
      for (const n of three)
        expect(window.filter((s) => s.n === n.id).length).toBeGreaterThanOrEqual(0.9 * 400);
      if (process.env['SB_FIGURES'] !== undefined)
        console.log(from - start, window.length, broadcastSends);
    }
  }, 180_000);
});
