/**
 * What scale-out costs: the workers' CPU per message summed over 1, 2 and 4 Redis workers,
 * at a fixed load well below saturation (the two cores are not contended, so preemption
 * does not dominate), on one Redis node and on the local cluster (and the cluster with the
 * durability mode, REDIS_WAIT_REPLICAS=1). Per configuration: warm-up (two callbacks per
 * conversation, untimed), then RATE callbacks/s split evenly over the workers for
 * DURATION_SEC (each conversation always on the same worker), then the drain. Measured over
 * window + drain, less what the same workers and Redis spend idle over as long (measured
 * over IDLE_MS just before): the workers' CPU (process.cpuUsage via their stats route), Redis
 * commands (INFO commandstats) and the reads Redis served (INFO stats
 * total_reads_processed: one per batch a client sent, i.e. round trips with
 * auto-pipelining) per message, summed over every primary; exactly-once as in scale-out.ts.
 */
import type { Redis } from 'ioredis';
import { Cluster } from 'ioredis';
import { signedInboundCallback } from './callback-body.js';
import { runLoad } from './http-load.js';
import { check, median, settle, take, waitForEvents, type ExactlyOnce } from './scale-out.js';
import { spawnTarget, type Target } from './spawn-target.js';
import { startStubProcess } from './stub-process.js';
import { connectRedis } from '../src/store/redis-connection.js';
import { asCluster, type RedisClient } from '../src/store/redis-script.js';

const RATE = Number(process.env['BENCH_SCALE_RATE'] ?? 250);
const DURATION_SEC = 4;
const CONVERSATIONS = 400;
const TIMED_BASE = 10_000_000;
const ROUNDS = Number(process.env['BENCH_SCALE_ROUNDS'] ?? 2);
/** BENCH_SCALE_WORKERS=1,2: only these worker counts (default 1, 2 and 4). */
const WORKERS = (process.env['BENCH_SCALE_WORKERS'] ?? '1,2,4')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
/** BENCH_SCALE_DEPLOYMENTS=Cluster: only deployments whose name contains it (default all). */
const DEPLOYMENTS = process.env['BENCH_SCALE_DEPLOYMENTS'] ?? '';
/** The idle spell measured before each window (its cost per ms is subtracted). */
const IDLE_MS = Number(process.env['BENCH_SCALE_IDLE_MS'] ?? 3_000);

/** One configuration's figures (medians over the rounds). */
export interface CostRun {
  readonly workers: number;
  /** Workers' CPU µs per message, summed over the workers, less their idle CPU over as long. */
  readonly cpuMicrosPerMessage: number;
  /** The same without subtracting the idle CPU. */
  readonly grossCpuMicrosPerMessage: number;
  readonly redisCommandsPerMessage: number;
  readonly redisReadsPerMessage: number;
  /** Redis server CPU µs per message (summed over primaries). */
  readonly redisCpuMicrosPerMessage: number;
  readonly messages: number;
  readonly p50: number;
  readonly p99: number;
  readonly exactlyOnce: readonly ExactlyOnce[];
}

/** One deployment (one node / cluster / cluster with WAIT). */
export interface CostSeries {
  readonly name: string;
  readonly runs: readonly CostRun[];
}

interface RedisTotals {
  readonly calls: number;
  readonly reads: number;
  readonly cpuSec: number;
}

/** Commands, reads served and CPU of every primary of `client`. */
async function totals(client: RedisClient): Promise<RedisTotals> {
  const cluster = asCluster(client);
  const nodes: Redis[] = cluster === undefined ? [client as Redis] : cluster.nodes('master');
  let calls = 0;
  let reads = 0;
  let cpuSec = 0;
  for (const node of nodes) {
    const info = await node.info('all');
    for (const m of info.matchAll(/^cmdstat_(\S+):calls=(\d+)/gm))
      if (m[1] !== 'info') calls += Number(m[2]);
    reads += Number(/total_reads_processed:(\d+)/.exec(info)?.[1] ?? 0);
    const read = (name: string): number =>
      Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    cpuSec += read('used_cpu_user') + read('used_cpu_sys');
  }
  return { calls, reads, cpuSec };
}

