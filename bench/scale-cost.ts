/**
 * What scale-out costs: the workers' CPU per message summed over 1, 2 and 4 Redis workers,
 * at a fixed load meant to be well below saturation, on one Redis node and on the local
 * cluster (and the cluster with the durability mode, REDIS_WAIT_REPLICAS=1). Per
 * configuration: warm-up (two callbacks per conversation, untimed), then RATE callbacks/s
 * for DURATION_SEC, open-loop and evenly paced (bench/paced-load.ts; autocannon's
 * overallRate fires a per-second quota in a burst and drops what the second did not send,
 * so the load it offers depends on the latency), split over the workers with their
 * arrivals interleaved (each conversation always on the same worker), then the drain.
 * Measured over window + drain, less what the same workers and Redis spend idle over as
 * long (measured over IDLE_MS just before): the workers' CPU (process.cpuUsage via their
 * stats route, polled without the stub fetch), their context switches and read/write calls
 * (main thread, /proc), Redis commands by name (INFO commandstats) and the reads Redis
 * served (INFO stats total_reads_processed: one per batch a client sent, i.e. round trips
 * with auto-pipelining) per message, summed over every primary; exactly-once as in
 * scale-out.ts. The 2- and 4-worker ratios are per round against that round's 1-worker run.
 */
import { loadavg } from 'node:os';
import type { Redis } from 'ioredis';
import { Cluster } from 'ioredis';
import { signedInboundCallback } from './callback-body.js';
import { runLoad } from './http-load.js';
import { runPaced } from './paced-load.js';
import { check, median, settle, take, waitForEvents, type ExactlyOnce } from './scale-out.js';
import { spawnTarget, type Target, type TargetStats } from './spawn-target.js';
import { startStubProcess } from './stub-process.js';
import { connectRedis } from '../src/store/redis-connection.js';
import { asCluster, type RedisClient } from '../src/store/redis-script.js';

const RATE = Number(process.env['BENCH_SCALE_RATE'] ?? 50);
const DURATION_SEC = Number(process.env['BENCH_SCALE_SECONDS'] ?? 10);
const CONVERSATIONS = Number(process.env['BENCH_SCALE_CONVERSATIONS'] ?? 400);
const TIMED_BASE = 10_000_000;
const ROUNDS = Number(process.env['BENCH_SCALE_ROUNDS'] ?? 2);
/** Worker counts measured (BENCH_SCALE_WORKERS=1,4 for some); 1 is the ratios' base. */
const WORKERS = (process.env['BENCH_SCALE_WORKERS'] ?? '1,2,4').split(',').map(Number);
/** The idle spell measured before each window (its cost per ms is subtracted). */
const IDLE_MS = Number(process.env['BENCH_SCALE_IDLE_MS'] ?? 10_000);
/** `paced` (default): evenly spaced arrivals; `burst`: autocannon's per-second quota. */
const LOAD = process.env['BENCH_SCALE_LOAD'] === 'burst' ? 'burst' : 'paced';
const WARMUP = process.env['BENCH_SCALE_WARMUP'] === 'per-worker' ? 'per-worker' : 'split';
/** BENCH_SCALE_PROFILE_DIR=<dir>: a CPU profile of each worker over the window + drain. */
const PROFILE_DIR = process.env['BENCH_SCALE_PROFILE_DIR'];
/** Which deployments (indices 0 one node, 1 cluster, 2 cluster + WAIT); default all. */
const DEPLOYMENTS = (process.env['BENCH_SCALE_DEPLOYMENTS'] ?? '0,1,2').split(',').map(Number);
/** BENCH_SCALE_MATCHED=0 leaves out the 1-worker runs at the per-worker rates (see CostRun.matched). */
const MATCHED = process.env['BENCH_SCALE_MATCHED'] !== '0';

