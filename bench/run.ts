/**
 * `npm run bench`: runs every benchmark side by side on this machine, prints the figures
 * and the ratios they are judged by, and writes bench/RESULTS.md.
 */
import { cpus } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisLimiter } from '../src/api/redis-limiter.js';
import { engineEventsFresh } from './engine-events-fresh.js';
import { memoryRss } from './memory-rss.js';
import { sendBudget, type SendBudgetFigures } from './send-budget.js';
import { webhookThroughput } from './webhook-throughput.js';

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
process.stderr.write('webhook throughput (echo, memory, redis, 2 workers)…\n');
const web = await webhookThroughput();
row(
  'bare express echo',
  `${f(web.echo.requestsPerSec)} req/s (p50 ${web.echo.p50} ms, p99 ${web.echo.p99} ms)`,
);
const memAck = web.memory.load.requestsPerSec / web.echo.requestsPerSec;
const memE2e = web.memory.endToEndPerSec / web.echo.requestsPerSec;
row(
  'webhook ack, memory store',
  `${f(web.memory.load.requestsPerSec)} req/s = ${pct(memAck)} of echo`,
  '≥ 70%',
  memAck >= 0.7,
);
row(
  'webhook→engine→send end-to-end, memory',
  `${f(web.memory.endToEndPerSec)} msg/s = ${pct(memE2e)} of echo (drain ${f(web.memory.drainSec, 1)} s)`,
  '≥ 70%',
  memE2e >= 0.7,
);
if (web.redis !== undefined) {
  const ack = web.redis.load.requestsPerSec / web.echo.requestsPerSec;
  const e2e = web.redis.endToEndPerSec / web.echo.requestsPerSec;
  row(
    'webhook ack, Redis store',
    `${f(web.redis.load.requestsPerSec)} req/s = ${pct(ack)} of echo`,
    '≥ 50%',
    ack >= 0.5,
  );
  row(
    'webhook→engine→send end-to-end, Redis',
    `${f(web.redis.endToEndPerSec)} msg/s = ${pct(e2e)} of echo (drain ${f(web.redis.drainSec, 1)} s)`,
    '≥ 50%',
    e2e >= 0.5,
  );
}
if (web.redisTwoWorkers !== undefined && web.redis !== undefined) {
  const r = web.redisTwoWorkers.endToEndPerSec / web.redis.endToEndPerSec;
  row(
    '2 workers vs 1 on Redis (end-to-end)',
    `${f(web.redisTwoWorkers.endToEndPerSec)} vs ${f(web.redis.endToEndPerSec)} msg/s = ×${f(r, 2)}; ack ${f(web.redisTwoWorkers.load.requestsPerSec)} vs ${f(web.redis.load.requestsPerSec)} req/s`,
  );
}
row(
  'ack latency @1,000 req/s, echo',
  `p50 ${web.fixedRate.echo.p50} ms, p99 ${web.fixedRate.echo.p99} ms (${f(web.fixedRate.echo.requestsPerSec)} req/s)`,
);
row(
  'ack latency @1,000 req/s, memory',
  `p50 ${web.fixedRate.memory.p50} ms, p99 ${web.fixedRate.memory.p99} ms (${f(web.fixedRate.memory.requestsPerSec)} req/s)`,
  'p99 ≤ 50 ms',
  web.fixedRate.memory.p99 <= 50,
);
if (web.fixedRate.redis !== undefined) {
  row(
    'ack latency @1,000 req/s, Redis',
    `p50 ${web.fixedRate.redis.p50} ms, p99 ${web.fixedRate.redis.p99} ms (${f(web.fixedRate.redis.requestsPerSec)} req/s)`,
    'p99 ≤ 50 ms',
    web.fixedRate.redis.p99 <= 50,
  );
}

process.stderr.write('engine events/s vs raw XState…\n');
const ev = await engineEventsFresh(20_000, 1_000, 5);
row(
  'engine in-process vs raw XState loop',
  `${f(ev.engineEventsPerSec)} vs ${f(ev.rawEventsPerSec)} events/s = ${pct(ev.ratio)} (median of ${ev.rounds} rounds; range ${pct(ev.ratioRange[0])}–${pct(ev.ratioRange[1])})`,
  '≥ 50%',
  ev.ratio >= 0.5,
);
row(
  'same, live-actor cache off (restore every event)',
  `${f(ev.engineNoCacheEventsPerSec)} events/s = ${pct(ev.ratioNoCache)} of raw`,
);

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
}

process.stderr.write('100,000 idle conversations…\n');
const mem = await memoryRss(100_000);
row(
  'snapshot size (conversation document)',
  `${f(mem.avgDocBytes)} B avg, ${f(mem.maxDocBytes)} B max (XState part ${f(mem.avgSnapshotBytes)} B)`,
  '≤ 1 KB',
  mem.maxDocBytes <= 1024,
);
row(
  'RSS for 100k idle conversations (memory store)',
  `+${f(mem.rssDeltaMb)} MB (heap +${f(mem.heapDeltaMb)} MB; process ${f(mem.rssAfterMb)} MB)`,
  '≤ 250 MB',
  mem.rssDeltaMb <= 250,
);

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${process.platform}`;
const header = '| figure | measured | target | ok |\n|---|---|---|---|';
const table = [
  header,
  ...rows.map(
    (r) =>
      `| ${r.figure} | ${r.measured} | ${r.target} | ${r.pass === undefined ? '' : r.pass ? 'yes' : 'NO'} |`,
  ),
].join('\n');
const method = `Method: every HTTP target runs in its own process; autocannon (${'32'} connections, 4 s) drives the bare express JSON
echo route and the signed-callback route with identical settings in the same run; every callback is a distinct signed
\`message.received\` for one of 2,000 conversations. End-to-end = inbound messages fed to the machine and their sends
done (stub API answering 202, budgets off) per second of load + drain. Latency: autocannon at a fixed 1,000 req/s, 16
connections, 4 s. Engine vs raw XState: 20,000 events over 1,000 conversations through \`bot.handle\` (memory store,
in-process client) vs createActor(restore) → send → getPersistedSnapshot → JSON in a Map, both in one fresh process;
one warm-up run of each,
then 5 rounds of engine, raw and engine without its live-actor cache back to back; medians, ratio = median of the
per-round ratios. Send budget: two keys on two
numbers of one workspace saturated through MessagingClient + limiter against the sandbox (which answers 429 itself),
time simulated by a ManualClock that the client's sleep advances; the share is the last full minute. Memory: 100,000
conversations, one inbound message each, through the real engine into a MemoryStore; RSS after GC in a fresh process.`;
const doc = `# Benchmark results\n\nCommand: \`npm run bench\` (REDIS_URL=${process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'})\nDate: ${new Date().toISOString()}\nMachine: ${machine}\nTook: ${f((Date.now() - started) / 1000)} s\n\n${table}\n\n${method}\n`;
await writeFile('bench/RESULTS.md', doc);
process.stdout.write(`\n${doc}`);
