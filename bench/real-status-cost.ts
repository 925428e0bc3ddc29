/**
 * CPU of one status callback that changes nothing, measured alone and with many samples:
 * `switchboard run examples/support-desk` (dist/, memory store unless told) against the
 * bench sandbox, then `count` signed `delivered`/`read` callbacks over `concurrency`
 * keep-alive connections; the bot's user + system CPU from /proc, its idle rate over the
 * same span taken off. Less noisy than the real row's 200-callback phase on a loaded machine.
 * `node .bench-build/bench/real-status-cost.js [count] [store]` after `npm run build` and
 * `tsc -p bench/tsconfig.json`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchScript } from './child-script.js';
import { mainThreadCpuMs, procSample } from './proc-stat.js';
import { statusCallbackBody } from './real-load-io.js';

const root = fileURLToPath(
  new URL(import.meta.url.endsWith('.js') ? '../../' : '../', import.meta.url),
);
const SECRET = 'bench-status-cost-secret';
const KEY = 'sk_bench_status_0123456789';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const [countArg = '3000', store = 'memory'] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = 4;

const port = await new Promise<number>((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const p = (s.address() as AddressInfo).port;
    s.close(() => resolve(p));
  });
});
const dir = mkdtempSync(join(tmpdir(), 'sb-status-cost-'));
const configPath = join(dir, 'sandbox.json');
writeFileSync(
  configPath,
  JSON.stringify({
    numbers: [{ id: 'num_default', phoneNumber: '+15550000000' }],
    keys: [{ key: KEY, number: 'num_default' }],
    callback: { url: `http://127.0.0.1:${port}/callbacks`, secret: SECRET },
  }),
);
const sandbox = spawn(process.execPath, [...benchScript('real-sandbox-server'), configPath], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const sandboxUrl = await new Promise<string>((resolve) =>
  createInterface({ input: sandbox.stdout }).once('line', (line) =>
    resolve((JSON.parse(line) as { url: string }).url),
  ),
);
const bot: ChildProcess = spawn(
  process.execPath,
  [
    // e.g. STATUS_COST_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p' to profile the bot.
    ...(process.env['STATUS_COST_NODE_ARGS']?.split(' ').filter(Boolean) ?? []),
    join(root, 'bin', 'switchboard.js'),
    'run',
    join(root, 'examples', 'support-desk'),
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    ...(store === 'sqlite' ? ['--state', join(dir, 'state.db')] : ['--memory']),
  ],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
    cwd: dir,
    env: {
      ...process.env,
      SWITCHBOARD_DIST: '1',
      MESSAGING_API_BASE_URL: sandboxUrl,
      MESSAGING_API_KEY: KEY,
      CALLBACK_SECRET: SECRET,
      LOG_FORMAT: 'json',
      REDIS_URL: undefined,
    },
  },
);
const botUrl = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (
    await fetch(`${botUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 600) throw new Error('the bot did not become ready');
  await sleep(100);
}
await sleep(3000);
const pid = bot.pid!;
// Warm-up: the JIT and the connection pool, not measured.
const post = async (n: number): Promise<void> => {
  const { body, headers } = statusCallbackBody(
    SECRET,
    { messageId: `msg_${n}`, conversationId: `conv_${n % 50}` },
    n % 2 === 0 ? 'delivered' : 'read',
  );
  const r = await fetch(`${botUrl}/callbacks`, { method: 'POST', headers, body });
  if (r.status !== 200) throw new Error(`callback answered ${r.status}`);
  await r.arrayBuffer();
};
const burst = async (total: number): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await post(next++);
    }),
  );
};
await burst(500);
await sleep(1000);
const idle0 = procSample(pid);
const idleAt = Date.now();
await sleep(3000);
const idleRate = (procSample(pid).cpuMs - idle0.cpuMs) / (Date.now() - idleAt);
const s0 = procSample(pid);
const m0 = mainThreadCpuMs(pid);
const t0 = Date.now();
await burst(count);
const span = Date.now() - t0;
const s1 = procSample(pid);
const m1 = mainThreadCpuMs(pid);
const perCallback = (s1.cpuMs - s0.cpuMs - idleRate * span) / count;
process.stdout.write(
  `${JSON.stringify({
    store,
    count,
    msPerCallback: Number(perCallback.toFixed(3)),
    userMsPerCallback: Number(((s1.userMs - s0.userMs) / count).toFixed(3)),
    mainThreadMsPerCallback: Number(((m1 - m0) / count).toFixed(3)),
    idleMsPerSec: Number((idleRate * 1000).toFixed(1)),
    wallMs: span,
  })}\n`,
);
bot.kill('SIGTERM');
sandbox.kill('SIGTERM');
await sleep(500);
rmSync(dir, { recursive: true, force: true });
process.exit(0);