/** The change of `get` from `before` to `after`, summed over the workers. */
function sum(
  after: readonly TargetStats[],
  before: readonly TargetStats[],
  get: (x: TargetStats) => number | undefined,
): number {
  return after.reduce((s, a, i) => {
    const b = before[i];
    return s + (get(a) ?? 0) - (b === undefined ? 0 : (get(b) ?? 0));
  }, 0);
}

/** One configuration's figures (medians over the rounds). */
export interface CostRun {
  readonly workers: number;
  /** Workers' CPU µs per message, summed over the workers, less their idle CPU over as long. */
  readonly cpuMicrosPerMessage: number;
  /** The same without subtracting the idle CPU. */
  readonly grossCpuMicrosPerMessage: number;
  readonly redisCommandsPerMessage: number;
  /** Commands per message by name, gross (idle not subtracted), most first. */
  readonly commandMix: string;
  /** The machine's 1-minute load average at the window's end. */
  readonly loadAverage: number;
  readonly redisReadsPerMessage: number;
  /** Per round: this run's CPU per message ÷ the same round's 1-worker one. */
  readonly ratios: readonly number[];
  /**
   * With BENCH_SCALE_MATCHED (default on), for 2 and more workers: one worker alone at this
   * run's per-worker rate (RATE / workers) in the same round, so that the ratio compares the
   * same rate per process and leaves the coordination: per round, this run's CPU per message
   * ÷ that worker's; and that worker's CPU per message (median of rounds).
   */
  readonly matched?: { readonly ratios: readonly number[]; readonly cpuMicrosPerMessage: number };
  /** Redis server CPU µs per message (summed over primaries). */
  readonly redisCpuMicrosPerMessage: number;
  readonly messages: number;
  /** Callbacks the generator offered in the window. */
  readonly offered: number;
  /** The workers' idle CPU, summed (µs per second). */
  readonly idleCpuMicrosPerSec: number;
  /** Per message, summed over the workers (Linux; 0 elsewhere). */
  readonly voluntarySwitchesPerMessage: number;
  readonly involuntarySwitchesPerMessage: number;
  readonly readCallsPerMessage: number;
  readonly writeCallsPerMessage: number;
  /**
   * Of the CPU per message (gross, summed): the main thread's (JavaScript and V8's
   * main-thread work; Linux, 10 ms ticks) and its pauses for garbage collection; the rest
   * ran on V8's and libuv's helper threads (concurrent GC marking and sweeping, compilation).
   */
  readonly mainThreadCpuMicrosPerMessage: number;
  readonly gcPauseMicrosPerMessage: number;
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
  /** Calls per command name (every primary). */
  readonly byCommand: ReadonlyMap<string, number>;
  readonly reads: number;
  readonly cpuSec: number;
}

/** Commands, reads served and CPU of every primary of `client`. */
async function totals(client: RedisClient): Promise<RedisTotals> {
  const cluster = asCluster(client);
  const nodes: Redis[] = cluster === undefined ? [client as Redis] : cluster.nodes('master');
  let calls = 0;
  const byCommand = new Map<string, number>();
  let reads = 0;
  let cpuSec = 0;
  for (const node of nodes) {
    const info = await node.info('all');
    for (const m of info.matchAll(/^cmdstat_(\S+):calls=(\d+)/gm))
      if (m[1] !== undefined && m[1] !== 'info') {
        calls += Number(m[2]);
        byCommand.set(m[1], (byCommand.get(m[1]) ?? 0) + Number(m[2]));
      }
    reads += Number(/total_reads_processed:(\d+)/.exec(info)?.[1] ?? 0);
    const read = (name: string): number =>
      Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    cpuSec += read('used_cpu_user') + read('used_cpu_sys');
  }
  return { calls, byCommand, reads, cpuSec };
}

