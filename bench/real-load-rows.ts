/**
 * The rows of the real-load section of `npm run bench` (see bench/real-load.ts): builds
 * the package (dist/, which `switchboard run` runs as installed), then runs the load on
 * each store and reports the median run's figures.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { realLoad, type RealLoadFigures } from './real-load.js';
import { sumOf } from './real-load-io.js';
import { median } from './stats.js';

/** One row of the results table. */
export interface RealRow {
  readonly figure: string;
  readonly measured: string;
  readonly target: string;
  readonly pass: boolean | undefined;
}

const f = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const env = (name: string): string | undefined => process.env[name];

/** Compiles src/ into dist/ (`tsc -p tsconfig.build.json`), unless BENCH_REAL_NO_BUILD=1. */
function buildPackage(): void {
  if (env('BENCH_REAL_NO_BUILD') === '1') return;
  const root = fileURLToPath(
    new URL(import.meta.url.endsWith('.js') ? '../..' : '..', import.meta.url),
  );
  const tsc = spawnSync(
    process.execPath,
    [`${root}/node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'],
    { cwd: root, stdio: 'inherit' },
  );
  if (tsc.status !== 0) throw new Error('tsc -p tsconfig.build.json failed');
}

/** Runs the section and returns its rows. */
export async function realLoadRows(): Promise<RealRow[]> {
  buildPackage();
  const quick = env('BENCH_QUICK') === '1';
  const windowSec = Number(env('BENCH_REAL_SEC') ?? (quick ? 40 : 180));
  const runs = Number(env('BENCH_REAL_RUNS') ?? (quick ? 1 : 3));
  const stores = (env('BENCH_REAL_STORES') ?? 'sqlite,redis,memory')
    .split(',')
    .map((s) => s.trim()) as Array<'sqlite' | 'redis' | 'memory'>;
  const rows: RealRow[] = [];
  for (const store of stores) {
    const figures: RealLoadFigures[] = [];
    for (let i = 0; i < (store === 'sqlite' ? runs : Math.min(runs, 2)); i++) {
      process.stderr.write(`  ${store} run ${i + 1}: ${windowSec} s window…\n`);
      try {
        figures.push(
          await realLoad({
            store,
            warmupSec: quick ? 10 : 20,
            windowSec,
            ratePerSec: 4.5,
            returningShare: 0.4,
            statusPerSec: 40,
            statusSec: quick ? 8 : 15,
          }),
        );
      } catch (error) {
        process.stderr.write(`  ${store} run failed: ${String(error)}\n`);
      }
    }
    rows.push(...rowsOf(store, figures));
  }
  return rows;
}

function rowsOf(store: string, runs: readonly RealLoadFigures[]): RealRow[] {
  const name = store === 'sqlite' ? 'SQLite' : store === 'redis' ? 'Redis' : 'memory';
  if (runs.length === 0)
    return [
      {
        figure: `real load, ${name}: bot CPU per inbound message`,
        measured: 'not measured (every run failed)',
        target: '≤ 4 ms',
        pass: false,
      },
    ];
  const byCpu = [...runs].sort((a, b) => a.botCpuMsPerInbound - b.botCpuMsPerInbound);
  const mid = byCpu[Math.floor(byCpu.length / 2)]!;
  const cpu = median(runs.map((r) => r.botCpuMsPerInbound));
  const ratio = median(
    runs.map((r) => r.botCpuMsPerInbound / Math.max(0.001, r.floorCpuMsPerInbound)),
  );
  const status = median(runs.map((r) => r.statusCpuMs / Math.max(0.001, r.botCpuMsPerInbound)));
  const once = runs.every(
    (r) => r.replies.wrongCount === 0 && r.replies.unexpected === 0 && r.errorLines === 0,
  );
  const api = sumOf(mid.exchanges, (k) => !k.startsWith('callback'));
  const callbacks = sumOf(mid.exchanges, (k) => k.startsWith('callback'));
  const writes = sumOf(mid.store, (k) => k.startsWith('write'));
  const reads = sumOf(mid.store, (k) => k.startsWith('read'));
  const list = (c: Record<string, number>): string =>
    Object.entries(c)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${f(v, 2)}`)
      .join(', ');
  const o = mid.options;
  return [
    {
      figure: `real load, ${name}: bot CPU per inbound message`,
      measured: `${f(cpu, 2)} ms (median of ${runs.length}: ${runs.map((r) => f(r.botCpuMsPerInbound, 2)).join(' / ')}; user ${f(mid.botUserMsPerInbound, 2)} ms; main thread ${f(mid.botMainThreadMsPerInbound, 2)} ms); floor ${f(mid.floorCpuMsPerInbound, 2)} ms = ×${f(ratio, 1)}; ${f(mid.windowInbound)} messages in ${o.windowSec} s at ${o.ratePerSec}/s (${f(o.returningShare * 100)}% returning), 2 sends each; a full number (600 sends/min = 5 msg/s) ≈ ${f((cpu * 5) / 10, 1)}% of a core; idle bot ${f(mid.idleCpuMsPerSec, 1)} ms/s`,
      target: '≤ 4 ms and ≤ ×3 the floor',
      pass: cpu <= 4 && ratio <= 3,
    },
    {
      figure: `real load, ${name}: exchanges and store operations per inbound message`,
      measured: `API requests ${f(api, 2)} (${list(Object.fromEntries(Object.entries(mid.exchanges).filter(([k]) => !k.startsWith('callback'))))}); callbacks ${f(callbacks, 2)}; store writes ${f(writes, 2)}, reads ${f(reads, 2)} (${list(mid.store)})`,
      target: '',
      pass: undefined,
    },
    {
      figure: `real load, ${name}: replies`,
      measured: `every contact answered exactly once: ${once ? 'yes' : 'NO'} (${runs.map((r) => `${f(r.replies.injected)} messages from ${f(r.replies.contacts)} contacts: ${r.replies.missing} sends missing, ${r.replies.extra} extra, ${r.replies.unexpected} unexpected, ${r.errorLines} warn/error lines${r.replies.timerSends > 0 ? `; ${r.replies.timerSends} idle goodbyes of the flow's 30-minute timeout left out` : ''}`).join('; ')}); reply latency p50 ${f(mid.replies.p50Ms)} ms, p99 ${f(mid.replies.p99Ms)} ms, max ${f(mid.replies.maxMs)} ms; RSS ${f(mid.rssStartMb)} → ${f(mid.rssMidMb)} (half-way) → ${f(mid.rssEndMb)} MB (max ${f(mid.rssMaxMb)})${lastTenMinutes(mid.rssPerMinute)}`,
      target: 'exactly once, 0 errors',
      pass: once,
    },
    {
      figure: `real load, ${name}: a status callback that changes nothing`,
      measured: `${f(median(runs.map((r) => r.statusCpuMs)), 3)} ms CPU = ${f(status * 100, 1)}% of an inbound message (${mid.statusCallbacks} at ${o.statusPerSec}/s, idle CPU taken off)`,
      target: '≤ 10%',
      pass: status <= 0.1,
    },
  ];
}

/** For a window of 20 minutes or more: RSS over its last 10 minutes, sampled once a minute. */
function lastTenMinutes(perMinute: readonly number[]): string {
  if (perMinute.length < 21) return '';
  const last = perMinute.slice(-11);
  const first = last[0] ?? 0;
  const max = Math.max(...last);
  return `; last 10 minutes: ${f(first)} → ${f(last.at(-1) ?? 0)} MB (max ${f(max)}, +${f(max - first)} MB; per minute ${last.map((mb) => f(mb)).join(' ')})`;
}
