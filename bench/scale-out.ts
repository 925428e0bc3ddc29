/**
 * 2 Redis workers vs 1, end-to-end, measured so that the 2 cores go to the workers:
 *
 * - one lean stub API process (bench/lean-stub.ts, plain node:net) shared by every worker
 *   (`STUB_URL`), recording each text send per recipient;
 * - every signed callback of the timed window is built (JSON + HMAC) before the window
 *   starts, so the load generator (autocannon, in this process) only writes bytes;
 * - each configuration first gets the same warm-up (two callbacks per conversation, not
 *   timed: every worker process compiles its hot paths and every conversation exists),
 *   then the timed window (same autocannon settings for 1 and 2 workers: 32 connections
 *   in all, split evenly, 4 s), then the drain;
 * - 1 and 2 workers alternate for several rounds on fresh processes and prefixes; the
 *   ratio is the median of the per-round ratios;
 * - CPU time of every process of the run is read over the timed window + drain (workers
 *   and stub: process.cpuUsage via their stats routes; this process; redis-server: INFO
 *   cpu), with the machine's total busy time from /proc/stat, so CPU taken by anything
 *   else on the machine shows; Redis commands per message from INFO commandstats;
 * - exactly-once and order: every acknowledged callback `n` must have produced exactly
 *   one "got hello n" send, and per conversation those replies must arrive in the order
 *   of `n` (the order the callbacks were sent in).
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { signedInboundCallback } from './callback-body.js';
import { mergeLoads, runLoad } from './http-load.js';
import { spawnTarget, type Target, type TargetStats } from './spawn-target.js';
import { startStubProcess } from './stub-process.js';
import type { PipelineFigures } from './webhook-throughput.js';

const CONNECTIONS = 32;
const DURATION_SEC = 4;
const CONVERSATIONS = 2_000;
/**
 * Callbacks built ahead for the timed window, split between the workers: more than the
 * window takes (one worker acked up to ~5,000/s here at the default concurrency). Should
 * they run out, the rest are built during the window and counted (`builtLate`).
 */
const PREPARED = 40_000;
/** Timed callbacks are numbered from here (warm-up ones from 0): same conversations. */
const TIMED_BASE = 10_000_000;
/** The bench flow's prompt after each reply (bench/bench-flow.ts). */
const PROMPT = 'Say something.';
const ROUNDS = Number(process.env['BENCH_SCALE_ROUNDS'] ?? 3);

/** The exactly-once and order check of one run. */
export interface ExactlyOnce {
  /** Callbacks answered 2xx in the timed window. */
  readonly acked: number;
  /** "got …" replies recorded by the stub for timed callbacks. */
  readonly replies: number;
  /** Callbacks answered more than once. */
  readonly duplicates: number;
  /** Acknowledged callbacks without a reply. */
  readonly missing: number;
  /** Replies to callbacks whose answer the generator did not read (cut off at the end). */
  readonly unackedReplied: number;
  /** Other sends (the flow's next prompt, one per answered callback). */
  readonly prompts: number;
  /** Replies to callbacks this run never sent (another run's, or invented). */
  readonly unexpected: number;
  /** Conversations whose replies came out of callback order. */
  readonly outOfOrder: number;
  readonly ok: boolean;
}

/** CPU seconds over the timed window and drain. */
export interface CpuSplit {
  readonly workers: readonly number[];
  readonly stub: number;
  /** This process: autocannon (and the bench's own polling). */
  readonly loadGenerator: number;
  readonly redis: number;
  /** Everything busy on the machine (all processes, ours included). */
  readonly machineBusy: number;
  readonly wallSec: number;
}

export interface ScaleRun {
  readonly workers: number;
  readonly figures: PipelineFigures;
  readonly cpu: CpuSplit;
  readonly redisCommandsPerMessage: number;
  /** Items a worker processed that the other worker acknowledged (its sweep took them over). */
  readonly crossWorker: number;
  readonly exactlyOnce: ExactlyOnce;
  /** Callbacks that had to be built during the window (the prepared ones ran out). */
  readonly builtLate: number;
  /**
   * The workers' scheduler and system-call counters over the window + drain, summed
   * (Linux; undefined where a target cannot read them): preemptions, waits, reads, writes.
   */
  readonly workerCounters: WorkerCounters | undefined;
}

/** Counters of the worker processes (see `schedulerCounters` in bench/target-server.ts). */
export interface WorkerCounters {
  readonly involuntarySwitches: number;
  readonly voluntarySwitches: number;
  readonly readCalls: number;
  readonly writeCalls: number;
}

const COUNTER_NAMES = [
  'involuntarySwitches',
  'voluntarySwitches',
  'readCalls',
  'writeCalls',
] as const;