async function oneRun(
  workers: number,
  url: string,
  env: Record<string, string>,
  prefix: string,
  label: string,
  stubUrl: string,
  redis: RedisClient,
  rate = RATE,
): Promise<Omit<CostRun, 'exactlyOnce' | 'ratios' | 'matched'> & { exactlyOnce: ExactlyOnce }> {
  const targets: Target[] = [];
  for (let i = 0; i < workers; i++)
    targets.push(
      await spawnTarget('bot-redis', prefix, {
        env: {
          STUB_URL: stubUrl,
          REDIS_URL: url,
          ...env,
          ...(PROFILE_DIR === undefined
            ? {}
            : {
                CPU_PROFILE: `${PROFILE_DIR}/${label}-${i}.cpuprofile`,
                CPU_PROFILE_FROM: 'request',
              }),
        },
      }),
    );
  try {
    const callback = (global: number, nowMs: number) =>
      signedInboundCallback(global, CONVERSATIONS, nowMs, label);
    // BENCH_SCALE_WARMUP=per-worker: every worker gets the whole warm-up (as many messages
    // as one worker gets, over its own conversations), so each has run its hot paths as
    // often before the window (V8 optimises a function after enough calls); by default the
    // warm-up is split (two callbacks per conversation in all).
    const perWorker =
      WARMUP === 'per-worker' ? 2 * CONVERSATIONS : Math.ceil((2 * CONVERSATIONS) / workers);
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
    // Stats polled inside the measured spans skip the stub's send count (a fetch of the
    // worker's own, ~1 ms CPU): the drain polls every 50 ms, and each poll would otherwise
    // cost every worker that much again, more in all the more workers there are.
    const lite = (): Promise<TargetStats[]> =>
      Promise.all(targets.map((t) => t.stats({ sends: false })));
    // The idle cost (timer and inbox sweeps, leases, polls of every worker) over as long as
    // an idle spell: subtracted below, so the figures are what a message adds.
    const idle0 = await lite();
    const idleRedis0 = await totals(redis);
    const idleStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idle1 = await lite();
    const idleRedis1 = await totals(redis);
    const idleMs = performance.now() - idleStart;
    const idleCpuPerMs = sum(idle1, idle0, (x) => x.cpuMicros) / idleMs;
    const idleCallsPerMs = (idleRedis1.calls - idleRedis0.calls) / idleMs;
    const idleReadsPerMs = (idleRedis1.reads - idleRedis0.reads) / idleMs;
    const idleRedisCpuPerMs = ((idleRedis1.cpuSec - idleRedis0.cpuSec) * 1e6) / idleMs;
    if (PROFILE_DIR !== undefined)
      await Promise.all(targets.map((t) => fetch(`${t.url}/__profile`, { method: 'POST' })));
    const before = await lite();
    const redis0 = await totals(redis);
    const windowStart = performance.now();
    const mapN = (n: number, i: number): number => TIMED_BASE + n * workers + i;
    const makeRequest = (i: number) => (n: number) => {
      issued.add(mapN(n, i));
      return callback(mapN(n, i), Date.now());
    };
    const onResponse = (i: number) => (n: number, status: number) => {
      if (status >= 200 && status < 300) acked.add(mapN(n, i));
    };
    const loads: Array<{ ok2xx: number; p50: number; p99: number }> =
      LOAD === 'burst'
        ? await Promise.all(
            targets.map((t, i) =>
              runLoad({
                url: t.url,
                path: '/callbacks',
                connections: 4,
                durationSec: DURATION_SEC,
                overallRate: rate / workers,
                makeRequest: makeRequest(i),
                onResponse: onResponse(i),
              }),
            ),
          )
        : await Promise.all(
            targets.map((t, i) =>
              runPaced({
                url: t.url,
                path: '/callbacks',
                connections: 4,
                rate: rate / workers,
                count: Math.round((rate * DURATION_SEC) / workers),
                // The workers' arrivals interleave: the merged stream is evenly spaced too.
                phaseMs: (i * 1000) / rate,
                makeRequest: makeRequest(i),
                onResponse: onResponse(i),
              }),
            ),
          );
    const ackedCount = loads.reduce((s, l) => s + l.ok2xx, 0);
    const eventsBefore = before.reduce((s, x) => s + x.events, 0);
    await waitForEvents(targets, eventsBefore + ackedCount, { sends: false });
    await settle(stubUrl);
    const after = await lite();
    const redis1 = await totals(redis);
    const windowMs = performance.now() - windowStart;
    const messages = Math.max(1, ackedCount);
    const cpu = sum(after, before, (x) => x.cpuMicros);
    const net = (total: number, perMs: number): number =>
      Math.max(0, total - perMs * windowMs) / messages;
    const perMessage = (get: (x: TargetStats) => number | undefined): number =>
      sum(after, before, get) / messages;
    return {
      workers,
      messages: ackedCount,
      offered: LOAD === 'burst' ? rate * DURATION_SEC : issued.size,
      cpuMicrosPerMessage: net(cpu, idleCpuPerMs),
      redisCommandsPerMessage: net(redis1.calls - redis0.calls, idleCallsPerMs),
      commandMix: [...redis1.byCommand]
        .map(([name, n]): [string, number] => [
          name,
          (n - (redis0.byCommand.get(name) ?? 0)) / messages,
        ])
        .filter(([, n]) => n >= 0.5)
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => `${name} ${n.toFixed(1)}`)
        .join(', '),
      loadAverage: loadavg()[0] ?? 0,
      redisReadsPerMessage: net(redis1.reads - redis0.reads, idleReadsPerMs),
      redisCpuMicrosPerMessage: net((redis1.cpuSec - redis0.cpuSec) * 1e6, idleRedisCpuPerMs),
      grossCpuMicrosPerMessage: cpu / messages,
      idleCpuMicrosPerSec: idleCpuPerMs * 1000,
      voluntarySwitchesPerMessage: perMessage((x) => x.voluntarySwitches),
      involuntarySwitchesPerMessage: perMessage((x) => x.involuntarySwitches),
      readCallsPerMessage: perMessage((x) => x.readCalls),
      writeCallsPerMessage: perMessage((x) => x.writeCalls),
      mainThreadCpuMicrosPerMessage: perMessage((x) => x.mainThreadCpuMicros),
      gcPauseMicrosPerMessage: perMessage((x) => x.gcMicros),
      p50: median(loads.map((l) => l.p50)),
      p99: Math.max(...loads.map((l) => l.p99)),
      exactlyOnce: check(await take(stubUrl), acked, issued),
    };
  } finally {
    await Promise.all(targets.map((t) => (PROFILE_DIR === undefined ? t.stop() : t.finish())));
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
  ];
  const stub = await startStubProcess('lean-stub-server');
  const series: CostSeries[] = [];
  try {
    for (const [d, deployment] of deployments.entries()) {
      if (!DEPLOYMENTS.includes(d)) continue;
      let redis: RedisClient;
      try {
        redis = await connectRedis(deployment.url, { timeoutMs: 5_000 });
      } catch (error) {
        process.stderr.write(`scale cost on ${deployment.name} skipped: ${String(error)}\n`);
        continue;
      }
      try {
        const byWorkers = new Map<number, Array<Awaited<ReturnType<typeof oneRun>>>>();
        // One worker alone at RATE / w, per round, for each w > 1 (MATCHED).
        const alone = new Map<number, Array<Awaited<ReturnType<typeof oneRun>>>>();
        for (let r = 0; r < ROUNDS; r++) {
          if (MATCHED)
            for (const w of WORKERS.filter((n) => n > 1)) {
              const result = await oneRun(
                1,
                deployment.url,
                deployment.env,
                `${run}cost${d}m${w}r${r}:`,
                `k${d}m${w}r${r}`,
                stub.url,
                redis,
                RATE / w,
              );
              alone.set(w, [...(alone.get(w) ?? []), result]);
              process.stderr.write(
                `  ${deployment.name}, 1 worker at ${(RATE / w).toFixed(1)}/s (the ${w}-worker runs' rate per worker), round ${r + 1}: ${result.cpuMicrosPerMessage.toFixed(0)} µs CPU/msg (main thread ${result.mainThreadCpuMicrosPerMessage.toFixed(0)}), ${result.redisCommandsPerMessage.toFixed(1)} cmds/msg, ${result.redisReadsPerMessage.toFixed(2)} round trips/msg, ${result.messages} of ${result.offered} msgs; load ${result.loadAverage.toFixed(1)}\n`,
              );
            }
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
              `  ${deployment.name}, ${w} worker(s), round ${r + 1}: ${result.cpuMicrosPerMessage.toFixed(0)} µs CPU/msg (gross ${result.grossCpuMicrosPerMessage.toFixed(0)}: main thread ${result.mainThreadCpuMicrosPerMessage.toFixed(0)}, of it GC pauses ${result.gcPauseMicrosPerMessage.toFixed(0)}; helper threads ${(result.grossCpuMicrosPerMessage - result.mainThreadCpuMicrosPerMessage).toFixed(0)}), ${result.redisCommandsPerMessage.toFixed(1)} cmds/msg, ${result.redisReadsPerMessage.toFixed(2)} round trips/msg, ${result.messages} of ${result.offered} msgs; per msg: ${result.voluntarySwitchesPerMessage.toFixed(1)} voluntary + ${result.involuntarySwitchesPerMessage.toFixed(2)} involuntary switches, ${result.readCallsPerMessage.toFixed(1)} reads + ${result.writeCallsPerMessage.toFixed(1)} writes; idle ${result.idleCpuMicrosPerSec.toFixed(0)} µs/s; p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms; load ${result.loadAverage.toFixed(1)}; cmds: ${result.commandMix}\n`,
            );
          }
        }
        series.push({
          name: deployment.name,
          runs: WORKERS.map((w) => {
            const rs = byWorkers.get(w) ?? [];
            const med = (get: (x: (typeof rs)[number]) => number): number => median(rs.map(get));
            return {
              workers: w,
              messages: med((x) => x.messages),
              offered: med((x) => x.offered),
              idleCpuMicrosPerSec: med((x) => x.idleCpuMicrosPerSec),
              voluntarySwitchesPerMessage: med((x) => x.voluntarySwitchesPerMessage),
              involuntarySwitchesPerMessage: med((x) => x.involuntarySwitchesPerMessage),
              readCallsPerMessage: med((x) => x.readCallsPerMessage),
              writeCallsPerMessage: med((x) => x.writeCallsPerMessage),
              mainThreadCpuMicrosPerMessage: med((x) => x.mainThreadCpuMicrosPerMessage),
              gcPauseMicrosPerMessage: med((x) => x.gcPauseMicrosPerMessage),
              cpuMicrosPerMessage: med((x) => x.cpuMicrosPerMessage),
              grossCpuMicrosPerMessage: med((x) => x.grossCpuMicrosPerMessage),
              redisCommandsPerMessage: med((x) => x.redisCommandsPerMessage),
              commandMix: rs.map((x) => x.commandMix).join(' | '),
              loadAverage: med((x) => x.loadAverage),
              ratios: rs.map((x, r) => {
                const one = byWorkers.get(1)?.[r];
                return one === undefined ? 0 : x.cpuMicrosPerMessage / one.cpuMicrosPerMessage;
              }),
              ...(alone.has(w)
                ? {
                    matched: {
                      ratios: rs.map((x, r) => {
                        const one = alone.get(w)?.[r];
                        return one === undefined
                          ? 0
                          : x.cpuMicrosPerMessage / one.cpuMicrosPerMessage;
                      }),
                      cpuMicrosPerMessage: median(
                        (alone.get(w) ?? []).map((x) => x.cpuMicrosPerMessage),
                      ),
                    },
                  }
                : {}),
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
