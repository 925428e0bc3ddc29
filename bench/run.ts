/**
 * `npm run bench`: runs every benchmark side by side on this machine, prints the figures,
 * each row's target and whether it is met, and writes bench/RESULTS.md.
 *
 * Sections (all by default, about 5 minutes on 2 cores):
 *   webhook  bare echo vs the callback route on the memory, SQLite and Redis stores;
 *            end-to-end; 2 Redis workers vs 1; ack latency at 1,000 req/s
 *   engine   engine in-process vs a raw XState loop
 *   budget   send budget used by MemoryLimiter and RedisLimiter (simulated clock)
 *   rss      snapshot size and RSS of 100k idle conversations (memory store)
 *   polling  API reads per inbound message, detection delay, read budget (polling bot)
 *   growth   1,000,000 conversations in the SQLite store: RSS, p99 at 1M vs 1k
 *   real     `switchboard run examples/support-desk` against the sandbox process, callbacks,
 *            status callbacks and polling, 4.5 msg/s: CPU per inbound message vs a floor
 *            process, on SQLite, Redis and memory (BENCH_REAL_SEC=<window s>, default 180;
 *            BENCH_QUICK=1: 40 s; BENCH_REAL_STORES=sqlite,redis,memory; BENCH_REAL_RUNS=<n>)
 *   understand  builtin understander CPU per message, 50 intents × 20 examples (p99)
 *
 * Run only some: `BENCH_ONLY=polling,growth npm run bench` (or `npm run bench -- --only
 * polling,growth`). A partial run prints its rows but leaves bench/RESULTS.md alone (it
 * holds the last full run); set `BENCH_WRITE=1` to write it anyway. Hand-written sections
 * of RESULTS.md below the table (from its first `## ` heading on, e.g. `## Profile`) are
 * kept when it is rewritten.
 */
import { cpus } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisLimiter } from '../src/api/redis-limiter.js';
import { BUDGETS } from '../src/core/limits.js';
import { engineEventsFresh } from './engine-events-fresh.js';
import { growth } from './growth.js';
import { memoryRss } from './memory-rss.js';
import { polling } from './polling.js';
import { scaleCost } from './scale-cost.js';
import { pageReclaimNote } from './page-reclaim.js';
import { realLoadRows } from './real-load-rows.js';
import { sendBudget, type SendBudgetFigures } from './send-budget.js';
import { understandBench } from './understand.js';
import { median, type WorkerCounters } from './scale-out.js';
import {
  webhookThroughput,
  type PipelineFigures,
  type WebhookRound,
} from './webhook-throughput.js';

const SECTIONS = [
  'webhook',
  'scale',
  'engine',
  'budget',
  'rss',
  'polling',
  'growth',
  'real',
  'understand',
] as const;
type Section = (typeof SECTIONS)[number];
const onlyFlag = process.argv.indexOf('--only');
const onlyRaw =
  (onlyFlag >= 0 ? process.argv[onlyFlag + 1] : undefined) ?? process.env['BENCH_ONLY'] ?? '';
