/**
 * A benchmark target, run as a child process so the load generator does not share its
 * event loop: `tsx bench/target-server.ts echo|bot-memory|bot-redis|bot-sqlite
 * [redis prefix | sqlite file]`.
 * Prints `{"url": ...}` on stdout once listening. `GET /__stats` answers
 * `{ events, sends, rss, cpuMicros, gcMicros, gcCount }` (machine events fed, sends accepted by the stub API,
 * which runs in its own process like the real, remote API; `?sends=0`: 0 without asking
 * the stub), on Linux also its context switches and read/write calls. `STUB_URL` names a stub already running (one stub for
 * every target of a run); without it the target starts its own.
 * SIGTERM exits cleanly; with `CPU_PROFILE=<file>` it first writes a CPU profile of the
 * time since it started listening (with `CPU_PROFILE_FROM=request`: since `POST /__profile`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { MessagingClient } from '../src/api/client.js';
import { createBot } from '../src/engine/create-bot.js';
import { RedisStore } from '../src/store/redis-store.js';
import { createRedisClient } from '../src/store/redis-connection.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { benchFlow, benchUnderstandFlow } from './bench-flow.js';
import { createBuiltinUnderstander } from '../src/understand/builtin/index.js';
import { BENCH_SECRET } from './callback-body.js';
import { startStubProcess } from './stub-process.js';
import { unlimitedLimiter } from './unlimited-limiter.js';

const [mode = 'echo', prefix = 'sb:bench:'] = process.argv.slice(2);
const app = express();
app.disable('x-powered-by');
let events = 0;
let sends = (): Promise<number> => Promise.resolve(0);

if (mode === 'echo') {
  app.post('/echo', express.json(), (req, res) => {
    res.json(req.body);
  });
} else {
  const stubUrl = process.env['STUB_URL'];
  const stub = stubUrl === undefined ? await startStubProcess() : { url: stubUrl };
  sends = async () => {
    const body: unknown = await (await fetch(`${stub.url}/__sends`)).json();
    return typeof body === 'object' && body !== null && 'sends' in body ? Number(body.sends) : 0;
  };
  const redis =
    mode === 'bot-redis'
      ? createRedisClient(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', {
          autoPipelining: process.env['REDIS_AUTO_PIPELINING'] !== '0',
        })
      : undefined;
  // REDIS_WAIT_REPLICAS=1: the store's durability mode (WAIT after the writes that matter).
  const waitReplicas = Number(process.env['REDIS_WAIT_REPLICAS'] ?? 0);
  const store =
    redis !== undefined
      ? new RedisStore({
          redis,
          prefix,
          ...(waitReplicas > 0 ? { durability: { replicas: waitReplicas, timeoutMs: 1_000 } } : {}),
        })
      : mode === 'bot-sqlite'
        ? new SqliteStore({ path: prefix })
        : new MemoryStore();
  const client = new MessagingClient({
    baseUrl: stub.url,
    apiKey: 'sk_bench_0123456789',
    limiter: unlimitedLimiter,
  });
  // BENCH_UNDERSTAND=1: a flow with intents, every text understood by the builtin.
  const understand = process.env['BENCH_UNDERSTAND'] === '1';
  const bot = createBot({
    flows: [understand ? benchUnderstandFlow() : benchFlow()],
    ...(understand
      ? {
          understanding: {
            understander: createBuiltinUnderstander(),
            threshold: 0.6,
            timezone: 'UTC',
            knowledge: false,
          },
        }
      : {}),
    api: { client },
    store,
    callbacks: { secret: BENCH_SECRET },
    // The engine's default concurrency (`switchboard run` has no setting for it);
    // BENCH_CONCURRENCY=<n> measures another.
    ...(process.env['BENCH_CONCURRENCY'] === undefined
      ? {}
      : { concurrency: Number(process.env['BENCH_CONCURRENCY']) }),
    // BENCH_TICK_MS=<n>: the timer and inbox sweep period (default 1 s, as `run`).
    ...(process.env['BENCH_TICK_MS'] === undefined
      ? {}
      : { tickMs: Number(process.env['BENCH_TICK_MS']) }),
  });
  bot.on('event', ({ event }) => {
    if (event.type === 'inbound.message') events++;
  });
  await bot.start();
  app.use('/callbacks', bot.callbackRouter());
}
/** Main-thread pauses for garbage collection so far (µs), from V8's `gc` entries. */
let gcMicros = 0;
let gcCount = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMicros += entry.duration * 1000;
    gcCount++;
  }
}).observe({ entryTypes: ['gc'] });

/** Linux only: this process's main thread's user + system time (µs; 10 ms ticks). */
function mainThreadCpuMicros(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime in clock ticks (USER_HZ = 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/**
 * Linux only (`{}` elsewhere): how often the scheduler took the CPU away from this process
 * while it could run (`nonvoluntary_ctxt_switches`), how often it gave it up to wait, and
 * its read and write system calls (`/proc/self/io`: sockets and files alike).
 */
function schedulerCounters(): Record<string, number> {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const io = readFileSync('/proc/self/io', 'utf8');
    const read = (text: string, name: string): number =>
      Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
    const counters = {
      involuntarySwitches: read(status, 'nonvoluntary_ctxt_switches'),
      voluntarySwitches: read(status, 'voluntary_ctxt_switches'),
      readCalls: read(io, 'syscr'),
      writeCalls: read(io, 'syscw'),
    };
    return Object.values(counters).every(Number.isFinite) ? counters : {};
  } catch {
    return {};
  }
}

// `?sends=0` leaves out the stub's send count (a fetch of its own, ~1 ms CPU here), for
// callers that poll the stats inside a measured window.
app.get('/__stats', async (req, res) => {
  const cpu = process.cpuUsage();
  res.json({
    events,
    sends: req.query['sends'] === '0' ? 0 : await sends(),
    rss: process.memoryUsage().rss,
    cpuMicros: cpu.user + cpu.system,
    gcMicros,
    gcCount,
    ...(mainThreadCpuMicros() === undefined ? {} : { mainThreadCpuMicros: mainThreadCpuMicros() }),
    ...schedulerCounters(),
  });
});
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

// CPU_PROFILE=<file>: profile from here (start-up and module loading left out) until SIGTERM.
const profileFile = process.env['CPU_PROFILE'];
const session = profileFile === undefined ? undefined : new Session();
if (session !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
  // CPU_PROFILE_FROM=request: only from `POST /__profile` on (a measured window alone).
  if (process.env['CPU_PROFILE_FROM'] === 'request')
    app.post('/__profile', (_req, res) => {
      void session.post('Profiler.start').then(() => res.json({ profiling: true }));
    });
  else await session.post('Profiler.start');
}
process.on('SIGTERM', () => {
  if (session === undefined || profileFile === undefined) process.exit(0);
  void session.post('Profiler.stop').then(({ profile }) => {
    writeFileSync(profileFile, JSON.stringify(profile));
    process.exit(0);
  });
});
