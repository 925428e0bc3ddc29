import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { oldestWaitingAgeMs } from '../../src/metrics/backlog-probe.js';
import { registerOperationsMetrics } from '../../src/metrics/operations-metrics.js';
import { MemoryStore } from '../../src/store/memory-store.js';

/** The samples of a metric as `labels -> value`. */
async function samples(registry: Registry, name: string): Promise<Map<string, number>> {
  const metric = registry.getSingleMetric(name);
  const out = new Map<string, number>();
  if (metric === undefined) return out;
  for (const v of (await metric.get()).values)
    out.set(
      `${(v as { metricName?: string }).metricName ?? name}${JSON.stringify(v.labels)}`,
      v.value,
    );
  return out;
}

describe('registerOperationsMetrics', () => {
  it('should count API attempts by route template and status, bounding unknown routes', async () => {
    const registry = new Registry();
    const ops = registerOperationsMetrics(registry);
    ops.observeApiCall({ route: 'POST /v1/messages', status: 429, code: 'rate_limited' });
    ops.observeApiCall({ route: 'POST /v1/messages', status: 429 });
    ops.observeApiCall({ route: 'GET /v1/conversations', status: 0, code: 'timeout' });
    ops.observeApiCall({ route: 'GET /v1/somewhere/+15551230001', status: 200 });
    const got = await samples(registry, 'switchboard_api_calls_total');
    expect(got.get('switchboard_api_calls_total{"route":"POST /v1/messages","status":"429"}')).toBe(
      2,
    );
    expect(
      got.get('switchboard_api_calls_total{"route":"GET /v1/conversations","status":"0"}'),
    ).toBe(1);
    expect(got.get('switchboard_api_calls_total{"route":"other","status":"200"}')).toBe(1);
  });

  it('should observe the wait of inbound messages on the given clock', async () => {
    const registry = new Registry();
    const now = Date.parse('2026-03-02T09:00:10Z');
    const ops = registerOperationsMetrics(registry, { now: () => now });
    ops.observeInboundWait('2026-03-02T09:00:00Z');
    ops.observeInboundWait('not a date');
    const got = await samples(registry, 'switchboard_inbound_wait_seconds');
    expect(got.get('switchboard_inbound_wait_seconds_count{}')).toBe(1);
    expect(got.get('switchboard_inbound_wait_seconds_sum{}')).toBe(10);
    expect(got.get('switchboard_inbound_wait_seconds_bucket{"le":5}')).toBe(0);
    expect(got.get('switchboard_inbound_wait_seconds_bucket{"le":10}')).toBe(1);
  });

  it('should read the store probe at scrape: 1, 0 on false, on a failure and past the timeout', async () => {
    const answers: (() => Promise<boolean>)[] = [
      () => Promise.resolve(true),
      () => Promise.resolve(false),
      () => Promise.reject(new Error('ECONNREFUSED')),
      () => new Promise<boolean>(() => undefined),
    ];
    let next = 0;
    const registry = new Registry();
    registerOperationsMetrics(registry, {
      probeStore: () => answers[next++]!(),
      probeTimeoutMs: 20,
    });
    const read = async () =>
      (await samples(registry, 'switchboard_store_up')).get('switchboard_store_up{}');
    expect([await read(), await read(), await read(), await read()]).toEqual([1, 0, 0, 0]);
  });

  it('should report the oldest waiting age in seconds, NaN when the store fails', async () => {
    let fail = false;
    const registry = new Registry();
    registerOperationsMetrics(registry, {
      oldestWaitingMs: () => (fail ? Promise.reject(new Error('down')) : Promise.resolve(90_000)),
    });
    const read = async () =>
      (await samples(registry, 'switchboard_backlog_oldest_age_seconds')).get(
        'switchboard_backlog_oldest_age_seconds{}',
      );
    expect(await read()).toBe(90);
    fail = true;
    expect(await read()).toBeNaN();
  });
});

describe('oldestWaitingAgeMs', () => {
  it('should answer the age of the oldest timed item among the waiting conversations', async () => {
    const store = new MemoryStore();
    const now = 1_000_000;
    expect(await oldestWaitingAgeMs(store, now)).toBe(0);
    await store.enqueue('a', { id: 'msg:1', sortKey: now - 5_000, payload: {} }, 60_000);
    await store.enqueue('b', { id: 'msg:2', sortKey: now - 65_000, payload: {} }, 60_000);
    // A continuation (sort key 0) and an item from the future do not count.
    await store.enqueue('c', { id: 'handler:x', sortKey: 0, payload: {} }, 60_000);
    await store.enqueue('d', { id: 'msg:3', sortKey: now + 1_000, payload: {} }, 60_000);
    expect(await oldestWaitingAgeMs(store, now)).toBe(65_000);
    await store.ackInbox('b', ['msg:2']);
    expect(await oldestWaitingAgeMs(store, now)).toBe(5_000);
  });
});
