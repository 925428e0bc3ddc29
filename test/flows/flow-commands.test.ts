import { describe, expect, it } from 'vitest';
import { runFlowCommand as run } from './flow-cli.js';

describe('flow commands', () => {
  it('should validate the real flows clean with exit code 0', async () => {
    const r = await run(
      'validate',
      'flows/support-desk.yaml',
      'flows/appointment-booking.yaml',
      'flows/order-status.yaml',
      '--handlers',
      'notifyAgents,findSlots,bookSlot,lookupOrder,reportUndeliverable',
    );
    expect(r.out).toBe('3 files checked: 0 errors, 0 warnings\n');
    expect(r.code).toBe(0);
  });

  it('should print diagnostics and exit 1 on errors', async () => {
    const r = await run('validate', 'test/fixtures/flows/broken-lint.yaml');
    expect(r.out).toContain(
      'test/fixtures/flows/broken-lint.yaml:16:11 error states.welcome.menu.options[1].goto: unknown state "agent" [unknown-target]',
    );
    expect(r.out).toMatch(/1 file checked: 11 errors, 0 warnings\n$/);
    expect(r.code).toBe(1);
  });

  it('should print a mermaid graph', async () => {
    const r = await run('graph', 'flows/order-status.yaml', '--format', 'mermaid');
    expect(r.out).toMatch(/^stateDiagram-v2\n/);
    expect(r.out).toContain('anyState --> s_optedOut : send failed contact_opted_out');
  });

  it('should reject an unknown graph format', async () => {
    const r = await run('graph', 'flows/order-status.yaml', '--format', 'dot');
    expect(r.err).toBe('unknown format "dot"; supported: mermaid\n');
    expect(r.code).toBe(1);
  });

  it('should print the JSON Schema', async () => {
    const r = await run('schema');
    const schema: unknown = JSON.parse(r.out);
    expect(schema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['id', 'states']),
    });
  });
});
