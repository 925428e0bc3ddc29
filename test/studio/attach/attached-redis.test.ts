import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEV_BOT } from '../../../src/cli/dev-command.js';
import { openAttachedStore } from '../../../src/studio/attach/attach-store.js';
import {
  startAttachedStudio,
  type AttachedStudio,
} from '../../../src/studio/attach/attached-studio.js';
import { connectRedis } from '../../../src/store/redis-connection.js';
import type { RedisClient } from '../../../src/store/redis-script.js';
import { RedisStore } from '../../../src/store/redis-store.js';
import type { Harness } from '../../engine/harness.js';
import { ADA, GRACE, runSupportDesk } from './attach-fixture.js';

const URL_ = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const prefix = `sb-attach-e2e-${process.pid}:`;
let redis: RedisClient;
let h: Harness;
let studio: AttachedStudio;

/** Every key under the prefix with its type and serialized value. */
const dump = async () => {
  const keys = (await redis.keys(`*${prefix}*`)).sort();
  return Promise.all(keys.map(async (k) => [k, await redis.dump(k)]));
};

beforeAll(async () => {
  redis = await connectRedis(URL_);
  h = await runSupportDesk(() => new RedisStore({ redis: redis.duplicate(), prefix }));
}, 120_000);

afterAll(async () => {
  await studio?.close();
  await h?.close();
  const keys = await redis.keys(`*${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('switchboard studio --attach on Redis', () => {
  it('should show the conversations and timelines, and leave every key as it was', async () => {
    const before = await dump();
    expect(before.length).toBeGreaterThan(0);
    studio = await startAttachedStudio({
      bot: DEFAULT_DEV_BOT,
      store: await openAttachedStore({ kind: 'redis', url: URL_, cluster: false, prefix }),
      access: { host: '127.0.0.1', token: undefined },
      pollMs: 100,
    });
    const state = (await (await fetch(`${studio.url}api/state`)).json()) as {
      attached: { store: string };
      customers: { phone: string }[];
    };
    expect(state.attached.store).toBe(`Redis node of REDIS_URL, prefix ${prefix}`);
    expect(state.customers.map((c) => c.phone).sort()).toEqual([ADA, GRACE]);
    const ada = (await (
      await fetch(`${studio.url}api/customers/${encodeURIComponent(ADA)}`)
    ).json()) as {
      timeline: { kind: string }[];
    };
    expect(ada.timeline.filter((e) => e.kind === 'send').length).toBe(
      h.sandbox.control.sent().filter((s) => s.to === ADA).length,
    );
    const post = await fetch(`${studio.url}api/customers/${encodeURIComponent(ADA)}/takeover`, {
      method: 'POST',
    });
    expect(post.status).toBe(405);
    await studio.poll();
    expect(await dump()).toEqual(before);
  });
});
