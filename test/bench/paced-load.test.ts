import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runPaced } from '../../bench/paced-load.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) =>
    server === undefined ? resolve() : server.close(() => resolve()),
  );
  server = undefined;
});

/** A server on an ephemeral port that records when each request body arrived. */
async function recorder(
  status: (n: number) => number,
): Promise<{ url: string; arrivals: Array<{ body: string; at: number }> }> {
  const arrivals: Array<{ body: string; at: number }> = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      arrivals.push({ body, at: performance.now() });
      res.statusCode = status(Number(body));
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, arrivals };
}

describe('runPaced', () => {
  it('should send every request once, spread over count / rate instead of in one burst', async () => {
    const { url, arrivals } = await recorder((n) => (n === 3 ? 503 : 202));
    const statuses = new Map<number, number>();
    const figures = await runPaced({
      url,
      path: '/callbacks',
      rate: 100,
      count: 20,
      connections: 4,
      makeRequest: (n) => ({ body: String(n), headers: { 'content-type': 'text/plain' } }),
      onResponse: (n, status) => statuses.set(n, status),
    });
    expect(figures).toMatchObject({ sent: 20, ok2xx: 19, non2xx: 1, errors: 0 });
    expect(arrivals.map((a) => Number(a.body)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    expect(statuses.get(3)).toBe(503);
    expect(statuses.get(4)).toBe(202);
    // 19 intervals of 10 ms: a burst generator would land them within a few ms. Half the
    // nominal span leaves room for a late start on a loaded machine.
    const times = arrivals.map((a) => a.at);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(95);
  });

  it('should reject a rate or count that cannot be paced, naming both', async () => {
    const bad = (rate: number, count: number) =>
      runPaced({
        url: 'http://127.0.0.1:9',
        path: '/',
        rate,
        count,
        connections: 1,
        makeRequest: () => ({ body: '', headers: {} }),
      });
    await expect(bad(0, 10)).rejects.toThrow(
      'rate must be > 0 and count a whole number ≥ 0 (got rate 0, count 10)',
    );
    await expect(bad(10, 1.5)).rejects.toThrow('(got rate 10, count 1.5)');
  });
});
