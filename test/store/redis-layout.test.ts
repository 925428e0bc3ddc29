import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { RedisKeys } from '../../src/store/redis-keys.js';
import {
  REDIS_LAYOUT_VERSION,
  RedisLayoutError,
  ensureRedisLayout,
  layoutKey,
} from '../../src/store/redis-layout.js';
import { RedisStore } from '../../src/store/redis-store.js';
import type { SendRecord } from '../../src/store/store.js';
import { connectTestRedis, deleteByPrefix } from './redis-test-helpers.js';

const DAY = 86_400_000;

describe('ensureRedisLayout', () => {
  let redis: Awaited<ReturnType<typeof connectTestRedis>>;
  const prefixes: string[] = [];
  const fresh = (): string => {
    const prefix = `sb-layout-${randomUUID()}:`;
    prefixes.push(prefix);
    return prefix;
  };
  beforeAll(async () => {
    redis = await connectTestRedis();
  });
  afterAll(async () => {
    for (const prefix of prefixes) await deleteByPrefix(redis, prefix);
    redis.disconnect();
  });

  it('should stamp an empty prefix with the current version, then find it current', async () => {
    const prefix = fresh();
    expect(await ensureRedisLayout(redis, prefix)).toEqual({ status: 'new', from: 0, to: 2 });
    expect(await redis.get(layoutKey(prefix))).toBe(String(REDIS_LAYOUT_VERSION));
    expect(await ensureRedisLayout(redis, prefix)).toEqual({ status: 'current', from: 2, to: 2 });
  });

  it('should migrate a prefix written before layout versions, keeping every live record', async () => {
    const prefix = fresh();
    const clock = new ManualClock(Date.parse('2026-03-02T09:00:00Z'));
    const store = new RedisStore({ redis, prefix, clock });
    const keys = new RedisKeys(prefix);
    // Today's layout: a conversation, and send records of the first layout in its hash.
    await store.putConversation('conv-1', { state: 'menu' }, 0);
    const record = (id: string, startedAt: number, messageId?: string): SendRecord => ({
      id,
      conversationId: 'conv-1',
      seq: 1,
      state: 'accepted',
      startedAt,
      contentType: 'text',
      ...(messageId === undefined ? {} : { messageId }),
    });
    const live = record('conv-1:1:1', clock.now() - DAY, 'wamid_live');
    const expired = record('conv-1:1:2', clock.now() - 8 * DAY, 'wamid_old');
    const newer = record('conv-1:1:3', clock.now() - DAY);
    await redis.hset(keys.legacySends.records, {
      [live.id]: JSON.stringify(live),
      [expired.id]: JSON.stringify(expired),
      [newer.id]: JSON.stringify(newer),
    });
    await redis.hset(keys.legacySends.byMessageId, { wamid_live: live.id, wamid_old: expired.id });
    // A record the current code already wrote under the same id wins over the hash's.
    await store.putSend({ ...newer, state: 'failed', code: 'undeliverable' });

    const result = await ensureRedisLayout(redis, prefix, { clock });
    expect(result).toEqual({ status: 'migrated', from: 1, to: 2, sendsMoved: 1 });
    expect(await redis.get(layoutKey(prefix))).toBe('2');
    expect(await redis.exists(keys.legacySends.records, keys.legacySends.byMessageId)).toBe(0);
    expect(await store.getSend(live.id)).toEqual(live);
    expect(await store.findSendByMessageId('wamid_live')).toEqual(live);
    expect(await store.getSend(expired.id)).toBeUndefined();
    expect(await store.getSend(newer.id)).toMatchObject({ state: 'failed' });
    expect(await store.getConversation('conv-1')).toEqual({ value: { state: 'menu' }, version: 1 });
    // The per-send key expires with the send retention (7 days), not never.
    expect(await redis.pttl(keys.send(live.id))).toBeGreaterThan(0);
  });

  it('should refuse a newer layout and an unreadable version, saying what to do', async () => {
    const prefix = fresh();
    await redis.set(layoutKey(prefix), '3');
    await expect(ensureRedisLayout(redis, prefix)).rejects.toThrow(
      new RedisLayoutError(
        `Redis prefix "${prefix}" has layout version 3; this switchboard knows 2: upgrade switchboard (or use another REDIS_PREFIX)`,
      ),
    );
    await redis.set(layoutKey(prefix), 'banana');
    await expect(ensureRedisLayout(redis, prefix)).rejects.toThrow(
      /holds "banana", not a layout version/,
    );
  });

  it('should let one of two workers migrate while the other waits for it', async () => {
    const prefix = fresh();
    await redis.set(`${prefix}v:some-value`, '{"e":null,"v":1}');
    const [a, b] = await Promise.all([
      ensureRedisLayout(redis, prefix, { pollMs: 10 }),
      ensureRedisLayout(redis, prefix, { pollMs: 10 }),
    ]);
    expect([a.status, b.status].sort()).toEqual(['current', 'migrated']);
    expect(await redis.get(layoutKey(prefix))).toBe('2');
    expect(await redis.exists(`${layoutKey(prefix)}:lock`)).toBe(0);
  });

  it('should give up waiting for a migration that does not finish', async () => {
    const prefix = fresh();
    await redis.set(`${prefix}v:x`, '1');
    await redis.set(`${layoutKey(prefix)}:lock`, 'someone else', 'PX', 60_000);
    await expect(ensureRedisLayout(redis, prefix, { waitMs: 50, pollMs: 10 })).rejects.toThrow(
      /another worker holds the layout migration lock .* did not finish within 0.05 s/,
    );
  });
});
