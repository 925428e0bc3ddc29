import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './cluster.js';
import { trafficThroughFailover, type FailoverCount } from './failover-traffic.js';

/**
 * Failovers mid-traffic, on the private cluster and Sentinel set of `.ci/redis-cluster.sh`
 * with REDIS_HA_OFFSET=10 (cluster 7010-7015, Sentinel data 7110-7111, Sentinels
 * 27110-27112), so the shared set other tests use is never disturbed.
 */
const OFFSET = '10';
const CLUSTER_URL = 'redis+cluster://127.0.0.1:7010,127.0.0.1:7011,127.0.0.1:7012';
const SENTINEL_URL = 'redis+sentinel://127.0.0.1:27110,127.0.0.1:27111,127.0.0.1:27112/mymaster';
const run = promisify(execFile);

/** Starts (or repairs: restarts killed nodes, waits for cluster_state:ok) the private set. */
async function startPrivateSet(): Promise<void> {
  await run('bash', ['.ci/redis-cluster.sh', 'start'], {
    env: { ...process.env, REDIS_HA_OFFSET: OFFSET },
    timeout: 90_000,
  });
}

const admin: Redis[] = [];
function node(port: number): Redis {
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, lazyConnect: true });
  client.on('error', () => undefined);
  admin.push(client);
  return client;
}

async function role(port: number): Promise<string> {
  const r = await node(port)
    .role()
    .catch(() => ['down']);
  return String(r[0]);
}

/** The ports of the replicas of the primary on `primary` (ROLE names each one's primary). */
async function replicasOf(primary: number): Promise<number[]> {
  const found: number[] = [];
  for (let port = 7010; port <= 7015; port++) {
    const r = await node(port)
      .role()
      .catch(() => []);
    if (r[0] === 'slave' && Number(r[2]) === primary) found.push(port);
  }
  return found;
}

/** The cluster's nodes as `port -> role`. */
async function clusterRoles(): Promise<Map<number, string>> {
  const roles = new Map<number, string>();
  for (let port = 7010; port <= 7015; port++) roles.set(port, await role(port));
  return roles;
}

async function clusterOk(): Promise<boolean> {
  for (let port = 7010; port <= 7015; port++) {
    const info = await node(port)
      .cluster('INFO')
      .catch(() => '');
    if (!String(info).includes('cluster_state:ok')) return false;
  }
  return true;
}

function report(name: string, count: FailoverCount): void {
  console.log(
    `${name}: ${count.messages} messages, lost ${count.lost}, doubled ${count.doubled}, ` +
      `failover ${count.failoverMs} ms, /readyz ${JSON.stringify([...count.readyz])}`,
  );
}

/**
 * Opt-in (`npm run test:failover`, SWITCHBOARD_FAILOVER_TESTS=1): on the shared, loaded
 * 2-core machine the two controlled failovers took 70-215 s together and the kill -9 case
 * 100-150 s (conversations wait for each answer; its failover step, with the restart after
 * the promotion and a full resync, 22-52 s at load average ~20), too long and too
 * load-dependent for `npm test` (CI under 15 minutes). Every case runs with the durability mode on: exactly-once depends on it for
 * a SENTINEL FAILOVER, which is not coordinated (the old primary acknowledges writes the
 * failover then drops: 6-7 of 72 answers doubled without WAIT, measured; see
 * docs/scaling.md).
 */
const FAILOVER_TESTS = process.env['SWITCHBOARD_FAILOVER_TESTS'] === '1';
const DURABLE = { REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT: '1s' };

beforeAll(async () => {
  if (FAILOVER_TESTS) await startPrivateSet();
}, 120_000);

afterAll(async () => {
  // Leave the private set whole for the next run: a killed node comes back as a replica.
  if (FAILOVER_TESTS) await startPrivateSet();
  admin.forEach((c) => c.disconnect());
}, 120_000);

