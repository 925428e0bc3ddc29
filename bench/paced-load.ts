/**
 * An open-loop load generator that spaces requests evenly: request k of a run is due at
 * start + k / rate, whatever happened to the ones before (a late answer does not delay
 * the next request, as with real senders). autocannon's `overallRate` is not that: each
 * connection fires its whole per-second quota back to back at the start of every second
 * and then waits, so "250/s" is a 250-request burst each second that keeps the target
 * busy flat out for part of it, and a second whose burst is not answered within the
 * second loses the rest of its quota (fewer messages than offered).
 */
import { Agent, request } from 'node:http';

/** Options of {@link runPaced}. */
export interface PacedOptions {
  readonly url: string;
  readonly path: string;
  /** Requests per second, spaced evenly. */
  readonly rate: number;
  /** How many requests in all (the run lasts count / rate seconds plus the last answers). */
  readonly count: number;
  /** Keep-alive connections at most (a request waits for a free one when all are busy). */
  readonly connections: number;
  /** Offset of the first request within the first interval (ms), to interleave targets. */
  readonly phaseMs?: number;
  readonly makeRequest: (n: number) => { body: string; headers: Record<string, string> };
  /** Told the status of every answered request `n`. */
  readonly onResponse?: (n: number, status: number) => void;
}

/** What a paced run measured. */
export interface PacedFigures {
  readonly sent: number;
  readonly ok2xx: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Latency percentiles (ms), from the moment each request was due. */
  readonly p50: number;
  readonly p99: number;
  /** How late the generator sent requests (ms, p99): above a few ms it could not keep up. */
  readonly lateP99: number;
  readonly durationSec: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Sends `count` requests at `rate`/s, evenly spaced, and waits for every answer. */
export async function runPaced(options: PacedOptions): Promise<PacedFigures> {
  if (!(options.rate > 0) || !Number.isInteger(options.count) || options.count < 0)
    throw new Error(
      `runPaced: rate must be > 0 and count a whole number ≥ 0 (got rate ${options.rate}, count ${options.count})`,
    );
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.path, options.url);
  const latencies: number[] = [];
  const late: number[] = [];
  let ok2xx = 0;
  let non2xx = 0;
  let errors = 0;
  const start = performance.now() + (options.phaseMs ?? 0);
  const intervalMs = 1000 / options.rate;
  const answers: Array<Promise<void>> = [];
  const send = (n: number, dueAt: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const { body, headers } = options.makeRequest(n);
      const req = request(
        target,
        {
          method: 'POST',
          agent,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) ok2xx++;
            else non2xx++;
            latencies.push(performance.now() - dueAt);
            options.onResponse?.(n, status);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  for (let n = 0; n < options.count; n++) {
    const dueAt = start + n * intervalMs;
    const wait = dueAt - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    late.push(Math.max(0, performance.now() - dueAt));
    answers.push(send(n, dueAt));
  }
  await Promise.all(answers);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  late.sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 10) / 10;
  return {
    sent: options.count,
    ok2xx,
    non2xx,
    errors,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    lateP99: round(percentile(late, 99)),
    durationSec: (performance.now() - start) / 1000,
  };
}
