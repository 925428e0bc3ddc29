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

const logs = (): { stream: PassThrough; text: () => string } => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
};

describe('startDeployment (switchboard run --deployment)', () => {
  let sandbox: Sandbox;
  let running: RunningDeployment | undefined;
  let config: DeploymentConfig;

  beforeEach(async () => {
    sandbox = createSandbox({ config: workspaceConfig() });
    const { url } = await sandbox.listen();
    config = {
      baseUrl: url,
      port: 0,
      metricsPort: undefined,
      host: '127.0.0.1',
      redisUrl: undefined,
      redisCluster: false,
      redisPrefix: 'switchboard:',
      memory: true,
      workerId: 'test-worker',
      retention: { sendRecordsMs: 86_400_000, idleConversationMs: 86_400_000 },
      logLevel: 'info',
      logFormat: 'json',
      stateDir: undefined,
    };
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await sandbox.close();
  });

  /** Each number's answers (texts the sandbox accepted from it). */
  const answers = (number: string): string[] =>
    sandbox.control
      .sent()
      .filter((s) => s.numberId === number)
      .map((s) => JSON.stringify(s.request));

  const start = async (ids: readonly string[], log = logs(), recheckMs = 200) => {
    const dir = await deploymentDir(ids);
    running = await startDeployment(dir.file, config, {
      env: keysEnv(),
      stdout: new PassThrough(),
      logStream: log.stream,
      watchFile: false,
      unit: { retryBaseMs: 50, recheckMs, leaseMs: 2_000 },
    });
    return dir;
  };

  it('should answer each of three numbers with its own bot, and label logs and metrics with the number', async () => {
    const log = logs();
    await start(['sales', 'support', 'billing'], log);
    await waitUntil(
      () => running?.runner.statuses().every((s) => s.status.state === 'running') ?? false,
      10_000,
    );
    for (const n of NUMBERS.slice(0, 3))
      sandbox.control.injectInbound({
        type: 'text',
        from: '+15551230001',
        number: n.id,
        text: 'hi',
      });
    expect(
      await waitUntil(() => NUMBERS.slice(0, 3).every((n) => answers(n.id).length > 0), 15_000),
    ).toBe(true);
    for (const n of NUMBERS.slice(0, 3)) {
      expect(answers(n.id).join()).toContain(`This is ${n.id}`);
      for (const other of NUMBERS.filter((o) => o.id !== n.id))
        expect(answers(n.id).join()).not.toContain(`This is ${other.id}`);
    }
    const metrics = await (await fetch(`${running?.url ?? ''}/metrics`)).text();
    for (const n of NUMBERS.slice(0, 3)) {
      expect(metrics).toContain(`switchboard_number_up{number="${n.id}",state="running"} 1`);
      expect(metrics).toMatch(
        new RegExp(`switchboard_sends_total\\{[^}]*number="${n.id}"[^}]*\\} 1`),
      );
    }
    expect(metrics.match(/^# TYPE switchboard_sends_total /gm)).toHaveLength(1);
    const lines = log
      .text()
      .split('\n')
      .filter((l) => l.includes('"number"'));
    expect(lines.some((l) => l.includes('"number":"support"'))).toBe(true);
    for (const n of NUMBERS) expect(log.text()).not.toContain(n.key);
    const ready = await fetch(`${running?.url ?? ''}/readyz`);
    expect(ready.status).toBe(200);
  });

  it('should keep two numbers answering while a revoked key is reported and retried on its own', async () => {
    const support = NUMBERS[1]!;
    sandbox.control.updateKey(support.key, { state: 'revoked' });
    const log = logs();
    await start(['sales', 'support', 'billing'], log);
    const state = (id: string) => running?.runner.statuses().find((s) => s.id === id)?.status;
    expect(await waitUntil(() => state('support')?.state === 'failed', 10_000)).toBe(true);
    for (const id of ['sales', 'billing'])
      sandbox.control.injectInbound({ type: 'text', from: '+15551230002', number: id, text: 'hi' });
    expect(
      await waitUntil(() => answers('sales').length > 0 && answers('billing').length > 0, 15_000),
    ).toBe(true);
    expect(answers('support')).toEqual([]);
    const ready = await fetch(`${running?.url ?? ''}/readyz`);
    const body = (await ready.json()) as {
      numbers: Record<string, { state: string; reason?: string }>;
    };
    expect(ready.status).toBe(200);
    expect(body.numbers['support']?.state).toBe('failed');
    expect(body.numbers['support']?.reason).toContain('SUPPORT_API_KEY');
    expect(body.numbers['sales']?.state).toBe('running');
    const metrics = await (await fetch(`${running?.url ?? ''}/metrics`)).text();
    expect(metrics).toContain('switchboard_number_up{number="support",state="failed"} 0');
    expect(log.text()).toContain('number support does not work');
    // The key works again: the number comes back by itself (backoff), and answers.
    sandbox.control.updateKey(support.key, { state: 'active' });
    expect(await waitUntil(() => state('support')?.state === 'running', 10_000)).toBe(true);
    sandbox.control.injectInbound({
      type: 'text',
      from: '+15551230002',
      number: 'support',
      text: 'hi',
    });
    expect(await waitUntil(() => answers('support').length > 0, 15_000)).toBe(true);
  });

  it('should notice a number disconnected mid-run at its next refused call, report it, and bring it back on its own', async () => {
    const log = logs();
    // A recheck far away: what reports the number is its own refused send, not the timer.
    await start(['sales', 'support', 'billing'], log, 600_000);
    const state = (id: string) => running?.runner.statuses().find((s) => s.id === id)?.status;
    expect(await waitUntil(() => state('billing')?.state === 'running', 10_000)).toBe(true);
    sandbox.control.updateNumber('billing', { connected: false });
    for (const id of ['sales', 'billing'])
      sandbox.control.injectInbound({ type: 'text', from: '+15551230003', number: id, text: 'hi' });
    expect(await waitUntil(() => state('billing')?.state === 'failed', 10_000)).toBe(true);
    const failed = state('billing');
    expect(failed?.state === 'failed' ? failed.reason : '').toContain(
      'BILLING_API_KEY is disconnected (409 instance_unavailable)',
    );
    expect(await waitUntil(() => answers('sales').length > 0, 15_000)).toBe(true);
    const ready = await fetch(`${running?.url ?? ''}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { numbers: Record<string, { state: string }> };
    expect(body.numbers['billing']?.state).toBe('failed');
    expect(body.numbers['sales']?.state).toBe('running');
    const metrics = await (await fetch(`${running?.url ?? ''}/metrics`)).text();
    expect(metrics).toContain('switchboard_number_up{number="billing",state="failed"} 0');
    expect(log.text()).toContain('number billing does not work');
    sandbox.control.updateNumber('billing', { connected: true });
    expect(await waitUntil(() => state('billing')?.state === 'running', 10_000)).toBe(true);
    sandbox.control.injectInbound({
      type: 'text',
      from: '+15551230004',
      number: 'billing',
      text: 'hi',
    });
    expect(await waitUntil(() => answers('billing').length > 0, 15_000)).toBe(true);
  });

  it('should add a fourth number on a reload without restarting the other three, and drain a removed one', async () => {
    const dir = await start(['sales', 'support', 'billing']);
    const units = new Map(running?.runner.numbers().map((n) => [n.id, n.unit]));
    await dir.write(['sales', 'support', 'billing', 'extra']);
    await running?.reload();
    expect(running?.runner.numbers().map((n) => n.id)).toEqual([
      'sales',
      'support',
      'billing',
      'extra',
    ]);
    for (const id of ['sales', 'support', 'billing'])
      expect(running?.runner.numbers().find((n) => n.id === id)?.unit).toBe(units.get(id));
    // Messages before a new number's first read are its history (never answered): wait for it.
    const extra = () => running?.runner.statuses().find((n) => n.id === 'extra')?.status.state;
    expect(await waitUntil(() => extra() === 'running', 10_000)).toBe(true);
    sandbox.control.injectInbound({
      type: 'text',
      from: '+15551230001',
      number: 'extra',
      text: 'hi',
    });
    expect(await waitUntil(() => answers('extra').join().includes('This is extra'), 15_000)).toBe(
      true,
    );
    await dir.write(['sales', 'billing', 'extra']);
    await running?.reload();
    expect(running?.runner.numbers().map((n) => n.id)).toEqual(['sales', 'billing', 'extra']);
    expect(running?.runner.numbers().find((n) => n.id === 'sales')?.unit).toBe(units.get('sales'));
  });

  it('should change nothing on a reload of a file with errors, and report them at file:line', async () => {
    const dir = await start(['sales']);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      dir.file,
      'kind: deployment\nnumbers:\n  - id: sales\n    bot: ./sales.yaml\n    workspace: ws_acme\n    apiKeyEnv: sk_live_abcdef0123456789\n    poll: 1s\n',
    );
    const before = running?.runner.numbers()[0]?.unit;
    await running?.reload();
    expect(running?.runner.numbers()[0]?.unit).toBe(before);
  });
});