describe.skipIf(!FAILOVER_TESTS)(
  'Redis failover mid-traffic, durability mode on (SWITCHBOARD_FAILOVER_TESTS=1)',
  () => {
    it('should lose nothing and answer nothing twice through a CLUSTER FAILOVER', async () => {
      let promoted = 0;
      const count = await trafficThroughFailover({
        redisUrl: CLUSTER_URL,
        env: DURABLE,
        failover: async () => {
          const roles = await clusterRoles();
          promoted = [...roles].find(([, r]) => r === 'slave')![0];
          await node(promoted).cluster('FAILOVER');
          expect(await waitFor(async () => (await role(promoted)) === 'master', 20_000)).toBe(true);
          expect(await waitFor(clusterOk, 20_000)).toBe(true);
        },
      });
      report(`CLUSTER FAILOVER (127.0.0.1:${promoted} promoted)`, count);
      expect({ lost: count.lost, doubled: count.doubled }).toEqual({ lost: 0, doubled: 0 });
    }, 240_000);

    it('should lose nothing and answer nothing twice through a SENTINEL FAILOVER', async () => {
      const sentinel = node(27110);
      const before = await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', 'mymaster');
      const count = await trafficThroughFailover({
        redisUrl: SENTINEL_URL,
        env: DURABLE,
        failover: async () => {
          await sentinel.call('SENTINEL', 'FAILOVER', 'mymaster');
          const moved = await waitFor(async () => {
            const now = await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', 'mymaster');
            return JSON.stringify(now) !== JSON.stringify(before);
          }, 30_000);
          expect(moved).toBe(true);
        },
      });
      report('SENTINEL FAILOVER', count);
      expect({ lost: count.lost, doubled: count.doubled }).toEqual({ lost: 0, doubled: 0 });
    }, 240_000);
  },
);

describe.skipIf(!FAILOVER_TESTS)(
  'Redis primary killed mid-traffic (SWITCHBOARD_FAILOVER_TESTS=1)',
  () => {
    it('should lose nothing and answer nothing twice through a kill -9 of a primary, with REDIS_WAIT_REPLICAS=1, and say not ready meanwhile', async () => {
      let victim = 0;
      const count = await trafficThroughFailover({
        redisUrl: CLUSTER_URL,
        env: DURABLE,
        failover: async () => {
          const roles = await clusterRoles();
          victim = [...roles].find(([, r]) => r === 'master')![0];
          const replicas = await replicasOf(victim);
          expect(replicas.length).toBeGreaterThan(0);
          const info = await node(victim).info('server');
          const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
          expect(pid).toBeGreaterThan(0);
          process.kill(pid, 'SIGKILL');
          // Its replica takes over after the node timeout (3 s) and an election.
          expect(await waitFor(async () => (await role(victim)) === 'down', 10_000)).toBe(true);
          const others = async (): Promise<boolean> => {
            for (let port = 7010; port <= 7015; port++) {
              if (port === victim) continue;
              const info = await node(port)
                .cluster('INFO')
                .catch(() => '');
              if (!String(info).includes('cluster_state:ok')) return false;
            }
            return true;
          };
          // One of its replicas takes over (node timeout, then an election). Only then may
          // it come back: restarted before (empty: no persistence), it would still own its
          // slots and its replica would resynchronise from it, emptying the shard. That is
          // what an early restart did here (4 lost, 8 doubled: a whole shard went back in time).
          const promoted = async (): Promise<boolean> => {
            for (const port of replicas) if ((await role(port)) === 'master') return true;
            return false;
          };
          expect(await waitFor(promoted, 60_000)).toBe(true);
          expect(await waitFor(others, 30_000)).toBe(true);
          // The promoted replica has no replica of its own: WAIT 1 refuses the durable writes
          // of its slots until one is back. Bring the killed node back, as an orchestrator
          // would; it rejoins, empty, as the new primary's replica.
          await startPrivateSet();
        },
      });
      report(`kill -9 of primary 127.0.0.1:${victim} with WAIT 1`, count);
      expect({ lost: count.lost, doubled: count.doubled }).toEqual({ lost: 0, doubled: 0 });
      // The worker said 503 while a primary was gone, and 200 again after.
      expect(count.readyz.get(503) ?? 0).toBeGreaterThan(0);
      expect(count.readyz.get(200) ?? 0).toBeGreaterThan(0);
    }, 420_000);
  },
);
