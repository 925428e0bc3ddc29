import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { benchScript } from './child-script.js';

const Ready = z.object({ url: z.string() });
const Stats = z.object({
  events: z.number(),
  sends: z.number(),
  rss: z.number(),
  /** CPU time (user + system) the target used so far. */
  cpuMicros: z.number(),
  /** Main-thread pauses for garbage collection so far (µs), and how many. */
  gcMicros: z.number().optional(),
  gcCount: z.number().optional(),
  /** Linux only: the main thread's CPU time alone (µs, 10 ms resolution). */
  mainThreadCpuMicros: z.number().optional(),
  /** Linux only: times the scheduler preempted the target, and times it waited. */
  involuntarySwitches: z.number().optional(),
  voluntarySwitches: z.number().optional(),
  /** Linux only: read and write system calls so far (sockets and files). */
  readCalls: z.number().optional(),
  writeCalls: z.number().optional(),
});
export type TargetStats = z.infer<typeof Stats>;

/** What a target process runs: the echo route, or the bot on one of the stores. */
export type TargetMode = 'echo' | 'bot-memory' | 'bot-redis' | 'bot-sqlite';

/** A benchmark target running in its own process. */
export interface Target {
  readonly url: string;
  /** `{ sends: false }`: without the stub's send count (cheaper for the target). */
  stats(options?: { sends?: boolean }): Promise<TargetStats>;
  /** Waits until `events` inbound messages were fed to machines, or the deadline. */
  waitForEvents(events: number, deadlineMs: number): Promise<TargetStats>;
  stop(): Promise<void>;
  /** Asks the target to exit by itself (SIGTERM), so a CPU profile gets written. */
  finish(): Promise<void>;
}

/** Starts `bench/target-server.ts <mode> [prefix]` and waits for its address. */
export async function spawnTarget(
  mode: TargetMode,
  prefix?: string,
  options: { nodeArgs?: readonly string[]; env?: Record<string, string> } = {},
): Promise<Target> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...benchScript('target-server'),
      mode,
      ...(prefix === undefined ? [] : [prefix]),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...options.env } },
  );
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`target ${mode} exited with ${String(code)}`)));
    lines.once('line', (line) => {
      const ready = Ready.safeParse(JSON.parse(line));
      if (ready.success) resolve(ready.data.url);
      else reject(new Error(`target ${mode} printed ${line}`));
    });
  });
  const stats = async (options: { sends?: boolean } = {}): Promise<TargetStats> => {
    const res = await fetch(`${url}/__stats${options.sends === false ? '?sends=0' : ''}`);
    return Stats.parse(await res.json());
  };
  return {
    url,
    stats,
    async waitForEvents(events, deadlineMs) {
      const until = Date.now() + deadlineMs;
      for (;;) {
        const s = await stats();
        if (s.events >= events || Date.now() > until) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    finish: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
