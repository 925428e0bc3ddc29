/**
 * What a real conversation costs: `switchboard run examples/support-desk --port … --poll 2s`
 * in its own process, as users run it (compiled package, default log level, SQLite state
 * file by default; Redis or memory on request), against the sandbox in another process
 * (bench/real-sandbox-server.ts: signed callbacks, status callbacks sent/delivered/read,
 * rate limits on) while a steady stream of new ("hi") and returning ("menu") contacts
 * writes just below the send budget: every message brings the two-send greeting.
 *
 * Measured over a window after a warm-up: the bot process's CPU (user + system, /proc) per
 * inbound message; API requests and callbacks per inbound message (the sandbox counts);
 * store operations per inbound message (the bot's `switchboard_store_operations_total`);
 * RSS at the window's start and end; reply latency (message injected → the reply's last
 * send accepted); and, after the run, that every contact got exactly two sends per message.
 * In the same run a floor process (bench/floor-server.ts: verify, one SQLite transaction,
 * two POSTs) gets the same inbound messages as signed callbacks. Then a status phase: signed
 * `message.status` callbacks for sends that went well (nothing to change), alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { signCallback } from '../src/api/callbacks.js';
import { benchScript } from './child-script.js';
import { mainThreadCpuMs, procSample } from './proc-stat.js';
import { checkReplies, type Injected, type ReplyCheck, type SentItem } from './real-load-check.js';
import {
  dropPrefix,
  perInbound,
  sandboxCounts,
  statusCallbackBody,
  storeOperations,
  type Counts,
} from './real-load-io.js';

/** Options of {@link realLoad}. */
export interface RealLoadOptions {
  readonly store: 'sqlite' | 'redis' | 'memory';
  readonly warmupSec: number;
  readonly windowSec: number;
  /** Inbound messages per second (two sends each: keep 2 × rate × 60 ≤ 600). */
  readonly ratePerSec: number;
  /** Share of messages from contacts who wrote before ("menu"), the rest new ("hi"). */
  readonly returningShare: number;
  /** Status phase: status callbacks per second and seconds. */
  readonly statusPerSec: number;
  readonly statusSec: number;
  /** Node arguments of the bot process (e.g. --cpu-prof). */
  readonly botNodeArgs?: readonly string[];
}

/** Figures of one run. */
export interface RealLoadFigures {
  readonly options: RealLoadOptions;
  readonly windowInbound: number;
  readonly botCpuMsPerInbound: number;
  readonly botUserMsPerInbound: number;
  /** The bot's main thread alone (JavaScript), per inbound message. */
  readonly botMainThreadMsPerInbound: number;
  readonly floorCpuMsPerInbound: number;
  readonly sandboxCpuMsPerInbound: number;
  /** API requests and callbacks per inbound message, by kind and status. */
  readonly exchanges: Counts;
  /** Store operations per inbound message, by `write|read operation`. */
  readonly store: Counts;
  readonly rssStartMb: number;
  readonly rssEndMb: number;
  readonly rssMaxMb: number;
  /** RSS half-way through the window (levelling off: compare start → middle → end). */
  readonly rssMidMb: number;
  /** RSS at the window's start and then once a minute (MB). */
  readonly rssPerMinute: readonly number[];
  readonly replies: ReplyCheck;
  readonly statusCallbacks: number;
  /** Bot CPU per status callback, the idle process's CPU over as long taken off. */
  readonly statusCpuMs: number;
  readonly idleCpuMsPerSec: number;
  readonly errorLines: number;
  /** Requests of the load generator that failed (network errors). */
  readonly failedRequests: number;
}

const root = fileURLToPath(
  new URL(import.meta.url.endsWith('.js') ? '../..' : '..', import.meta.url),
);
const GREETING = /^Hi .*support desk assistant/;
/** support-desk's idle timeout (30 minutes, flows/support-desk.yaml): a long run sees some. */
const IDLE_GOODBYE = /^I'll close this chat for now/;
const SECRET = 'bench-real-callback-secret';
const KEY = 'sk_bench_real_0123456789';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** Spawns a child that prints one `{"url": …}` line, and waits for it. */
async function spawnWithUrl(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  return { child, url };
}

const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });

/** A sink answering every POST like the API (202 and an id), for the floor's sends. */
async function startSink(): Promise<{ server: Server; url: string }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(`{"id":"msg_floor_${++n}","status":"queued"}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs the real-load benchmark once (see the file's comment). */
export async function realLoad(options: RealLoadOptions): Promise<RealLoadFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-real-'));
  const botPort = await freePort();
  const config = {
    numbers: [{ id: 'num_default', phoneNumber: '+15550000000' }],
    keys: [{ key: KEY, number: 'num_default' }],
    callback: { url: `http://127.0.0.1:${botPort}/callbacks`, secret: SECRET },
  };
  const configPath = join(dir, 'sandbox.json');
  writeFileSync(configPath, JSON.stringify(config));
  const sandbox = await spawnWithUrl([...benchScript('real-sandbox-server'), configPath]);
  const sink = await startSink();
  const floor = await spawnWithUrl([
    ...benchScript('floor-server'),
    SECRET,
    join(dir, 'floor.db'),
    sink.url,
  ]);
  const prefix = `sb:bench:real:${randomUUID()}:`;
  const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const storeArgs =
    options.store === 'memory'
      ? ['--memory']
      : options.store === 'sqlite'
        ? ['--state', join(dir, 'state.db')]
        : [];
  const env: Record<string, string | undefined> = {
    ...process.env,
    SWITCHBOARD_DIST: '1',
    MESSAGING_API_BASE_URL: sandbox.url,
    MESSAGING_API_KEY: KEY,
    CALLBACK_SECRET: SECRET,
    LOG_FORMAT: 'json',
    REDIS_URL: options.store === 'redis' ? redisUrl : undefined,
    REDIS_PREFIX: prefix,
  };
  if (options.store !== 'redis') delete env['REDIS_URL'];
  const bot = spawn(
    process.execPath,
    [
      ...(options.botNodeArgs ?? []),
      join(root, 'bin', 'switchboard.js'),
      'run',
      join(root, 'examples', 'support-desk'),
      '--port',
      String(botPort),
      '--host',
      '127.0.0.1',
      '--poll',
      '2s',
      ...storeArgs,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env, cwd: dir },
  );
  let errorLines = 0;
  for (const stream of [bot.stdout, bot.stderr])
    createInterface({ input: stream }).on('line', (line) => {
      if (/"level":"(error|warn)"/.test(line) || !line.startsWith('{')) {
        errorLines++;
        if (errorLines <= 5) process.stderr.write(`  bot: ${line.slice(0, 300)}\n`);
      }
    });
  const botUrl = `http://127.0.0.1:${botPort}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${botUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600 || bot.exitCode !== null) throw new Error('the bot did not become ready');
    await sleep(100);
  }
  const pid = bot.pid!;

  // The load: one message every 1/rate s, new or returning, to the sandbox and the floor.
  const injected: Injected[] = [];
  const lastAt = new Map<string, number>();
  let contacts = 0;
  let inWindow = false;
  let running = true;
  const pending = new Set<Promise<unknown>>();
  let failedRequests = 0;
  const track = (p: Promise<unknown>): void => {
    const settled: Promise<unknown> = p.then(
      (): void => void pending.delete(settled),
      (error: unknown): void => {
        pending.delete(settled);
        if (++failedRequests <= 3)
          process.stderr.write(`  load request failed: ${String(error)}\n`);
      },
    );
    pending.add(settled);
  };
  const inject = (n: number): void => {
    const now = Date.now();
    const settled = [...lastAt].filter(([, at]) => now - at > 15_000);
    const returning = settled.length > 0 && (n * 0.618) % 1 < options.returningShare;
    const phone = returning
      ? settled[Math.floor(Math.random() * settled.length)]![0]
      : `+1777${String(1_000_000 + ++contacts).padStart(7, '0')}`;
    lastAt.set(phone, now);
    injected.push({ phone, at: now, inWindow });
    track(
      fetch(`${sandbox.url}/sandbox/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'text', from: phone, text: returning ? 'menu' : 'hi' }),
      }).then((r) => r.arrayBuffer()),
    );
    const body = JSON.stringify({
      id: `evt_floor_${n}`,
      type: 'message.received',
      occurredAt: new Date(now).toISOString(),
      data: {
        message: { id: `msg_floor_in_${n}`, conversationId: `conv_${phone}`, type: 'text' },
        conversation: { id: `conv_${phone}`, phoneNumber: phone, humanOwned: false },
      },
    });
    const ts = Math.floor(now / 1000);
    track(
      fetch(`${floor.url}/callbacks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-callback-timestamp': String(ts),
          'x-callback-signature': signCallback(SECRET, ts, body),
        },
        body,
      }).then((r) => r.arrayBuffer()),
    );
  };
  const loadStart = Date.now();
  const loop = (async () => {
    for (let n = 0; running; n++) {
      const due = loadStart + (n * 1000) / options.ratePerSec;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      if (running) inject(n);
    }
  })();

  await sleep(options.warmupSec * 1000);
  inWindow = true;
  const start = {
    bot: procSample(pid),
    botMain: mainThreadCpuMs(pid),
    floor: procSample(floor.child.pid!),
    sandbox: await sandboxCounts(sandbox.url),
    store: await storeOperations(botUrl),
    at: Date.now(),
    injected: injected.length,
  };
  let rssMaxMb = start.bot.rssMb;
  let rssMidMb = start.bot.rssMb;
  /** RSS once a minute through the window: [ms since the window's start, MB]. */
  const rssPerMinute: [number, number][] = [[0, start.bot.rssMb]];
  const rssTimer = setInterval(() => {
    const { rssMb } = procSample(pid);
    const since = Date.now() - start.at;
    rssMaxMb = Math.max(rssMaxMb, rssMb);
    if (since <= (options.windowSec * 1000) / 2) rssMidMb = rssMb;
    if (since >= rssPerMinute.length * 60_000) rssPerMinute.push([since, rssMb]);
  }, 2000);
  await sleep(options.windowSec * 1000);
  const end = {
    bot: procSample(pid),
    botMain: mainThreadCpuMs(pid),
    floor: procSample(floor.child.pid!),
    sandbox: await sandboxCounts(sandbox.url),
    store: await storeOperations(botUrl),
    injected: injected.length,
  };
  clearInterval(rssTimer);
  running = false;
  inWindow = false;
  await loop;
  await Promise.all(pending);
  const windowInbound = end.injected - start.injected;
  const per = (a: number, b: number): number => (a - b) / Math.max(1, windowInbound);

  // Drain: every reply sent, then the last status callbacks (read comes 5 s after a send).
  const expectedSends = injected.length * 2;
  let sent: SentItem[] = [];
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    sent = (await fetch(`${sandbox.url}/__bench/sent`).then((r) => r.json())) as SentItem[];
    if (sent.length >= expectedSends) break;
    await sleep(500);
  }
  await sleep(8_000);
  const replies = checkReplies(injected, sent, 2, GREETING, { timerSend: IDLE_GOODBYE });

  // Status phase: the idle bot first (its ticks and polls), then status callbacks alone.
  const idle0 = procSample(pid);
  const idleStart = Date.now();
  await sleep(options.statusSec * 1000);
  const idleCpuMsPerSec = (procSample(pid).cpuMs - idle0.cpuMs) / ((Date.now() - idleStart) / 1000);
  const ids = (await fetch(`${sandbox.url}/__bench/sent`).then((r) => r.json())) as Array<{
    messageId: string;
    conversationId: string;
  }>;
  const status0 = procSample(pid);
  const statusStart = Date.now();
  const total = Math.round(options.statusPerSec * options.statusSec);
  for (let n = 0; n < total; n++) {
    const due = statusStart + (n * 1000) / options.statusPerSec;
    if (due > Date.now()) await sleep(due - Date.now());
    const target = ids[n % ids.length]!;
    const { body, headers } = statusCallbackBody(
      SECRET,
      target,
      n % 2 === 0 ? 'delivered' : 'read',
    );
    track(
      fetch(`${botUrl}/callbacks`, { method: 'POST', headers, body }).then((r) => r.arrayBuffer()),
    );
  }
  await Promise.all(pending);
  await sleep(300);
  const statusSecs = (Date.now() - statusStart) / 1000;
  const statusCpuMs =
    (procSample(pid).cpuMs - status0.cpuMs - idleCpuMsPerSec * statusSecs) / Math.max(1, total);

  await stopChild(bot);
  await Promise.all([stopChild(floor.child), stopChild(sandbox.child)]);
  await new Promise((r) => sink.server.close(r));
  sink.server.closeAllConnections();
  rmSync(dir, { recursive: true, force: true });
  if (options.store === 'redis') await dropPrefix(redisUrl, prefix);
  return {
    options,
    windowInbound,
    botCpuMsPerInbound: per(end.bot.cpuMs, start.bot.cpuMs),
    botUserMsPerInbound: per(end.bot.userMs, start.bot.userMs),
    botMainThreadMsPerInbound: per(end.botMain, start.botMain),
    floorCpuMsPerInbound: per(end.floor.cpuMs, start.floor.cpuMs),
    sandboxCpuMsPerInbound: per(end.sandbox.cpuMs, start.sandbox.cpuMs),
    exchanges: perInbound(end.sandbox.counts, start.sandbox.counts, windowInbound),
    store: perInbound(end.store, start.store, windowInbound),
    rssStartMb: start.bot.rssMb,
    rssEndMb: end.bot.rssMb,
    rssMaxMb,
    rssMidMb,
    rssPerMinute: rssPerMinute.map(([, mb]) => mb),
    replies,
    statusCallbacks: total,
    statusCpuMs,
    idleCpuMsPerSec,
    errorLines,
    failedRequests,
  };
}
