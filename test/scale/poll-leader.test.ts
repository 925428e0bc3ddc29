import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { PollLeader } from '../../src/ingest/poll-leader.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { REDIS_URL } from '../store/redis-test-helpers.js';
import type { Store } from '../../src/store/store.js';

/** A bot stand-in that records whether it polls. */
function fakeBot(): {
  polling: boolean;
  starts: number;
  startPolling(): void;
  stopPolling(): Promise<void>;
} {
  return {
    polling: false,
    starts: 0,
    startPolling() {
      this.polling = true;
      this.starts++;
    },
    stopPolling() {
      this.polling = false;
      return Promise.resolve();
    },
  };
}

function workers(store: Store, clock: ManualClock, n: number, name: string) {
  return Array.from({ length: n }, (_, i) => {
    const bot = fakeBot();
    const leader = new PollLeader({ store, bot, owner: `w${i}`, clock, leaseMs: 3_000, name });
    return { bot, leader };
  });
}

// Redis is required (CI makes sure it answers); REDIS_URL selects it.
const redis = new Redis(REDIS_URL, { lazyConnect: true });
const prefix = `sb:test:pollleader:${randomUUID()}:`;

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const stores: Array<[string, () => Store]> = [['MemoryStore', () => new MemoryStore()]];
stores.push(['RedisStore', () => new RedisStore({ redis, prefix })]);

describe.each(stores)('PollLeader (%s)', (_label, makeStore) => {
  it('should let exactly one of three workers poll', async () => {
    const clock = new ManualClock(1_000_000);
    const ws = workers(makeStore(), clock, 3, `poller-${randomUUID()}`);
    for (let round = 0; round < 5; round++) {
      for (const w of ws) await w.leader.tick();
      clock.advance(1_000);
    }
    expect(ws.filter((w) => w.bot.polling)).toHaveLength(1);
    expect(ws.filter((w) => w.leader.isLeader)).toHaveLength(1);
    expect(ws.reduce((sum, w) => sum + w.bot.starts, 0)).toBe(1);
  });

  it('should hand polling over when the leader dies without releasing', async () => {
    const clock = new ManualClock(2_000_000);
    const [a, b, c] = workers(makeStore(), clock, 3, `poller-${randomUUID()}`);
    expect((await a!.leader.tick()).status).toBe('leading');
    expect((await b!.leader.tick()).status).toBe('following');
    // a is killed: it never ticks again. Before the lease expires nobody takes over.
    clock.advance(2_999);
    expect((await b!.leader.tick()).status).toBe('following');
    clock.advance(2);
    const states = [await b!.leader.tick(), await c!.leader.tick()];
    expect(states.map((s) => s.status).sort()).toEqual(['following', 'leading']);
    expect(b!.bot.polling !== c!.bot.polling).toBe(true);
  });

  it('should stop polling when another worker holds the lease', async () => {
    const clock = new ManualClock(3_000_000);
    const store = makeStore();
    const name = `poller-${randomUUID()}`;
    const [a, b] = workers(store, clock, 2, name);
    await a!.leader.tick();
    // a stalls longer than the lease (e.g. a long GC pause); b takes over meanwhile.
    clock.advance(3_001);
    expect((await b!.leader.tick()).status).toBe('leading');
    expect((await a!.leader.tick()).status).toBe('following');
    expect(a!.bot.polling).toBe(false);
    expect(b!.bot.polling).toBe(true);
  });

  it('should release the lease on stop so another worker leads at once', async () => {
    const clock = new ManualClock(4_000_000);
    const [a, b] = workers(makeStore(), clock, 2, `poller-${randomUUID()}`);
    expect((await a!.leader.start()).status).toBe('leading');
    await a!.leader.stop();
    expect(a!.bot.polling).toBe(false);
    expect((await b!.leader.tick()).status).toBe('leading');
    await b!.leader.stop();
  });
});
