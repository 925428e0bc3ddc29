/**
 * Disk reads of the growth bench's serving process, two figures:
 *
 * - {@link readBytes}: the process's bytes read from the block device (`read_bytes` of
 *   /proc/self/io: page-cache misses only, every thread), sampled around the timed
 *   messages to give disk bytes per message.
 * - {@link traceStatements} (GROWTH_TRACE=1 only: it reads /proc/thread-self/io twice per
 *   libsql call): wraps every libsql statement's `run`/`get`/`all` and counts, per SQL
 *   text, calls, time, calls over 1 ms, and the bytes the calling (main) thread read from
 *   disk while the call ran.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Bytes this process (`self`) or the calling thread (`thread-self`) has read from disk
 * so far (0 where /proc is missing).
 */
export function readBytes(of: 'self' | 'thread-self' = 'self'): number {
  try {
    const match = /^read_bytes: (\d+)$/m.exec(readFileSync(`/proc/${of}/io`, 'utf8'));
    return match === null ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}

/** One SQL text's figures. */
export interface StatementFigures {
  sql: string;
  calls: number;
  ms: number;
  over1ms: number;
  /** Bytes the calling thread read from disk while its calls ran. */
  diskBytes: number;
}

interface Traced {
  __sql?: string;
}

type Method = (this: Traced, ...args: unknown[]) => unknown;

/**
 * Wraps libsql's statements from now on; `take()` returns the figures gathered since
 * the last `take()` (and starts over), busiest first.
 */
export function traceStatements(): { take: () => StatementFigures[] } {
  const Database = createRequire(import.meta.url)('libsql') as {
    prototype: { prepare: (this: unknown, sql: string) => Traced };
  };
  let figures = new Map<string, StatementFigures>();
  const prepare = Database.prototype.prepare;
  let patched = false;
  Database.prototype.prepare = function (this: unknown, sql: string): Traced {
    const statement = prepare.call(this, sql);
    statement.__sql = sql.replace(/\s+/g, ' ').slice(0, 90);
    if (!patched) {
      patched = true;
      const proto = Object.getPrototypeOf(statement) as Record<string, Method>;
      for (const name of ['run', 'get', 'all']) {
        const original = proto[name];
        if (original === undefined) continue;
        proto[name] = function (this: Traced, ...args: unknown[]): unknown {
          const before = readBytes('thread-self');
          const started = performance.now();
          try {
            return original.apply(this, args);
          } finally {
            const ms = performance.now() - started;
            const sqlText = this.__sql ?? '?';
            const f = figures.get(sqlText) ?? {
              sql: sqlText,
              calls: 0,
              ms: 0,
              over1ms: 0,
              diskBytes: 0,
            };
            f.calls++;
            f.ms += ms;
            if (ms > 1) f.over1ms++;
            f.diskBytes += readBytes('thread-self') - before;
            figures.set(sqlText, f);
          }
        };
      }
    }
    return statement;
  };
  return {
    take: () => {
      const taken = [...figures.values()].sort((a, b) => b.ms - a.ms);
      figures = new Map();
      return taken;
    },
  };
}

/** CPU ms of the calling thread so far (utime + stime of /proc/thread-self/stat; 0 without /proc). */
export function threadCpuMs(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
