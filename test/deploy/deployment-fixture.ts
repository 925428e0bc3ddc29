import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxConfigSchema } from '../../src/sandbox/config.js';
import type { SandboxConfig } from '../../src/sandbox/index.js';

/** The numbers of the test workspace: id, phone number, key. */
export const NUMBERS = ['sales', 'support', 'billing', 'extra'].map((id, i) => ({
  id,
  phone: `+1555000000${i + 1}`,
  key: `sk_test_${id}_0123456789abcdef`,
  env: `${id.toUpperCase()}_API_KEY`,
}));

/** A sandbox of one workspace with four numbers, one key each, and three contacts. */
export function workspaceConfig(): SandboxConfig {
  return SandboxConfigSchema.parse({
    workspace: 'ws_acme',
    numbers: NUMBERS.map((n) => ({ id: n.id, phoneNumber: n.phone })),
    keys: NUMBERS.map((n) => ({ key: n.key, number: n.id })),
    contacts: [
      { phoneNumber: '+15551230001', name: 'Ada' },
      { phoneNumber: '+15551230002', name: 'Grace' },
    ],
  });
}

/** The environment holding every number's key (by the names the file uses). */
export function keysEnv(): Record<string, string> {
  return Object.fromEntries(NUMBERS.map((n) => [n.env, n.key]));
}

/**
 * A directory with one bot per number (a flow that says which number answers) and a
 * deployment file listing `ids`; returns the file's path and a function to rewrite it.
 */
export async function deploymentDir(
  ids: readonly string[],
): Promise<{ dir: string; file: string; write: (ids: readonly string[]) => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-deploy-'));
  for (const n of NUMBERS) {
    await writeFile(
      join(dir, `${n.id}.yaml`),
      [
        `id: hello-${n.id}`,
        'version: 1',
        'start: hello',
        'states:',
        '  hello:',
        `    say: This is ${n.id}`,
        '    final: true',
        '',
      ].join('\n'),
    );
  }
  const file = join(dir, 'switchboard.deploy.yaml');
  const write = async (list: readonly string[]): Promise<void> => {
    const lines = ['kind: deployment', 'numbers:'];
    for (const id of list) {
      const n = NUMBERS.find((x) => x.id === id);
      if (n === undefined) throw new Error(`unknown number ${id}`);
      lines.push(
        `  - id: ${n.id}`,
        `    bot: ./${n.id}.yaml`,
        '    workspace: ws_acme',
        `    apiKeyEnv: ${n.env}`,
        '    poll: 100ms',
      );
    }
    await writeFile(file, `${lines.join('\n')}\n`);
  };
  await write(ids);
  return { dir, file, write };
}
