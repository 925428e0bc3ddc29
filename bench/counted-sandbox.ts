import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Sandbox } from '../src/sandbox/index.js';

/** A sandbox served behind a front app that counts response statuses (429s above all). */
export interface CountedSandbox {
  readonly url: string;
  /** Responses by HTTP status so far. */
  readonly statuses: Map<number, number>;
  /** `METHOD path` of every 429 response, with the sandbox-clock time it was answered. */
  readonly limited: Array<{ readonly route: string; readonly at: number }>;
  close(): Promise<void>;
}

/** One answered request, as {@link serveCounted} tells it to `onResponse`. */
export interface AnsweredRequest {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** Wall-clock time (ms) the request arrived. */
  readonly at: number;
}

/**
 * Serves `sandbox.app` on 127.0.0.1 (ephemeral port) and counts every response status;
 * `onResponse`, when given, is told every answered request.
 */
export async function serveCounted(
  sandbox: Sandbox,
  onResponse?: (request: AnsweredRequest) => void,
): Promise<CountedSandbox> {
  const statuses = new Map<number, number>();
  const limited: Array<{ route: string; at: number }> = [];
  const front = express();
  front.use((req, res, next) => {
    // Taken now: the sandbox's routers rewrite req.url while they handle it.
    const at = Date.now();
    const { method, path } = req;
    res.on('finish', () => {
      onResponse?.({ method, path, status: res.statusCode, at });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 429)
        limited.push({ route: `${req.method} ${req.path}`, at: sandbox.clock.now() });
    });
    next();
  });
  front.use(sandbox.app);
  const server = await new Promise<ReturnType<typeof front.listen>>((resolve) => {
    const s = front.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    statuses,
    limited,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