const only = onlyRaw
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '');
const unknown = only.filter((s) => !SECTIONS.includes(s as Section));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown bench section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}\n`,
  );
  process.exit(2);
}
const runs = (section: Section): boolean => only.length === 0 || only.includes(section);
const full = only.length === 0 || SECTIONS.every((s) => only.includes(s));

interface Row {
  readonly figure: string;
  readonly measured: string;
  readonly target: string;
  readonly pass: boolean | undefined;
}
const rows: Row[] = [];
const row = (figure: string, measured: string, target = '', pass?: boolean): void =>
  void rows.push({ figure, measured, target, pass });
const f = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (r: number): string => `${f(r * 100, 1)}%`;

const started = Date.now();

if (runs('webhook')) {
  process.stderr.write('webhook throughput (echo, memory, SQLite, Redis, 2 workers)…\n');
  const web = await webhookThroughput();
  // Ratios are taken within each round, then the median round is reported.
  const echoes = web.rounds.map((r) => r.echo.requestsPerSec);
  const echoMid = [...web.rounds].sort((a, b) => a.echo.requestsPerSec - b.echo.requestsPerSec)[
    Math.floor(web.rounds.length / 2)
  ];
  row(
    'bare express echo',
    `${f(median(echoes))} req/s (median of ${web.rounds.length} rounds: ${echoes.map((e) => f(e)).join(' / ')}; p50 ${echoMid?.echo.p50 ?? '?'} ms, p99 ${echoMid?.echo.p99 ?? '?'} ms)`,
  );
  const storeRows = (
    store: string,
    pick: (round: WebhookRound) => PipelineFigures | undefined,
    ackTarget: number,
    e2eTarget: number,
  ): void => {
    const measured = web.rounds.flatMap((round) => {
      const figures = pick(round);
      return figures === undefined ? [] : [{ figures, echo: round.echo.requestsPerSec }];
    });
    if (measured.length === 0) {
      row(
        `webhook ack, ${store} store`,
        'not measured (Redis unreachable)',
        `≥ ${pct(ackTarget)}`,
        false,
      );
      row(`webhook→engine→send end-to-end, ${store}`, 'not measured', `≥ ${pct(e2eTarget)}`, false);
      return;
    }
    const acks = measured.map((m) => m.figures.load.requestsPerSec / m.echo);
    const e2es = measured.map((m) => m.figures.endToEndPerSec / m.echo);
    const ack = median(acks);
    const e2e = median(e2es);
    const non2xx = measured.reduce((n, m) => n + m.figures.load.non2xx + m.figures.load.errors, 0);
    const rounds = (ratios: number[]): string =>
      `median of ${ratios.length} rounds: ${ratios.map((r) => pct(r)).join(' / ')}`;
    row(
      `webhook ack, ${store} store`,
      `${f(median(measured.map((m) => m.figures.load.requestsPerSec)))} req/s = ${pct(ack)} of echo (${rounds(acks)})${non2xx > 0 ? ` (${f(non2xx)} not 2xx)` : ''}`,
      `≥ ${f(ackTarget * 100)}%`,
      ack >= ackTarget,
    );
    row(
      `webhook→engine→send end-to-end, ${store}`,
      `${f(median(measured.map((m) => m.figures.endToEndPerSec)))} msg/s = ${pct(e2e)} of echo (${rounds(e2es)}; drain ${f(median(measured.map((m) => m.figures.drainSec)), 1)} s)`,
      `≥ ${f(e2eTarget * 100)}%`,
      e2e >= e2eTarget,
    );
  };
  storeRows('memory', (r) => r.memory, 0.7, 0.3);
  // The same targets with a flow that has intents: every text is understood (builtin).
  storeRows('memory, understanding on', (r) => r.memoryUnderstood, 0.7, 0.3);
  // CPU per message is less at the mercy of a loaded machine than a ratio of two rates.
  const cpuOff = median(web.rounds.map((r) => r.memory.cpuMsPerMessage));
  const cpuOn = median(web.rounds.map((r) => r.memoryUnderstood.cpuMsPerMessage));
  row(
    'webhook target CPU per message, memory: understanding off → on',
    `${f(cpuOff, 3)} → ${f(cpuOn, 3)} ms (+${f(cpuOn - cpuOff, 3)} ms; median of ${web.rounds.length} rounds; ack + engine + send, load and drain)`,
  );
  storeRows('SQLite', (r) => r.sqlite, 0.5, 0.2);
  storeRows('Redis', (r) => r.redis, 0.5, 0.25);
  if (web.scale !== undefined) {
    const { scale } = web;
    const runs = scale.rounds.flatMap((r) => [r.one, r.two]);
    const med = median;
    const pick = (w: 1 | 2) => runs.filter((r) => r.workers === w);
    const e2e = (w: 1 | 2): number => med(pick(w).map((r) => r.figures.endToEndPerSec));
    const ack = (w: 1 | 2): number => med(pick(w).map((r) => r.figures.load.requestsPerSec));
    // CPU ms per 1,000 messages (median over rounds), per process kind.
    const per1k = (w: 1 | 2, sec: (r: (typeof runs)[number]) => number): string =>
      f(med(pick(w).map((r) => (sec(r) * 1e6) / Math.max(1, r.figures.load.ok2xx))), 0);
    // Per message, summed over the workers: preemptions by the scheduler, and reads + writes.
    const counters = (w: 1 | 2): string => {
      const measured = pick(w).flatMap((r) =>
        r.workerCounters === undefined
          ? []
          : [{ c: r.workerCounters, messages: Math.max(1, r.figures.load.ok2xx) }],
      );
      if (measured.length === 0) return '';
      const per = (get: (c: WorkerCounters) => number): string =>
        f(med(measured.map(({ c, messages }) => get(c) / messages)), 2);
      return `; worker${w === 2 ? 's' : ''} preempted ${per((c) => c.involuntarySwitches)} times/msg, ${per((c) => c.readCalls + c.writeCalls)} read+write calls/msg`;
    };
    const split = (w: 1 | 2): string => {
      const workers = per1k(w, (r) => r.cpu.workers.reduce((a, b) => a + b, 0));
      const others = med(
        pick(w).map(
          (r) =>
            (r.cpu.machineBusy -
              r.cpu.workers.reduce((a, b) => a + b, 0) -
              r.cpu.stub -
              r.cpu.loadGenerator -
              r.cpu.redis) /
            r.cpu.wallSec,
        ),
      );
      return `worker${w === 2 ? 's' : ''} ${workers}, stub ${per1k(w, (r) => r.cpu.stub)}, load gen ${per1k(w, (r) => r.cpu.loadGenerator)}, redis ${per1k(w, (r) => r.cpu.redis)} µs/msg; ${f(med(pick(w).map((r) => r.redisCommandsPerMessage)), 1)} Redis cmds/msg; rest of machine ${f(others, 2)} cores${counters(w)}${w === 2 ? `; items taken over from the other worker ${f(med(pick(w).map((r) => r.crossWorker)))}` : ''}`;
    };
    const once = runs.map((r) => r.exactlyOnce);
    const twoOnce = pick(2).map((r) => r.exactlyOnce);
    const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    const exact = `exactly-once (2 workers, ${twoOnce.length} runs): ${f(sum(twoOnce.map((x) => x.replies)))} replies (+ ${f(sum(twoOnce.map((x) => x.prompts)))} next prompts) for ${f(sum(twoOnce.map((x) => x.acked)))} acked messages, ${sum(once.map((x) => x.duplicates))} duplicates, ${sum(once.map((x) => x.missing))} missing, order ${sum(once.map((x) => x.outOfOrder)) === 0 ? 'ok' : `broken in ${sum(once.map((x) => x.outOfOrder))} conversations`}${sum(once.map((x) => x.unexpected)) > 0 ? `, ${sum(once.map((x) => x.unexpected))} replies to callbacks never sent` : ''} (all ${once.length} runs checked${sum(once.map((x) => x.unackedReplied)) > 0 ? `; ${sum(once.map((x) => x.unackedReplied))} replies to callbacks cut off before their ack was read` : ''})`;
    const late = sum(runs.map((r) => r.builtLate));
    row(
      '2 workers vs 1 on Redis (end-to-end)',
      `${f(e2e(2))} vs ${f(e2e(1))} msg/s = ×${f(scale.ratio, 2)} (median of ${scale.ratios.length} rounds: ${scale.ratios.map((x) => `×${f(x, 2)}`).join(' / ')}); ack ${f(ack(2))} vs ${f(ack(1))} req/s; CPU per message, 1 worker: ${split(1)}; 2 workers: ${split(2)}; ${exact}${late > 0 ? `; ${f(late)} callbacks built during the window` : ''}`,
      'retired (issue 31): see "scale-out cost"; exactly once, in order',
      once.every((x) => x.ok),
    );
  }
  const latency = (name: string, l: { p50: number; p99: number; requestsPerSec: number }): void =>
    row(
      `ack latency @1,000 req/s, ${name}`,
      `p50 ${l.p50} ms, p99 ${l.p99} ms (${f(l.requestsPerSec)} req/s)`,
      name === 'echo' ? '' : 'p99 ≤ 50 ms',
      name === 'echo' ? undefined : l.p99 <= 50,
    );
  latency('echo', web.fixedRate.echo);
  latency('memory', web.fixedRate.memory);
  latency('SQLite', web.fixedRate.sqlite);
  if (web.fixedRate.redis !== undefined) latency('Redis', web.fixedRate.redis);
}

if (runs('scale')) {
  process.stderr.write('scale-out cost (1, 2, 4 Redis workers at a fixed load)…\n');
  for (const series of await scaleCost(`bench:scale:${Date.now()}:`)) {
    for (const run of series.runs) {
      // Each round's ratio against its own 1-worker run (the machine's load drifts between
      // rounds more than between the runs of one round), median of rounds.
      const ratio = median(run.ratios);
      const once = run.exactlyOnce;
      const dup = once.reduce((s, x) => s + x.duplicates, 0);
      const missing = once.reduce((s, x) => s + x.missing, 0);
      const limit = run.workers === 2 ? 1.1 : run.workers === 4 ? 1.25 : undefined;
      // What coordination adds: against one worker alone at the same rate per worker (a
      // process's CPU per message grows as its own rate falls, coordination or not); the
      // ratio to one worker at the whole rate, which has that growth in it, is printed too.
      const judged = run.matched === undefined ? ratio : median(run.matched.ratios);
      row(
        `scale-out cost: ${run.workers} worker${run.workers === 1 ? '' : 's'}, ${series.name}`,
        `${f(run.cpuMicrosPerMessage)} µs worker CPU/msg summed, idle cost subtracted${run.workers === 1 ? '' : ` = ×${f(ratio, 2)} of 1 worker (median of rounds: ${run.ratios.map((x) => `×${f(x, 2)}`).join(' / ')})${run.matched === undefined ? '' : `; ×${f(median(run.matched.ratios), 2)} of 1 worker alone at the same rate per worker, ${f(Number(process.env['BENCH_SCALE_RATE'] ?? 50) / run.workers, 1)}/s: ${f(run.matched.cpuMicrosPerMessage)} µs/msg (rounds: ${run.matched.ratios.map((x) => `×${f(x, 2)}`).join(' / ')})`}`} (gross ${f(run.grossCpuMicrosPerMessage)}: main thread ${f(run.mainThreadCpuMicrosPerMessage)}, of it GC pauses ${f(run.gcPauseMicrosPerMessage)}, helper threads ${f(run.grossCpuMicrosPerMessage - run.mainThreadCpuMicrosPerMessage)}); ${f(run.redisCommandsPerMessage, 1)} Redis cmds/msg, ${f(run.redisReadsPerMessage, 2)} round trips/msg, Redis CPU ${f(run.redisCpuMicrosPerMessage)} µs/msg; ack p50 ${f(run.p50)} ms, p99 ${f(run.p99)} ms; ${f(run.messages)} msgs at ${f(Number(process.env['BENCH_SCALE_RATE'] ?? 50))}/s paced (median of ${once.length} rounds); ${f(run.voluntarySwitchesPerMessage, 1)} voluntary + ${f(run.involuntarySwitchesPerMessage, 1)} involuntary context switches, ${f(run.readCallsPerMessage, 1)} read + ${f(run.writeCallsPerMessage, 1)} write calls per msg; load average ${f(run.loadAverage, 1)}; ${dup} duplicates, ${missing} missing`,
        limit === undefined
          ? 'exactly once'
          : `≤ ×${f(limit, 2)} ${run.matched === undefined ? 'of 1 worker' : 'of 1 worker at the same rate per worker'}, exactly once`,
        (limit === undefined || judged <= limit) && once.every((x) => x.ok),
      );
    }
  }
}

if (runs('engine')) {
  process.stderr.write('engine events/s vs raw XState…\n');
  const ev = await engineEventsFresh(20_000, 1_000, 5);
  row(
    'engine in-process vs raw XState loop',
    `${f(ev.engineEventsPerSec)} vs ${f(ev.rawEventsPerSec)} events/s = ${pct(ev.ratio)} (median of ${ev.rounds} rounds; range ${pct(ev.ratioRange[0])}–${pct(ev.ratioRange[1])})`,
    '≥ 70%',
    ev.ratio >= 0.7,
  );
  row(
    'same, live-actor cache off (restore every event)',
    `${f(ev.engineNoCacheEventsPerSec)} events/s = ${pct(ev.ratioNoCache)} of raw`,
  );
}

if (runs('budget')) {
  process.stderr.write('send budgets (simulated clock)…\n');
  const budgetRows = (b: SendBudgetFigures): void => {
    const ok = b.numberShare >= 0.95 && b.workspaceShare >= 0.95 && b.count429 === 0;
    row(
      `send budget used, ${b.limiter}`,
      `per number ${b.perNumberLastMinute.join(' / ')} of 600 (${pct(b.numberShare)}), workspace ${b.workspaceLastMinute} of 1,200 (${pct(b.workspaceShare)}), max ${b.maxPerSecond}/s, 429s: ${b.count429}`,
      '≥ 95%, 0 × 429',
      ok,
    );
  };
  budgetRows(await sendBudget(3));
  try {
    const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', {
      lazyConnect: true,
    });
    await redis.connect();
    const prefix = `sb:bench:${randomUUID()}:`;
    budgetRows(
      await sendBudget(2, (clock) => new RedisLimiter({ redis, prefix, clock }), 'RedisLimiter'),
    );
    const keys = await redis.keys(`*${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  } catch (error) {
    process.stderr.write(`RedisLimiter budget skipped: ${String(error)}\n`);
    row(
      'send budget used, RedisLimiter',
      'not measured (Redis unreachable)',
      '≥ 95%, 0 × 429',
      false,
    );
  }
}

