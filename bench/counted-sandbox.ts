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

/** Serves `sandbox.app` on 127.0.0.1 (ephemeral port) and counts every response status. */
export async function serveCounted(sandbox: Sandbox): Promise<CountedSandbox> {
  const statuses = new Map<number, number>();
  const limited: Array<{ route: string; at: number }> = [];
  const front = express();
  front.use((req, res, next) => {
    res.on('finish', () => {
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
