import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagingClient } from '../../src/api/client.js';
import type { Limiter } from '../../src/api/limiter.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import { API_KEY, textRequest } from './client-fixture.js';
import { json, startTestServer, type TestServer } from './test-server.js';

/**
 * Real time, irregular latency on both legs: a request waits 600–900 ms (the first 20) or
 * 0–200 ms (the rest) between its take and reaching the server, like a worker whose event
 * loop stalls; the server answers after 0–250 ms. The server counts arrivals.
 */
const SENDS = 30;
const toServerMs = (i: number): number => (i < 20 ? 600 + ((i * 37) % 300) : (i * 53) % 200);
const responseMs = (i: number): number => (i * 71) % 250;

/** The largest number of times inside any half-open window [t, t + windowMs). */
function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (const start of sorted)
    best = Math.max(best, sorted.filter((t) => t >= start && t < start + windowMs).length);
  return best;
}

describe('MessagingClient budgets under latency', () => {
  let server: TestServer;
  let arrivals: number[];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** Sends SENDS messages at once through `limiter` and returns the server's arrival times. */
  async function burst(limiter: Limiter): Promise<number[]> {
    server.reset();
    arrivals = [];
    let served = 0;
    server.handle((_req, res) => {
      arrivals.push(Date.now());
      const i = served++;
      setTimeout(() => {
        json(res, 202, { messaging_product: 'whatsapp', messageId: `m${i}`, status: 'queued' });
      }, responseMs(i));
    });
    let started = 0;
    const client = new MessagingClient({
      baseUrl: server.baseUrl,
      apiKey: API_KEY,
      limiter,
      budgetMarginMs: 0,
      fetch: async (url, init) => {
        await delay(toServerMs(started++));
        return fetch(url, init);
      },
    });
    const results = await Promise.all(
      Array.from({ length: SENDS }, (_, i) => client.send(textRequest(`n${i}`))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(SENDS).fill('accepted'));
    return arrivals;
  }

  it('should never let the server see more than 20 sends in any 1 s window', async () => {
    const seen = await burst(new MemoryLimiter());
    expect(seen).toHaveLength(SENDS);
    expect(maxInWindow(seen, 1_000)).toBeLessThanOrEqual(20);
  });

  it('should show that counting at take time alone lets the server see more than 20', async () => {
    // Control: entries settle at their take time (no in-flight period, no completion).
    const memory = new MemoryLimiter();
    const takeTime: Limiter = {
      take: (rules, now) => memory.take(rules, now, { inFlightMs: 0 }),
      complete: () => Promise.resolve(),
      block: (keys, until) => memory.block(keys, until),
      acquireSlot: (key, max, ttl) => memory.acquireSlot(key, max, ttl),
    };
    const seen = await burst(takeTime);
    expect(maxInWindow(seen, 1_000)).toBeGreaterThan(20);
  });
});
