/**
 * Webhook → engine → send adapter throughput against a bare express JSON echo route,
 * with the same autocannon settings in the same run, on the memory, SQLite and Redis
 * stores; ack latency at a fixed 1,000 req/s; and 2 workers vs 1 on Redis (bench/scale-out.ts,
 * its own method). Every target runs in its own process.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { signedInboundCallback } from './callback-body.js';
import { mergeLoads, runLoad, type LoadFigures } from './http-load.js';
import { scaleOut, type ScaleFigures } from './scale-out.js';
import { spawnTarget, type Target } from './spawn-target.js';

const CONNECTIONS = 32;
const DURATION_SEC = 4;
const CONVERSATIONS = 2_000;

/** Figures of one webhook target. */
export interface PipelineFigures {
  readonly load: LoadFigures;
  /** Inbound messages fully processed (machine fed, sends done) per second, load + drain. */
  readonly endToEndPerSec: number;
  readonly drainSec: number;
}

/** Drives `targets` with signed callbacks, then waits until every acked one was processed. */
export async function pipeline(
  targets: Target[],
  prefix: string,
  connections = CONNECTIONS,
): Promise<PipelineFigures> {
  // Target stats are cumulative: count only what this run's load produced.
  const before = (await Promise.all(targets.map((t) => t.stats()))).reduce(
    (s, x) => s + x.events,
    0,
  );
  const started = Date.now();
  const loads = await Promise.all(
    targets.map((t, i) =>
      runLoad({
        url: t.url,
        path: '/callbacks',
        connections: Math.max(1, Math.floor(connections / targets.length)),
        durationSec: DURATION_SEC,
        makeRequest: (n) =>
          signedInboundCallback(n * targets.length + i, CONVERSATIONS, Date.now(), prefix),
      }),
    ),
  );
  const acked = loads.reduce((s, l) => s + l.ok2xx, 0);
  const loadEnd = Date.now();
  const done = async (): Promise<number> =>
    (await Promise.all(targets.map((t) => t.stats()))).reduce((s, x) => s + x.events, 0) - before;
  const until = Date.now() + 60_000;
  while ((await done()) < acked && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  const processed = Math.min(acked, await done());
  const total = (Date.now() - started) / 1000;
  const merged = mergeLoads(loads, acked);
  return {
    load: merged,
    endToEndPerSec: processed / total,
    drainSec: (Date.now() - loadEnd) / 1000,
  };
}

/** Everything this benchmark measured. */
export interface WebhookFigures {
  readonly echo: LoadFigures;
  readonly memory: PipelineFigures;
  /** The SQLite store (the durable default of `switchboard run`) on a fresh file. */
  readonly sqlite: PipelineFigures;
  readonly redis: PipelineFigures | undefined;
  /** 2 Redis workers vs 1 (bench/scale-out.ts). */
  readonly scale: ScaleFigures | undefined;
  readonly fixedRate: {
    readonly echo: LoadFigures;
    readonly memory: LoadFigures;
    readonly sqlite: LoadFigures;
    readonly redis: LoadFigures | undefined;
  };
}

async function cleanup(prefix: string): Promise<void> {
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

async function fixedRate(target: Target, path: string, prefix: string): Promise<LoadFigures> {
  return runLoad({
    url: target.url,
    path,
    connections: 16,
    durationSec: 4,
    overallRate: 1_000,
    makeRequest: (n) => signedInboundCallback(n, CONVERSATIONS, Date.now(), prefix),
  });
}

/** Runs the HTTP benchmarks; Redis ones are skipped (undefined) when Redis is unreachable. */
export async function webhookThroughput(): Promise<WebhookFigures> {
  const echoTarget = await spawnTarget('echo');
  const echo = await runLoad({
    url: echoTarget.url,
    path: '/echo',
    connections: CONNECTIONS,
    durationSec: DURATION_SEC,
    makeRequest: (n) => signedInboundCallback(n, CONVERSATIONS, Date.now(), 'echo'),
  });
  const echoFixed = await fixedRate(echoTarget, '/echo', 'echofixed');
  await echoTarget.stop();

  const memTarget = await spawnTarget('bot-memory');
  const memory = await pipeline([memTarget], 'mem');
  const memFixed = await fixedRate(memTarget, '/callbacks', 'memfixed');
  await memTarget.stop();

  // A fresh state file per run, removed afterwards.
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-sqlite-'));
  let sqlite: PipelineFigures;
  let sqliteFixed: LoadFigures;
  try {
    const sqliteTarget = await spawnTarget('bot-sqlite', join(dir, 'state.db'));
    sqlite = await pipeline([sqliteTarget], 'sql');
    sqliteFixed = await fixedRate(sqliteTarget, '/callbacks', 'sqlfixed');
    await sqliteTarget.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  let redis: PipelineFigures | undefined;
  let scale: ScaleFigures | undefined;
  let redisFixed: LoadFigures | undefined;
  const run = `sb:bench:${randomUUID()}:`;
  try {
    const one = await spawnTarget('bot-redis', `${run}one:`);
    redis = await pipeline([one], 'r1');
    redisFixed = await fixedRate(one, '/callbacks', 'r1fixed');
    await one.stop();
    scale = await scaleOut(run);
  } catch (error) {
    process.stderr.write(`Redis benchmarks skipped: ${String(error)}\n`);
  } finally {
    await cleanup(run).catch(() => undefined);
  }
  return {
    echo,
    memory,
    sqlite,
    redis,
    scale,
    fixedRate: { echo: echoFixed, memory: memFixed, sqlite: sqliteFixed, redis: redisFixed },
  };
}
