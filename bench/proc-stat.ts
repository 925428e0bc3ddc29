/** CPU time and resident memory of another process, from Linux's /proc. */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/** A process's CPU time so far (user + system, ms) and its RSS (MB) now. */
export interface ProcSample {
  readonly cpuMs: number;
  readonly userMs: number;
  readonly systemMs: number;
  readonly rssMb: number;
}

/** CPU time (user + system, ms) of the main thread of `pid` alone (its JavaScript, V8's
 * main-thread work), without the worker, GC helper and libuv pool threads. */
export function mainThreadCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
}

/** Reads `pid`'s user + system time (/proc/<pid>/stat) and VmRSS (/proc/<pid>/status). */
export function procSample(pid: number): ProcSample {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const userMs = (Number(fields[11]) * 1000) / USER_HZ;
  const systemMs = (Number(fields[12]) * 1000) / USER_HZ;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { cpuMs: userMs + systemMs, userMs, systemMs, rssMb: rssKb / 1024 };
}
