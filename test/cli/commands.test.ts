import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

describe('switchboard (process)', () => {
  it('should print one line and exit 2 when run has no configuration', async () => {
    const r = await runCli(['run', 'examples/support-desk', '--poll', '2s']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'switchboard run: MESSAGING_API_BASE_URL is not set; set it to the API base URL, e.g. https://api.example.com\n',
    );
    expect(r.stdout).toBe('');
  });

  it('should print one line and exit 2 when the bot cannot be loaded', async () => {
    const r = await runCli(['run', 'nope/bot.ts', '--poll', '2s'], {
      env: { MESSAGING_API_BASE_URL: 'http://127.0.0.1:9', MESSAGING_API_KEY: 'sk_test_123456789' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('switchboard run: nope/bot.ts: no such file or directory\n');
  });

  it('should exit 0 from validate on good flows and 1 on a broken one', async () => {
    const good = await runCli([
      'validate',
      'flows/support-desk.yaml',
      'flows/order-status.yaml',
      'flows/appointment-booking.yaml',
    ]);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/3 files checked: 0 errors/);
    const bad = await runCli(['validate', 'test/fixtures/flows/broken-lint.yaml']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/broken-lint\.yaml:\d+:\d+ error/);
  });

  it('should print the flow JSON Schema and a mermaid graph', async () => {
    const schema = await runCli(['schema']);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)).toHaveProperty('properties.states');
    const graph = await runCli(['graph', 'flows/support-desk.yaml']);
    expect(graph.code).toBe(0);
    expect(graph.stdout).toMatch(/^(stateDiagram|flowchart|graph)/m);
    expect(graph.stdout).toContain('handoff');
  });
});