if (runs('rss')) {
  process.stderr.write('100,000 idle conversations…\n');
  const mem = await memoryRss(100_000);
  row(
    'snapshot size (conversation document)',
    `${f(mem.avgDocBytes)} B avg, ${f(mem.maxDocBytes)} B max (XState part ${f(mem.avgSnapshotBytes)} B; journal ${mem.journalOn ? `on: ${f(mem.avgJournalEntries, 1)} entries, ${f(mem.avgJournalBytes)} B` : 'off'})`,
    '≤ 1 KB',
    mem.maxDocBytes <= 1024,
  );
  row(
    'RSS for 100k idle conversations (memory store)',
    `idle: +${f(mem.idleRssDeltaMb)} MB, journal ${mem.journalOn ? 'on' : 'off'} (heap +${f(mem.idleHeapDeltaMb)} MB; process ${f(mem.idleRssMb)} MB; heap settled after ${f(mem.idleSeconds)} s idle); right after the fill: +${f(mem.rssDeltaMb)} MB (heap +${f(mem.heapDeltaMb)} MB)`,
    '≤ 250 MB (idle)',
    mem.idleRssDeltaMb <= 250,
  );
}

if (runs('polling')) {
  process.stderr.write('polling cost (polling bot against the sandbox)…\n');
  // The target is the median of rounds: the list's lastMessage hides an inbound message
  // behind the bot's own reply now and then, so a single window swings.
  const pollRounds: Awaited<ReturnType<typeof polling>>[] = [];
  for (let r = 0; r < Number(process.env['BENCH_POLLING_ROUNDS'] ?? 3); r++)
    pollRounds.push(await polling());
  const perMessage = pollRounds.map((x) => x.readsPerMessage);
  const readsMedian = median(perMessage);
  const p =
    [...pollRounds].sort((a, b) => a.readsPerMessage - b.readsPerMessage)[
      Math.floor(pollRounds.length / 2)
    ] ?? pollRounds[0]!;
  const { intervalMs, contacts, ratePerSec, windowSec } = p.options;
  const reads = Object.entries(p.windowReads)
    .map(([route, n]) => `${route} ${f(n)}`)
    .join(', ');
  const readCount = Object.values(p.windowReads).reduce((s, n) => s + n, 0);
  row(
    'polling: API reads per new inbound message (steady state)',
    `${f(readsMedian, 2)} (median of ${pollRounds.length} rounds: ${perMessage.map((x) => f(x, 2)).join(' / ')}; median round: ${f(readCount)} reads / ${f(p.windowMessages)} messages in ${windowSec} s: ${reads}; ${f(p.windowHistoryReadsWithoutInbound)} history reads found no new inbound; ${f(p.windowSends)} sends; ${ratePerSec} msg/s from ${contacts} contacts, poll ${f(intervalMs / 1000, 1)} s)`,
    '≤ 1.5 (median of rounds)',
    readsMedian <= 1.5,
  );
  const limit = intervalMs + 1000;
  row(
    'polling: detection delay (sandbox records → machine gets it)',
    `p50 ${f(p.delayP50Ms)} ms, p99 ${f(p.delayP99Ms)} ms, max ${f(p.delayMaxMs)} ms (${f(p.detected)} of ${f(p.injected)} detected)`,
    `max ≤ ${f(limit / 1000, 1)} s (poll interval + 1 s)`,
    p.detected === p.injected && p.delayMaxMs <= limit,
  );
  row(
    `polling: read budget (${f(BUDGETS.readBurst.limit)}/s, ${f(BUDGETS.readSustained.limit)}/min per key)`,
    `most reads in any 1 s: ${f(p.maxReadsPerSecond)}, in any 60 s: ${f(p.maxReadsPerMinute)}; 429s: ${p.count429}`,
    'never exceeded, 0 × 429',
    !p.readBudgetExceeded,
  );
}

