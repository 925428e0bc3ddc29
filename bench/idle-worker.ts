/**
 * What one idle `switchboard run` worker costs: `npx tsx bench/idle-worker.ts` starts
 * `switchboard run examples/support-desk --poll 2s` (the compiled CLI: `npm run build`
 * first) against an in-process sandbox, on Redis (`REDIS_URL`, default 127.0.0.1:6379; use
 * a Redis nobody else uses, or the commands below are everyone's), waits 5 s, then measures
 * for `IDLE_MS` (default 20 s): the worker's CPU (all threads, and the main thread alone:
 * /proc, 10 ms ticks), its voluntary context switches, and the commands and round trips
 * (`total_reads_processed`) Redis served, per second. `ROOT=<checkout>` runs another
 * checkout's build (e.g. main's, to compare). Linux only.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { createSandbox } from '../src/sandbox/index.js';

const root = process.env['ROOT'] ?? process.cwd();
const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const idleMs = Number(process.env['IDLE_MS'] ?? 20_000);

/** CPU ms of the whole process and of its main thread, and its voluntary switches. */
function sample(pid: number): { cpuMs: number; mainMs: number; voluntary: number } {
  const ticks = (path: string): number => {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    cpuMs: ticks(`/proc/${pid}/stat`),
    mainMs: ticks(`/proc/${pid}/task/${pid}/stat`),
    voluntary: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
  };
}

/** Commands served by name (INFO left out) and reads processed so far. */
async function served(redis: Redis): Promise<{ calls: Map<string, number>; reads: number }> {
  const info = await redis.info('all');
  const calls = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_(\S+):calls=(\d+)/gm))
    if (m[1] !== undefined && m[1] !== 'info') calls.set(m[1], Number(m[2]));
  return { calls, reads: Number(/total_reads_processed:(\d+)/.exec(info)?.[1] ?? 0) };
}

const redis = new Redis(url);
const sandbox = createSandbox();
const server = await sandbox.listen(0, '127.0.0.1');
const child = spawn(
  process.execPath,
  [`${root}/bin/switchboard.js`, 'run', `${root}/examples/support-desk`, '--poll', '2s'].concat([
    '--metrics-port',
    '0',
    '--host',
    '127.0.0.1',
  ]),
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      REDIS_URL: url,
      REDIS_PREFIX: `bench:idle:${Date.now()}:`,
      MESSAGING_API_BASE_URL: server.url,
      MESSAGING_API_KEY: sandbox.config.keys[0]?.key ?? '',
      SWITCHBOARD_WORKER_ID: `idle-${process.pid}`,
    },
  },
);
try {
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"listening"')) resolve();
    });
  });
  const pid = child.pid ?? 0;
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const cpu0 = sample(pid);
  const redis0 = await served(redis);
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const cpu1 = sample(pid);
  const redis1 = await served(redis);
  const perSec = (n: number): string => ((n * 1000) / idleMs).toFixed(2);
  const commands = [...redis1.calls]
    .map(([name, n]): [string, number] => [name, n - (redis0.calls.get(name) ?? 0)])
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${perSec(n)}`)
    .join(', ');
  process.stdout.write(
    `idle ${idleMs} ms: CPU ${perSec(cpu1.cpuMs - cpu0.cpuMs)} ms/s (main thread ` +
      `${perSec(cpu1.mainMs - cpu0.mainMs)}), ${perSec(cpu1.voluntary - cpu0.voluntary)} ` +
      `voluntary switches/s; Redis ${perSec(redis1.reads - redis0.reads - 1)} round trips/s, ` +
      `commands/s: ${commands}\n`,
  );
} finally {
  child.kill('SIGKILL');
  await sandbox.close();
  redis.disconnect();
}
