/**
 * Polling cost: the bot of bench/polling-child.ts (`switchboard run --poll 1s` on a
 * SQLite state file, no callbacks) runs in its own process against the sandbox, which
 * runs here behind a front that logs every request. A steady stream of inbound messages
 * from several contacts is injected into the sandbox; measured:
 *
 * - API reads (every GET under /v1) per new inbound message, in a steady-state window
 *   (after a warm-up, while the stream runs): reads that arrived in the window / messages
 *   injected in it;
 * - detection delay: the sandbox's recording time of each inbound message (its
 *   `occurredAt`, on the wall clock) → the bot's process feeding it to a machine (wall
 *   clock, same host);
 * - the read budget of spec part 8 (60/s, 3,000/min per key): 429s the sandbox answered,
 *   and the most reads in any 1 s and any 60 s window.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { BUDGETS } from '../src/core/limits.js';
import { createSandbox } from '../src/sandbox/index.js';
import { serveCounted, type AnsweredRequest } from './counted-sandbox.js';
import { percentile } from './stats.js';
import { benchScript } from './child-script.js';

const Line = z.union([
  z.object({ ready: z.literal(true), leader: z.boolean() }),
  z.object({ id: z.string(), at: z.number() }),
]);

/** Options of {@link polling}. */
export interface PollingBenchOptions {
  readonly intervalMs: number;
  readonly contacts: number;
  /** Inbound messages per second, all contacts together. */
  readonly ratePerSec: number;
  readonly warmupSec: number;
  readonly windowSec: number;
}

/** Figures of the polling benchmark. */
export interface PollingFigures {
  readonly options: PollingBenchOptions;
  /** Inbound messages injected in the steady-state window. */
  readonly windowMessages: number;
  /** Reads that arrived at the API in the window, by route. */
  readonly windowReads: Readonly<Record<string, number>>;
  readonly readsPerMessage: number;
  /** Sends in the window (the bot answers every message once). */
  readonly windowSends: number;
  /**
   * History reads in the window that found no inbound message newer than the previous
   * read of that conversation (its change was only the bot's own answer, or nothing).
   */
  readonly windowHistoryReadsWithoutInbound: number;
  readonly injected: number;
  readonly detected: number;
  readonly delayP50Ms: number;
  readonly delayP99Ms: number;
  readonly delayMaxMs: number;
  readonly count429: number;
  readonly maxReadsPerSecond: number;
  readonly maxReadsPerMinute: number;
  readonly readBudgetExceeded: boolean;
}