if (runs('growth')) {
  process.stderr.write('growth: 1,000,000 conversations in the SQLite store…\n');
  const g = await growth();
  const { small, large } = g;
  row(
    'growth: RSS serving 1,000,000 conversations (SQLite store)',
    `peak ${f(large.peakRssMb)} MB, ${f(large.rssMb)} MB after GC (at 1k: peak ${f(small.peakRssMb)} MB); fill ${f(large.fill.fillSeconds, 1)} s, ${large.fill.writesPerConversation} writes/conversation, file ${f(large.fill.fileMb)} MB; WAL at most ${f(large.walPeakMb)} MB while serving (at 1k: ${f(small.walPeakMb)} MB)`,
    '≤ 300 MB',
    large.peakRssMb <= 300,
  );
  const reclaim = await pageReclaimNote();
  row(
    'growth: handling p99 at 1M vs 1k conversations',
    `p99 ${f(large.p99Ms, 2)} vs ${f(small.p99Ms, 2)} ms = ×${f(g.p99Ratio, 2)} (median of ${large.rounds} rounds each: ${large.roundP99Ms.map((x) => f(x, 2)).join(' / ')} vs ${small.roundP99Ms.map((x) => f(x, 2)).join(' / ')} ms; p50 ${f(large.p50Ms, 2)} vs ${f(small.p50Ms, 2)} ms, max ${f(large.maxMs, 1)} vs ${f(small.maxMs, 1)} ms; disk read ${f(large.diskReadKbPerMessage, 1)} vs ${f(small.diskReadKbPerMessage, 1)} KiB/message, on the event loop ${f(large.loopDiskReadKbPerMessage, 1)} vs ${f(small.loopDiskReadKbPerMessage, 1)}; ${f(large.messages)} + ${f(small.messages)} messages at ${f(large.ratePerSec)}/s${large.lost + small.lost > 0 ? `; ${large.lost + small.lost} unanswered` : ''})${reclaim === undefined ? '' : `; ${reclaim}`}`,
    '≤ ×1.2',
    g.p99Ratio <= 1.2 && large.lost + small.lost === 0,
  );
}

