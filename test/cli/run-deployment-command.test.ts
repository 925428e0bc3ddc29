import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDeploymentConfig } from '../../src/cli/deployment-config.js';
import { runCli } from './cli-process.js';

describe('switchboard run --deployment', () => {
  it('should print every file error at file:line and exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-deploy-cli-'));
    const file = join(dir, 'app.deploy.yaml');
    await writeFile(
      file,
      'kind: deployment\nnumbers:\n  - id: Sales!\n    bot: ./bot.yaml\n    workspace: acme\n    apiKeyEnv: sk_live_abcdef0123456789\n    poll: 2s\n',
    );
    const run = await runCli(['run', file], {
      env: { MESSAGING_API_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:3:9 numbers[0].id: must be 1 to 40 characters`);
    expect(run.stderr).toContain(
      `${file}:6:16 numbers[0].apiKeyEnv: this looks like the API key itself`,
    );
    expect(run.stderr).not.toContain('abcdef0123456789');
  });
});

describe('parseDeploymentConfig', () => {
  const env = { MESSAGING_API_BASE_URL: 'https://api.example.com' };
  it('should take the process-wide settings and refuse per-number flags', () => {
    const ok = parseDeploymentConfig({ port: '0', state: '/var/lib/sb' }, env);
    expect(ok.status === 'ok' && [ok.config.port, ok.config.stateDir]).toEqual([0, '/var/lib/sb']);
    const poll = parseDeploymentConfig({ poll: '2s' }, env);
    expect(poll).toEqual({
      status: 'invalid',
      message: '--poll is per number with --deployment: set it in the deployment file',
    });
    expect(parseDeploymentConfig({}, {}).status).toBe('invalid');
  });
});
