import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startDeployment,
  type DeploymentConfig,
  type RunningDeployment,
} from '../../src/cli/run-deployment.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { waitUntil } from '../wait-until.js';
import { deploymentDir, keysEnv, NUMBERS, workspaceConfig } from './deployment-fixture.js';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Two workers of one deployment sharing nothing but Redis (their store namespaces, polling
 * leases, workspace budget), as two `switchboard run --deployment` processes would.
 */
describe('two workers of a three-number deployment on Redis', () => {
  let sandbox: Sandbox;
  let workers: RunningDeployment[] = [];
  let config: DeploymentConfig;

  beforeEach(async () => {
    sandbox = createSandbox({ config: workspaceConfig() });
    const { url } = await sandbox.listen();
    config = {
      baseUrl: url,
      port: 0,
      metricsPort: undefined,
      host: '127.0.0.1',
      redisUrl: REDIS_URL,
      redisCluster: false,
      redisPrefix: `sbtest:deploy2w:${randomUUID()}:`,
      memory: false,
      workerId: 'unset',
      retention: { sendRecordsMs: 86_400_000, idleConversationMs: 86_400_000 },
      logLevel: 'silent',
      logFormat: 'json',
      stateDir: undefined,
    };
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    workers = [];
    await sandbox.close();
  });

  /** Texts each number sent to `to`. */
  const answers = (number: string, to: string): string[] =>
    sandbox.control
      .sent()
      .filter((s) => s.numberId === number && s.to === to)
      .map((s) => JSON.stringify(s.request));

  const startTwo = async (ids: readonly string[]) => {
    const dir = await deploymentDir(ids);
    for (const workerId of ['worker-a', 'worker-b'])
      workers.push(
        await startDeployment(
          dir.file,
          { ...config, workerId },
          {
            env: keysEnv(),
            stdout: new PassThrough(),
            logStream: new PassThrough(),
            watchFile: false,
            unit: { retryBaseMs: 50, recheckMs: 200, leaseMs: 2_000 },
          },
        ),
      );
    return dir;
  };
  const state = (w: RunningDeployment, id: string) =>
    w.runner.statuses().find((s) => s.id === id)?.status.state;

  it('should answer each number once with its own bot, keep two answering past a revoked key, and add a fourth on a reload', async () => {
    const dir = await startTwo(['sales', 'support', 'billing']);
    const three = NUMBERS.slice(0, 3);
    expect(
      await waitUntil(
        () => workers.every((w) => three.every((n) => state(w, n.id) === 'running')),
        15_000,
      ),
    ).toBe(true);
    const contacts = ['+15551230001', '+15551230002'];
    for (const n of three)
      for (const from of contacts)
        sandbox.control.injectInbound({ type: 'text', from, number: n.id, text: 'hi' });
    expect(
      await waitUntil(
        () => three.every((n) => contacts.every((c) => answers(n.id, c).length > 0)),
        20_000,
      ),
    ).toBe(true);
    // Both workers poll every number's list, but one leader per number reads it: once each.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const n of three)
      for (const c of contacts) {
        expect(answers(n.id, c), `${n.id} → ${c}`).toHaveLength(1);
        expect(answers(n.id, c)[0]).toContain(`This is ${n.id}`);
      }
    const leaders = three.map((n) =>
      workers.filter((w) =>
        w.runner
          .numbers()
          .find((x) => x.id === n.id)
          ?.unit.isPollLeader(),
      ),
    );
    for (const l of leaders) expect(l).toHaveLength(1);

    // A revoked key: both workers report it; the other two numbers keep answering.
    sandbox.control.updateKey(NUMBERS[1]!.key, { state: 'revoked' });
    expect(
      await waitUntil(() => workers.every((w) => state(w, 'support') === 'failed'), 10_000),
    ).toBe(true);
    const later = '+15551230003';
    for (const n of three)
      sandbox.control.injectInbound({ type: 'text', from: later, number: n.id, text: 'hi' });
    expect(
      await waitUntil(
        () => answers('sales', later).length > 0 && answers('billing', later).length > 0,
        20_000,
      ),
    ).toBe(true);
    expect(answers('support', later)).toEqual([]);
    for (const w of workers) expect((await fetch(`${w.url ?? ''}/readyz`)).status).toBe(200);

    // A fourth number on a reload of both workers.
    await dir.write(['sales', 'support', 'billing', 'extra']);
    await Promise.all(workers.map((w) => w.reload()));
    expect(
      await waitUntil(() => workers.every((w) => state(w, 'extra') === 'running'), 10_000),
    ).toBe(true);
    sandbox.control.injectInbound({ type: 'text', from: later, number: 'extra', text: 'hi' });
    expect(await waitUntil(() => answers('extra', later).length > 0, 20_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(answers('extra', later)).toHaveLength(1);
    expect(answers('extra', later)[0]).toContain('This is extra');
  }, 90_000);
});