if (runs('real')) {
  process.stderr.write('real load: switchboard run examples/support-desk vs the floor…\n');
  for (const r of await realLoadRows()) row(r.figure, r.measured, r.target, r.pass);
}

if (runs('understand')) {
  process.stderr.write('builtin understander CPU per message…\n');
  const u = await understandBench();
  row(
    `builtin understander CPU per message (${u.intents} intents × ${u.examples / u.intents} examples)`,
    `p99 ${f(u.p99Ms, 3)} ms = ${f(u.p99Ms / 2, 2)} × target (p50 ${f(u.p50Ms, 3)} ms, max ${f(u.maxMs, 2)} ms, wall time per call; mean CPU ${f(u.meanCpuMs, 3)} ms/msg; ${f(u.messages)} messages)`,
    'p99 ≤ 2 ms',
    u.p99Ms <= 2,
  );
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${process.platform}`;
const header = '| figure | measured | target | ok |\n|---|---|---|---|';
const table = [
  header,
  ...rows.map(
    (r) =>
      `| ${r.figure} | ${r.measured} | ${r.target} | ${r.pass === undefined ? '' : r.pass ? 'yes' : 'NO'} |`,
  ),
].join('\n');
const method = `Method: the code measured is compiled JavaScript (\`tsc -p bench/tsconfig.json\` into .bench-build/, run by plain
node in every process), as the installed package runs; every HTTP target runs in its own process, with the stub API in
another; autocannon (32 connections, 4 s) drives the bare express JSON echo route and the signed-callback route with identical settings in the same run;
every callback is a distinct signed \`message.received\` for one of 2,000 conversations; the bot runs with the engine's default
concurrency (64 conversations at once, 16 while callbacks keep coming in), which \`switchboard run\` has no setting for (BENCH_CONCURRENCY=<n> measures another). Stores: memory; SQLite on a
fresh state file per run (deleted afterwards); Redis (its own key prefix, removed afterwards). End-to-end = inbound
messages fed to the machine and their sends done (stub API answering 202, budgets off) per second of load + drain.
Three rounds of echo, memory, SQLite, Redis back to back, each on a fresh process; every ratio is taken within its
round and the median of the three is reported (a single pair swung by ±10 points on this machine).
2 workers vs 1 (bench/scale-out.ts): two Redis targets on one prefix vs one, each callback's conversation always
on the same worker (the load split evenly), one lean node:net stub API shared by the workers (recording every send),
every timed callback signed before the window, the same warm-up for both (two callbacks per conversation, untimed),
then 4 s at 32 connections in all and the drain; 1 and 2 workers alternate for 3 rounds on fresh processes, ratio =
median of the per-round ratios; CPU per message per process over the window + drain (workers, stub, this process,
redis-server via INFO cpu; the rest of the machine from /proc/stat); exactly-once = every acked callback n has exactly
one "got hello n" reply at the stub, and each conversation's replies come in callback order.
Scale-out cost (bench/scale-cost.ts): 1, 2, 4 Redis workers, each conversation always on the same worker; the load
is open-loop and evenly paced (bench/paced-load.ts: request k at start + k / rate, the workers' arrivals interleaved),
50/s for 10 s by default (BENCH_SCALE_RATE, BENCH_SCALE_SECONDS), not autocannon's overallRate, which fires each
connection's per-second quota back to back and drops what is not sent within the second (the offered load then
depended on the latency: 233-750 of 1,000 messages); CPU = the workers' process.cpuUsage over window + drain less
their idle CPU over as long (idle measured over 10 s just before; the drain's stats polls skip the stub fetch);
ratio = median over rounds of each round's ratio to its own 1-worker run; ack p50 and the load average printed, since
a saturated or contended run measures wake-up costs, not coordination. Each round also runs one worker alone at
each N-worker run's rate per worker (50/N per second; BENCH_SCALE_MATCHED=0 leaves them out): a process's CPU per
message grows as its own message rate falls, so N workers at R in all are also compared with one worker at R/N,
which leaves what the workers' coordination adds: the targets (2 workers ≤ ×1.10, 4 ≤ ×1.25) are judged on that
ratio (BENCH_SCALE_MATCHED=0: on the ratio to one worker at the whole rate). Latency: autocannon at a fixed
1,000 req/s, 16 connections, 4 s. Engine vs raw XState: 20,000 events over 1,000 conversations through \`bot.handle\`
(memory store, in-process client) vs createActor(restore) → send → getPersistedSnapshot → JSON in a Map, both in one
fresh process; one warm-up run of each, then 5 rounds of engine, raw and engine without its live-actor cache back to
back; medians, ratio = median of the per-round ratios. Send budget: two keys on two numbers of one workspace saturated
through MessagingClient + limiter against the sandbox (which answers 429 itself), time simulated by a ManualClock that
the client's sleep advances; the share is the last full minute. Memory: 100,000 conversations, one inbound message
each, through the real engine into a MemoryStore, in a fresh process, with the conversation journal on as \`switchboard
run\` has it (its options from the environment over the defaults; SWITCHBOARD_JOURNAL=0 measures without it); RSS after GC right after the fill, and idle: once
the process has sat still until V8's memory reducer stopped shrinking the heap (heap size unchanged for 110 s after a
shrink, longer than V8's 100 s memory-reducer watchdog; at most 330 s; no compaction forced). The fill leaves ~1.9×
the live heap as committed old space; an idle process gives it back by itself, in steps, within ~20–210 s (later on a
loaded machine).
Polling: the bot runs in its own process as \`switchboard run --poll 1s\` starts it (startWorker: SQLite state file,
journaled limiter, poll leader; no callbacks), so that its timing is not disturbed by the sandbox and the message
injector, which share this process, as the real API is remote. The sandbox (real clock, the spec's read budget,
answering 429 itself) sits behind a front that logs every request. 6 inbound messages/s from 12 contacts (random) are
injected for 6 s of warm-up and a 30 s window; reads = every GET under /v1 arriving in the window, divided by the
messages injected in it. Detection delay = the message's occurredAt as the sandbox recorded it → the bot's process
feeding it to a machine (wall clock, same host), for every message. Read budget: 429s, and the most reads in any
sliding 1 s and 60 s window. The bot answers each message once (flow of two alternating asks), 6 sends/s, inside the
send budget. Growth: SQLite state files of 1,000 and 1,000,000 idle conversations, each filled in its own process: one
template conversation goes through the real engine (one inbound message) on a store that records its writes, and its
net writes (inbox dedup mark, two contact keys, the document with its journal on as \`run\` has it, the send record;
leases are swept anyway) are
replayed for every conversation through the SqliteStore API with its own ids (the full engine fills ~3,400
conversations/s here: 5 minutes for 1M). Each file is then served by a fresh process (--expose-gc): createBot on the
SqliteStore (timer loop and sweeper on, like \`run\`), in-process API client, inbound messages at a fixed 250/s, each
to a random stored conversation (500 warm-up, then 2,000 timed); latency = bot.handle called → the send answering
that message done. 3 rounds per size, alternating 1k, 1M, 1k, 1M, …; p99 = median of the rounds' p99s (p50, max
pooled); RSS = the 1M serving processes' peak (and after GC); WAL = the largest size of the state file's WAL, sampled every
200 ms while the timed messages go through.
Real load (bench/real-load.ts): \`switchboard run examples/support-desk --port … --poll 2s\` as a process (dist/, built
first; default log level, JSON logs to a pipe; SQLite state file, or REDIS_URL, or --memory) against the sandbox in its
own process (bench/real-sandbox-server.ts: createSandbox as \`switchboard sandbox\` runs it, signed callbacks with
sent/delivered/read status callbacks, rate limits on, a front counting requests). 4.5 inbound messages/s (540 sends/min,
under the 600/min of a number), 60% new contacts writing "hi", 40% contacts who wrote ≥ 15 s before writing "menu"; each
message brings the two-send greeting. Warm-up, then the window: CPU = user + system of the bot process from
/proc/<pid>/stat (all its threads) over the window / messages injected in it, and its main thread alone
(/proc/<pid>/task/<pid>/stat); API requests and callbacks per message from the sandbox's counts; store operations
from the bot's switchboard_store_operations_total; RSS from /proc/<pid>/status at the window's start, half-way and end (and once a minute: a window of 20 minutes or more prints its last 10). After the window: every contact must have exactly 2 sends per message (the flow's own 30-minute idle goodbyes, which a long window lets fire, counted apart), the first of each the
greeting; latency = message injected → its second send accepted. The floor (bench/floor-server.ts: node:http, HMAC
check, one libsql transaction, two fetch POSTs to a sink) gets the same messages as signed callbacks in the same run.
Status row: after the drain, the idle bot's CPU over 15 s, then 40 signed status callbacks/s (delivered/read of sends
that went well) for 15 s; cost = (CPU − idle CPU over as long) / callbacks.`;
const doc = `# Benchmark results\n\nCommand: \`npm run bench\`${full ? '' : ` (BENCH_ONLY=${only.join(',')})`} (REDIS_URL=${process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'})\nDate: ${new Date().toISOString()}\nMachine: ${machine}\nTook: ${f((Date.now() - started) / 1000)} s\n\n${table}\n\n${method}\n`;
if (full || process.env['BENCH_WRITE'] === '1') {
  // Sections written by hand below the generated part (from its first "## " heading on,
  // e.g. "## Profile") are kept.
  const previous = await readFile('bench/RESULTS.md', 'utf8').catch(() => '');
  const kept = previous.indexOf('\n## ');
  await writeFile('bench/RESULTS.md', kept < 0 ? doc : `${doc}${previous.slice(kept)}`);
}
process.stdout.write(`\n${doc}`);