/** The counters' growth from `before` to `after`, summed over the workers. */
export function counterDeltas(
  before: readonly TargetStats[],
  after: readonly TargetStats[],
): WorkerCounters | undefined {
  const total = { involuntarySwitches: 0, voluntarySwitches: 0, readCalls: 0, writeCalls: 0 };
  for (const [i, a] of after.entries()) {
    for (const name of COUNTER_NAMES) {
      const from = before[i]?.[name];
      const to = a[name];
      if (from === undefined || to === undefined) return undefined;
      total[name] += to - from;
    }
  }
  return total;
}

export interface ScaleFigures {
  readonly rounds: ReadonlyArray<{ readonly one: ScaleRun; readonly two: ScaleRun }>;
  /** Median of the per-round end-to-end ratios (2 workers / 1). */
  readonly ratio: number;
  readonly ratios: readonly number[];
}

/** The median (mean of the middle two for an even count). */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

export function machineBusyTicks(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // user nice system idle iowait irq softirq steal …: busy = all but idle and iowait.
  return fields.reduce((s, x) => s + x, 0) - (fields[3] ?? 0) - (fields[4] ?? 0);
}

export async function redisCpuSec(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const read = (name: string): number =>
    Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return read('used_cpu_user') + read('used_cpu_sys');
}

export async function redisCalls(redis: Redis): Promise<number> {
  const info = await redis.info('commandstats');
  let calls = 0;
  for (const m of info.matchAll(/^cmdstat_(\S+):calls=(\d+)/gm))
    if (m[1] !== 'info') calls += Number(m[2]);
  return calls;
}

interface StubTake {
  readonly sends: number;
  readonly byTo: Record<string, string[]>;
}

/** Acknowledged callbacks vs the replies the stub recorded (exported for a check of the check). */
export function check(
  take: StubTake,
  acked: ReadonlySet<number>,
  issued: ReadonlySet<number>,
): ExactlyOnce {
  const reply = /^got hello (\d+)$/;
  const count = new Map<number, number>();
  let replies = 0;
  let prompts = 0;
  let outOfOrder = 0;
  for (const texts of Object.values(take.byTo)) {
    let last = -1;
    let ordered = true;
    for (const text of texts) {
      const m = reply.exec(text);
      if (m === null) {
        if (text === PROMPT) prompts++;
        continue;
      }
      const n = Number(m[1]);
      replies++;
      count.set(n, (count.get(n) ?? 0) + 1);
      if (n <= last) ordered = false;
      last = n;
    }
    if (!ordered) outOfOrder++;
  }
  let duplicates = 0;
  let unackedReplied = 0;
  let unexpected = 0;
  for (const [n, c] of count) {
    if (c > 1) duplicates++;
    if (!acked.has(n)) {
      if (issued.has(n)) unackedReplied++;
      else unexpected++;
    }
  }
  let missing = 0;
  for (const n of acked) if (!count.has(n)) missing++;
  return {
    acked: acked.size,
    replies,
    duplicates,
    missing,
    unackedReplied,
    unexpected,
    prompts,
    outOfOrder,
    ok:
      duplicates === 0 &&
      missing === 0 &&
      outOfOrder === 0 &&
      unexpected === 0 &&
      prompts === replies &&
      take.sends === replies + prompts,
  };
}

export async function waitForEvents(
  targets: readonly Target[],
  events: number,
  options: { sends?: boolean } = {},
): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    const s = await Promise.all(targets.map((t) => t.stats(options)));
    if (s.reduce((x, y) => x + y.events, 0) >= events || Date.now() > until) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the stub's send count stops moving (the last replies landed). */
export async function settle(stubUrl: string): Promise<void> {
  let last = -1;
  const until = Date.now() + 30_000;
  for (;;) {
    const { sends } = (await (await fetch(`${stubUrl}/__sends`)).json()) as { sends: number };
    if (sends === last || Date.now() > until) return;
    last = sends;
    await new Promise((r) => setTimeout(r, 300));
  }
}

export async function take(stubUrl: string): Promise<StubTake> {
  return (await (await fetch(`${stubUrl}/__take`, { method: 'POST' })).json()) as StubTake;
}