async function oneRun(
  workers: number,
  url: string,
  env: Record<string, string>,
  prefix: string,
  label: string,
  stubUrl: string,
  redis: RedisClient,
): Promise<Omit<CostRun, 'exactlyOnce'> & { exactlyOnce: ExactlyOnce }> {
  const targets: Target[] = [];
  for (let i = 0; i < workers; i++)
    targets.push(
      await spawnTarget('bot-redis', prefix, {
        env: { STUB_URL: stubUrl, REDIS_URL: url, ...env },
      }),
    );
  try {
    const callback = (global: number, nowMs: number) =>
      signedInboundCallback(global, CONVERSATIONS, nowMs, label);
    const perWorker = Math.ceil((2 * CONVERSATIONS) / workers);
    await Promise.all(
      targets.map((t, i) =>
        runLoad({
          url: t.url,
          path: '/callbacks',
          connections: 4,
          durationSec: 60,
          amount: perWorker,
          makeRequest: (n) => callback(n * workers + i, Date.now()),
        }),
      ),
    );
    await waitForEvents(targets, perWorker * workers);
    await settle(stubUrl);
    await take(stubUrl);
    const acked = new Set<number>();
    const issued = new Set<number>();
    // The idle cost (timer and inbox sweeps, leases, polls of every worker) over as long as
    // an idle spell: subtracted below, so the figures are what a message adds.
    const idle0 = await Promise.all(targets.map((t) => t.stats()));
    const idleRedis0 = await totals(redis);
    const idleStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idle1 = await Promise.all(targets.map((t) => t.stats()));
    const idleRedis1 = await totals(redis);
    const idleMs = performance.now() - idleStart;
    const idleCpuPerMs =
      idle1.reduce((s, a, i) => s + a.cpuMicros - (idle0[i]?.cpuMicros ?? 0), 0) / idleMs;
    const idleCallsPerMs = (idleRedis1.calls - idleRedis0.calls) / idleMs;
    const idleReadsPerMs = (idleRedis1.reads - idleRedis0.reads) / idleMs;
    const idleRedisCpuPerMs = ((idleRedis1.cpuSec - idleRedis0.cpuSec) * 1e6) / idleMs;
    const before = await Promise.all(targets.map((t) => t.stats()));
    const redis0 = await totals(redis);
    const windowStart = performance.now();
    const loads = await Promise.all(
      targets.map((t, i) =>
        runLoad({
          url: t.url,
          path: '/callbacks',
          connections: 4,
          durationSec: DURATION_SEC,
          overallRate: RATE / workers,
          makeRequest: (n) => {
            const global = TIMED_BASE + n * workers + i;
            issued.add(global);
            return callback(global, Date.now());
          },
          onResponse: (n, status) => {
            if (status >= 200 && status < 300) acked.add(TIMED_BASE + n * workers + i);
          },
        }),
      ),
    );
    const ackedCount = loads.reduce((s, l) => s + l.ok2xx, 0);
    const eventsBefore = before.reduce((s, x) => s + x.events, 0);
    await waitForEvents(targets, eventsBefore + ackedCount);
    await settle(stubUrl);
    const after = await Promise.all(targets.map((t) => t.stats()));
    const redis1 = await totals(redis);
    const windowMs = performance.now() - windowStart;
    const messages = Math.max(1, ackedCount);
    const cpu = after.reduce((s, a, i) => s + a.cpuMicros - (before[i]?.cpuMicros ?? 0), 0);
    const net = (total: number, perMs: number): number =>
      Math.max(0, total - perMs * windowMs) / messages;
    return {
      workers,
      messages: ackedCount,
      cpuMicrosPerMessage: net(cpu, idleCpuPerMs),
      redisCommandsPerMessage: net(redis1.calls - redis0.calls, idleCallsPerMs),
      redisReadsPerMessage: net(redis1.reads - redis0.reads, idleReadsPerMs),
      redisCpuMicrosPerMessage: net((redis1.cpuSec - redis0.cpuSec) * 1e6, idleRedisCpuPerMs),
      grossCpuMicrosPerMessage: cpu / messages,
      p50: median(loads.map((l) => l.p50)),
      p99: Math.max(...loads.map((l) => l.p99)),
      exactlyOnce: check(await take(stubUrl), acked, issued),
    };
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
}

/** Runs 1, 2 and 4 workers on each deployment for ROUNDS rounds; keys under `run`. */
export async function scaleCost(run: string): Promise<CostSeries[]> {
  const single = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const cluster =
    process.env['REDIS_CLUSTER_URL'] ??
    'redis+cluster://127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002';
  const deployments = [
    { name: 'Redis (one node)', url: single, env: {} },
    { name: 'Redis Cluster (3 primaries)', url: cluster, env: {} },
    {
      name: 'Redis Cluster, REDIS_WAIT_REPLICAS=1',
      url: cluster,
      env: { REDIS_WAIT_REPLICAS: '1' },
    },
  ].filter((d) => d.name.includes(DEPLOYMENTS));
  const stub = await startStubProcess('lean-stub-server');
  const series: CostSeries[] = [];
  try {
    for (const [d, deployment] of deployments.entries()) {
      let redis: RedisClient;
      try {
        redis = await connectRedis(deployment.url, { timeoutMs: 5_000 });
      } catch (error) {
        process.stderr.write(`scale cost on ${deployment.name} skipped: ${String(error)}\n`);
        continue;
      }
      try {
        const byWorkers = new Map<number, Array<Awaited<ReturnType<typeof oneRun>>>>();
        for (let r = 0; r < ROUNDS; r++)
          for (const w of WORKERS) {
            const result = await oneRun(
              w,
              deployment.url,
              deployment.env,
              `${run}cost${d}w${w}r${r}:`,
              `k${d}w${w}r${r}`,
              stub.url,
              redis,
            );
            byWorkers.set(w, [...(byWorkers.get(w) ?? []), result]);
            // Progress with figures: a run cut short still tells what it measured.
            process.stderr.write(
              `  ${deployment.name}, ${w} worker(s), round ${r + 1}: ${result.cpuMicrosPerMessage.toFixed(0)} µs CPU/msg (gross ${result.grossCpuMicrosPerMessage.toFixed(0)}), ${result.redisCommandsPerMessage.toFixed(1)} cmds/msg, ${result.redisReadsPerMessage.toFixed(2)} round trips/msg, ${result.messages} msgs\n`,
            );
          }
        series.push({
          name: deployment.name,
          runs: WORKERS.map((w) => {
            const rs = byWorkers.get(w) ?? [];
            const med = (get: (x: (typeof rs)[number]) => number): number => median(rs.map(get));
            return {
              workers: w,
              messages: med((x) => x.messages),
              cpuMicrosPerMessage: med((x) => x.cpuMicrosPerMessage),
              grossCpuMicrosPerMessage: med((x) => x.grossCpuMicrosPerMessage),
              redisCommandsPerMessage: med((x) => x.redisCommandsPerMessage),
              redisReadsPerMessage: med((x) => x.redisReadsPerMessage),
              redisCpuMicrosPerMessage: med((x) => x.redisCpuMicrosPerMessage),
              p50: med((x) => x.p50),
              p99: med((x) => x.p99),
              exactlyOnce: rs.map((x) => x.exactlyOnce),
            };
          }),
        });
      } finally {
        await cleanup(redis, run);
        redis.disconnect();
      }
    }
    return series;
  } finally {
    await stub.stop();
  }
}

async function cleanup(redis: RedisClient, run: string): Promise<void> {
  const nodes: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes)
    for (const pattern of [`${run}*`, `{${run}*`])
      for await (const batch of node.scanStream({ match: pattern, count: 1000 }))
        for (const key of batch as string[]) await node.del(key);
}