/** Most entries of the sorted `times` in any window of `windowMs`. */
function maxInWindow(times: readonly number[], windowMs: number): number {
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while ((times[lo] ?? 0) <= (times[hi] ?? 0) - windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

const isRead = (r: AnsweredRequest): boolean => r.method === 'GET' && r.path.startsWith('/v1/');
const routeOf = (r: AnsweredRequest): string =>
  `${r.method} ${r.path.replace(/^\/v1\/conversations\/[^/]+\/messages$/, '/v1/conversations/:id/messages').replace(/^\/v1\/(messages|media)\/[^/]+$/, '/v1/$1/:id')}`;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs the polling benchmark (about warm-up + window + a few seconds). */
export async function polling(
  options: PollingBenchOptions = {
    intervalMs: 1_000,
    contacts: 12,
    ratePerSec: 6,
    warmupSec: 6,
    windowSec: 30,
  },
): Promise<PollingFigures> {
  const sandbox = createSandbox();
  const requests: AnsweredRequest[] = [];
  const served = await serveCounted(sandbox, (r) => requests.push(r));
  const dir = mkdtempSync(join(tmpdir(), 'sb-poll-'));
  const child = spawn(
    process.execPath,
    [...benchScript('polling-child'), `${options.intervalMs}ms`, join(dir, 'state.db')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...process.env,
        MESSAGING_API_BASE_URL: served.url,
        MESSAGING_API_KEY: sandbox.config.keys[0]?.key ?? '',
        // The bench decides the store and the receiving: none of the caller's settings.
        REDIS_URL: '',
        STATE_PATH: '',
        EVENTS_TOKEN: '',
        CALLBACK_SECRET: '',
      },
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const detectedAt = new Map<string, number>();
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`polling bot exited with ${String(code)}`)));
      createInterface({ input: child.stdout }).on('line', (text) => {
        const line = Line.safeParse(JSON.parse(text));
        if (!line.success) return;
        if ('ready' in line.data) resolve();
        else detectedAt.set(line.data.id, line.data.at);
      });
    });
    const recordedAt = new Map<string, number>();
    const inboundTimes = new Map<string, number[]>();
    const phones = Array.from(
      { length: options.contacts },
      (_, i) => `+1555700${String(i).padStart(4, '0')}`,
    );
    const total = Math.round(options.ratePerSec * (options.warmupSec + options.windowSec));
    const begin = Date.now();
    const windowStart = begin + options.warmupSec * 1000;
    const windowEnd = windowStart + options.windowSec * 1000;
    let windowMessages = 0;
    for (let n = 0; n < total; n++) {
      const wait = begin + (n * 1000) / options.ratePerSec - Date.now();
      if (wait > 0) await sleep(wait);
      const from = phones[Math.floor(Math.random() * phones.length)] ?? '';
      const message = sandbox.control.injectInbound({ from, type: 'text', text: `poll ${n}` });
      const at = Date.parse(message.occurredAt);
      recordedAt.set(message.id, at);
      inboundTimes.set(message.conversationId, [
        ...(inboundTimes.get(message.conversationId) ?? []),
        at,
      ]);
      if (at >= windowStart && at < windowEnd) windowMessages++;
    }
    // The stream ends with the window; then wait until everything injected was picked up.
    const until = Date.now() + options.intervalMs * 4 + 10_000;
    while (Date.now() < until && [...recordedAt.keys()].some((id) => !detectedAt.has(id)))
      await sleep(100);

    const inWindow = requests.filter((r) => r.at >= windowStart && r.at < windowEnd);
    const windowReads: Record<string, number> = {};
    for (const r of inWindow.filter(isRead))
      windowReads[routeOf(r)] = (windowReads[routeOf(r)] ?? 0) + 1;
    const reads = Object.values(windowReads).reduce((s, n) => s + n, 0);
    const lastRead = new Map<string, number>();
    let withoutInbound = 0;
    for (const r of requests.filter(isRead)) {
      const id = /^\/v1\/conversations\/([^/]+)\/messages$/.exec(r.path)?.[1];
      if (id === undefined) continue;
      const since = lastRead.get(id) ?? 0;
      lastRead.set(id, r.at);
      const fresh = (inboundTimes.get(id) ?? []).some((t) => t > since && t <= r.at);
      if (!fresh && r.at >= windowStart && r.at < windowEnd) withoutInbound++;
    }
    const delays = [...recordedAt]
      .map(([id, at]) => (detectedAt.has(id) ? (detectedAt.get(id) ?? 0) - at : undefined))
      .filter((d): d is number => d !== undefined)
      .sort((a, b) => a - b);
    const readTimes = requests
      .filter(isRead)
      .map((r) => r.at)
      .sort((a, b) => a - b);
    const maxReadsPerSecond = maxInWindow(readTimes, 1_000);
    const maxReadsPerMinute = maxInWindow(readTimes, 60_000);
    const count429 = served.statuses.get(429) ?? 0;
    return {
      options,
      windowMessages,
      windowReads,
      readsPerMessage: reads / windowMessages,
      windowSends: inWindow.filter((r) => r.method === 'POST' && r.path === '/v1/messages').length,
      windowHistoryReadsWithoutInbound: withoutInbound,
      injected: recordedAt.size,
      detected: delays.length,
      delayP50Ms: percentile(delays, 50),
      delayP99Ms: percentile(delays, 99),
      delayMaxMs: delays.at(-1) ?? 0,
      count429,
      maxReadsPerSecond,
      maxReadsPerMinute,
      readBudgetExceeded:
        count429 > 0 ||
        maxReadsPerSecond > BUDGETS.readBurst.limit ||
        maxReadsPerMinute > BUDGETS.readSustained.limit,
    };
  } finally {
    child.stdin.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
    await served.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