async function oneRun(
  workers: number,
  keyPrefix: string,
  label: string,
  stubUrl: string,
  redis: Redis,
): Promise<ScaleRun> {
  const targets: Target[] = [];
  for (let i = 0; i < workers; i++)
    targets.push(await spawnTarget('bot-redis', keyPrefix, { env: { STUB_URL: stubUrl } }));
  try {
    // Request n of worker i is callback n * workers + i: worker i gets its own
    // conversations (c ≡ i mod workers), as a load balancer with affinity would.
    const callback = (global: number, nowMs: number) =>
      signedInboundCallback(global, CONVERSATIONS, nowMs, label);
    // Warm-up: two callbacks per conversation, not timed.
    const perWorker = Math.ceil((2 * CONVERSATIONS) / workers);
    await Promise.all(
      targets.map((t, i) =>
        runLoad({
          url: t.url,
          path: '/callbacks',
          connections: Math.max(1, Math.floor(CONNECTIONS / workers)),
          durationSec: 60,
          amount: perWorker,
          makeRequest: (n) => callback(n * workers + i, Date.now()),
        }),
      ),
    );
    await waitForEvents(targets, perWorker * workers);
    await settle(stubUrl);
    await take(stubUrl);

    // Every timed callback built before the window.
    const now = Date.now();
    const prepared = targets.map((_, i) =>
      Array.from({ length: Math.ceil(PREPARED / workers) }, (_, n) =>
        callback(TIMED_BASE + n * workers + i, now),
      ),
    );
    let builtLate = 0;
    const acked = new Set<number>();
    const issued = new Set<number>();

    const before = await Promise.all(targets.map((t) => t.stats()));
    const stubCpu0 = await stubCpu(stubUrl);
    const self0 = process.cpuUsage();
    const redis0 = await redisCpuSec(redis);
    const calls0 = await redisCalls(redis);
    const busy0 = machineBusyTicks();
    const started = Date.now();
    const loads = await Promise.all(
      targets.map((t, i) =>
        runLoad({
          url: t.url,
          path: '/callbacks',
          connections: Math.max(1, Math.floor(CONNECTIONS / workers)),
          durationSec: DURATION_SEC,
          makeRequest: (n) => {
            const global = TIMED_BASE + n * workers + i;
            issued.add(global);
            const ready = prepared[i]?.[n];
            if (ready !== undefined) return ready;
            builtLate++;
            return callback(global, Date.now());
          },
          onResponse: (n, status) => {
            if (status >= 200 && status < 300) acked.add(TIMED_BASE + n * workers + i);
          },
        }),
      ),
    );
    const loadEnd = Date.now();
    const ackedCount = loads.reduce((s, l) => s + l.ok2xx, 0);
    const eventsBefore = before.reduce((s, x) => s + x.events, 0);
    await waitForEvents(targets, eventsBefore + ackedCount);
    const end = Date.now();
    const after = await Promise.all(targets.map((t) => t.stats()));
    const busy1 = machineBusyTicks();
    const self = process.cpuUsage(self0);
    const redis1 = await redisCpuSec(redis);
    const calls1 = await redisCalls(redis);
    const stubCpu1 = await stubCpu(stubUrl);
    const processed = Math.min(ackedCount, after.reduce((s, x) => s + x.events, 0) - eventsBefore);
    await settle(stubUrl);
    const exactlyOnce = check(await take(stubUrl), acked, issued);
    const wallSec = (end - started) / 1000;
    return {
      workers,
      figures: {
        load: mergeLoads(loads, ackedCount),
        endToEndPerSec: processed / wallSec,
        drainSec: (end - loadEnd) / 1000,
        cpuMsPerMessage:
          processed === 0
            ? Number.NaN
            : after.reduce((s, a, i) => s + a.cpuMicros - (before[i]?.cpuMicros ?? 0), 0) /
              1000 /
              processed,
      },
      cpu: {
        workers: after.map((a, i) => (a.cpuMicros - (before[i]?.cpuMicros ?? 0)) / 1e6),
        stub: (stubCpu1 - stubCpu0) / 1e6,
        loadGenerator: (self.user + self.system) / 1e6,
        redis: redis1 - redis0,
        // /proc/stat counts in USER_HZ (100 per second on Linux).
        machineBusy: (busy1 - busy0) / 100,
        wallSec,
      },
      redisCommandsPerMessage: (calls1 - calls0) / Math.max(1, processed),
      // Items a worker processed beyond the callbacks it acknowledged itself: taken over
      // from the other worker (its periodic inbox sweep found them waiting).
      crossWorker: after.reduce(
        (sum, a, i) =>
          sum + Math.max(0, a.events - (before[i]?.events ?? 0) - (loads[i]?.ok2xx ?? 0)),
        0,
      ),
      exactlyOnce,
      builtLate,
      workerCounters: counterDeltas(before, after),
    };
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
}

export async function stubCpu(stubUrl: string): Promise<number> {
  const body = (await (await fetch(`${stubUrl}/__cpu`)).json()) as { cpuMicros: number };
  return body.cpuMicros;
}

/** Alternates 1 and 2 workers for {@link ROUNDS} rounds; keys under `run` (caller cleans). */
export async function scaleOut(run: string): Promise<ScaleFigures> {
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
  const stub = await startStubProcess('lean-stub-server');
  try {
    const rounds: Array<{ one: ScaleRun; two: ScaleRun }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const one = await oneRun(1, `${run}one${r}:`, `s1r${r}`, stub.url, redis);
      const two = await oneRun(2, `${run}two${r}:`, `s2r${r}`, stub.url, redis);
      rounds.push({ one, two });
    }
    const ratios = rounds.map((x) => x.two.figures.endToEndPerSec / x.one.figures.endToEndPerSec);
    return { rounds, ratio: median(ratios), ratios };
  } finally {
    await stub.stop();
    redis.disconnect();
  }
}
