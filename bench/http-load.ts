import autocannon from 'autocannon';

/** What one load run measured. */
export interface LoadFigures {
  readonly requests: number;
  readonly requestsPerSec: number;
  /** Latency percentiles in ms. */
  readonly p50: number;
  readonly p99: number;
  readonly ok2xx: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly durationSec: number;
}

/** Options of {@link runLoad}: identical settings are used for every target. */
export interface LoadOptions {
  readonly url: string;
  readonly path: string;
  readonly connections: number;
  readonly durationSec: number;
  /** Fixed overall request rate (req/s); default: as fast as possible. */
  readonly overallRate?: number;
  /** Builds request `n` (body + headers); every request is distinct. */
  readonly makeRequest: (n: number) => { body: string; headers: Record<string, string> };
  /** Stop after this many requests instead of after `durationSec` (a warm-up). */
  readonly amount?: number;
  /** Told the status of every answered request `n` (not of those cut off at the end). */
  readonly onResponse?: (n: number, status: number) => void;
}

interface RequestContext {
  n?: number;
}

/** Runs autocannon against one target and returns its figures. */
export async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  let n = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSec,
    ...(options.amount === undefined ? {} : { amount: options.amount }),
    ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
    requests: [
      {
        method: 'POST',
        path: options.path,
        setupRequest: (req, context: RequestContext) => {
          // One request at a time per connection (no pipelining): the context names it.
          context.n = n;
          const { body, headers } = options.makeRequest(n++);
          return { ...req, method: 'POST', path: options.path, body, headers };
        },
        ...(options.onResponse === undefined
          ? {}
          : {
              onResponse: (status: number, _body: string, context: RequestContext) => {
                if (context.n !== undefined) options.onResponse?.(context.n, status);
              },
            }),
      },
    ],
  });
  return {
    requests: result.requests.total,
    requestsPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    durationSec: result.duration,
  };
}

/** The figures of several loads run side by side (one per target), with `acked` 2xx. */
export function mergeLoads(loads: readonly LoadFigures[], acked: number): LoadFigures {
  return {
    requests: loads.reduce((s, l) => s + l.requests, 0),
    requestsPerSec: loads.reduce((s, l) => s + l.requestsPerSec, 0),
    p50: Math.max(...loads.map((l) => l.p50)),
    p99: Math.max(...loads.map((l) => l.p99)),
    ok2xx: acked,
    non2xx: loads.reduce((s, l) => s + l.non2xx, 0),
    errors: loads.reduce((s, l) => s + l.errors, 0),
    durationSec: Math.max(...loads.map((l) => l.durationSec)),
  };
}
