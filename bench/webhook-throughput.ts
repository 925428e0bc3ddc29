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
  /** CPU (user + system) of the target per processed message, load + drain, ms. */
  readonly cpuMsPerMessage: number;
}

/** Drives `targets` with signed callbacks, then waits until every acked one was processed. */
export async function pipeline(
  targets: Target[],
  prefix: string,
  connections = CONNECTIONS,
): Promise<PipelineFigures> {
  // Target stats are cumulative: count only what this run's load produced.
  const initial = await Promise.all(targets.map((t) => t.stats()));
  const before = initial.reduce((s, x) => s + x.events, 0);
  const cpuBefore = initial.reduce((s, x) => s + x.cpuMicros, 0);
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
  const cpuAfter = (await Promise.all(targets.map((t) => t.stats()))).reduce(
    (s, x) => s + x.cpuMicros,
    0,
  );
  const merged = mergeLoads(loads, acked);
  return {
    load: merged,
    endToEndPerSec: processed / total,
    drainSec: (Date.now() - loadEnd) / 1000,
    cpuMsPerMessage: processed === 0 ? Number.NaN : (cpuAfter - cpuBefore) / 1000 / processed,
  };
}

/** One round: echo and every store, each on a fresh target, back to back. */
export interface WebhookRound {
  readonly echo: LoadFigures;
  readonly memory: PipelineFigures;
  /** The memory store, the flow with intents: every text understood (BENCH_UNDERSTAND=1). */
  readonly memoryUnderstood: PipelineFigures;
  /** The SQLite store (the durable default of `switchboard run`) on a fresh file. */
  readonly sqlite: PipelineFigures;
  readonly redis: PipelineFigures | undefined;
}

/** Everything this benchmark measured. */
export interface WebhookFigures {
  /**
   * {@link ROUNDS} rounds; a ratio is taken within each round (same machine conditions)
   * and the median round's ratio is reported: one pair alone swung by ±10 points here.
   */
  readonly rounds: readonly WebhookRound[];
  /** 2 Redis workers vs 1 (bench/scale-out.ts). */
  readonly scale: ScaleFigures | undefined;
  readonly fixedRate: {
    readonly echo: LoadFigures;
    readonly memory: LoadFigures;
    readonly sqlite: LoadFigures;
    readonly redis: LoadFigures | undefined;
  };
}

/** Rounds of echo + every store (see {@link WebhookFigures.rounds}). */
export const ROUNDS = 3;

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

/**
 * Drives one target mode on a fresh process (and state), its callbacks tagged `tag`; the
 * fixed-rate run too when asked. `redisPrefix`: the Redis store's key prefix.
 */
async function storeRun(
  mode: 'bot-memory' | 'bot-sqlite' | 'bot-redis',
  tag: string,
  fixed: boolean,
  redisPrefix = '',
  env: Record<string, string> = {},
): Promise<{ figures: PipelineFigures; fixed: LoadFigures | undefined }> {
  // A fresh state file per run, removed afterwards.
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-state-'));
  const where =
    mode === 'bot-sqlite' ? join(dir, 'state.db') : mode === 'bot-redis' ? redisPrefix : undefined;
  try {
    const target = await spawnTarget(mode, where, { env });
    const figures = await pipeline([target], tag);
    const fixedFigures = fixed ? await fixedRate(target, '/callbacks', `${tag}fixed`) : undefined;
    await target.stop();
    return { figures, fixed: fixedFigures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the HTTP benchmarks; Redis ones are skipped (undefined) when Redis is unreachable. */
export async function webhookThroughput(): Promise<WebhookFigures> {
  const rounds: WebhookRound[] = [];
  let fixed: WebhookFigures['fixedRate'] | undefined;
  const run = `sb:bench:${randomUUID()}:`;
  let redisUp = true;
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const first = r === 0;
      const echoTarget = await spawnTarget('echo');
      const echo = await runLoad({
        url: echoTarget.url,
        path: '/echo',
        connections: CONNECTIONS,
        durationSec: DURATION_SEC,
        makeRequest: (n) => signedInboundCallback(n, CONVERSATIONS, Date.now(), `echo${r}`),
      });
      const echoFixed = first ? await fixedRate(echoTarget, '/echo', 'echofixed') : undefined;
      await echoTarget.stop();
      const memory = await storeRun('bot-memory', `mem${r}`, first);
      const understood = await storeRun('bot-memory', `nlu${r}`, false, '', {
        BENCH_UNDERSTAND: '1',
      });
      const sqlite = await storeRun('bot-sqlite', `sql${r}`, first);
      let redis: Awaited<ReturnType<typeof storeRun>> | undefined;
      if (redisUp) {
        try {
          redis = await storeRun('bot-redis', `r${r}`, first, `${run}r${r}:`);
        } catch (error) {
          redisUp = false;
          process.stderr.write(`Redis benchmarks skipped: ${String(error)}\n`);
        }
      }
      rounds.push({
        echo,
        memory: memory.figures,
        memoryUnderstood: understood.figures,
        sqlite: sqlite.figures,
        redis: redis?.figures,
      });
      if (
        first &&
        echoFixed !== undefined &&
        memory.fixed !== undefined &&
        sqlite.fixed !== undefined
      )
        fixed = {
          echo: echoFixed,
          memory: memory.fixed,
          sqlite: sqlite.fixed,
          redis: redis?.fixed,
        };
    }
  } finally {
    await cleanup(run).catch(() => undefined);
  }
  // The "2 workers ≥ ×1.3 throughput" row retired (issue 31): on 2 shared cores it measured
  // contention; bench/scale-cost.ts measures what coordination costs per message instead.
  // BENCH_SCALE_OUT=1 still runs scale-out.ts, for its figures alone.
  let scale: ScaleFigures | undefined;
  if (redisUp && process.env['BENCH_SCALE_OUT'] === '1') {
    try {
      scale = await scaleOut(run);
    } catch (error) {
      process.stderr.write(`Redis scale-out skipped: ${String(error)}\n`);
    } finally {
      await cleanup(run).catch(() => undefined);
    }
  }
  if (fixed === undefined) throw new Error('the first round did not measure the fixed rate');
  return { rounds, scale, fixedRate: fixed };
}
