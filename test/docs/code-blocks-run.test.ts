import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { classify, commandLines, isSwitchboardLine, type BlockCheck } from './block-kinds.js';
import { isDistFresh } from './dist-fresh.js';
import { readDocBlocks, where, type DocBlock } from './doc-blocks.js';

const root = process.cwd();
// The compiled CLI starts in a fraction of tsx's time; used only when dist/ is up to date.
const distFresh = isDistFresh(root);
const { blocks } = readDocBlocks(root);

function blocksOf(kind: BlockCheck['kind']): DocBlock[] {
  return blocks.filter((b) => classify(b).kind === kind);
}

/**
 * Runs a shell block with bash -e (asynchronously: an in-process sandbox must answer it);
 * `switchboard` and `npx switchboard` are this clone's CLI. Rejects with the output.
 */
function runShell(
  code: string,
  options: { env?: Record<string, string>; prelude?: string; cwd?: string } = {},
): Promise<string> {
  const script = [
    `switchboard() { node ${JSON.stringify(join(root, 'bin/switchboard.js'))} "$@"; }`,
    'npx() { if [ "$1" = switchboard ]; then shift; switchboard "$@"; else echo "npx $1: not run here" >&2; return 99; fi; }',
    options.prelude ?? '',
    code,
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', script], {
      cwd: options.cwd ?? root,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        ...(distFresh ? { SWITCHBOARD_DIST: '1' } : {}),
        ...options.env,
      },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 200_000);
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(deadline);
      if (status === 0) resolve(out);
      else reject(new Error(`exit ${status ?? signal}: ${out}`));
    });
  });
}

describe('the shell blocks of README.md and docs/', () => {
  it(
    'should run every shell block made of switchboard commands',
    { timeout: 240_000 },
    async () => {
      for (const b of blocksOf('cli')) {
        await expect(runShell(b.code), where(b)).resolves.toBeTypeOf('string');
      }
    },
  );

  it(
    'should run the tutorial switchboard and cd lines in a fresh directory',
    { timeout: 240_000 },
    async () => {
      // The tutorial as far as it runs without a packed install: `switchboard init my-bot`,
      // `cd my-bot`, `switchboard validate greeter.yaml …` (.ci/pack-check runs all of it).
      const lines = blocksOf('pack-check')
        .flatMap((b) => commandLines(b.code))
        .filter((l) => isSwitchboardLine(l) || /^cd [\w./-]+$/.test(l));
      expect(lines.some((l) => l.includes(' init '))).toBe(true);
      const dir = mkdtempSync(join(tmpdir(), 'sb-docs-tutorial-'));
      try {
        await expect(runShell(lines.join('\n'), { cwd: dir })).resolves.toContain(
          '1 file checked: 0 errors, 0 warnings',
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it(
    'should run the control API examples against a fresh sandbox',
    { timeout: 240_000 },
    async () => {
      const sandbox = createSandbox({});
      const { url } = await sandbox.listen();
      try {
        const key = sandbox.config.keys[0]!.key;
        sandbox.control.injectInbound({ type: 'text', from: '+15551230001', text: 'hi' });
        const sent = await fetch(`${url}/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            to: '+15551230001',
            type: 'text',
            text: { body: 'hello' },
          }),
        });
        const { messageId } = (await sent.json()) as { messageId: string };
        // Every call must succeed: a documented route, body or id that the sandbox refuses fails.
        const strict = [
          'curl() {',
          '  local out code; out=$(mktemp)',
          '  code=$(command curl -sS -o "$out" -w "%{http_code}" "$@") || { rm -f "$out"; return 1; }',
          '  case $code in 2??) rm -f "$out" ;; *) echo "curl $*: HTTP $code $(cat "$out")" >&2; rm -f "$out"; return 1 ;; esac',
          '}',
        ].join('\n');
        for (const b of blocksOf('sandbox-shell')) {
          await expect(
            runShell(b.code.replaceAll('http://127.0.0.1:4010', url), {
              env: { MESSAGE_ID: messageId },
              prelude: strict,
            }),
            where(b),
          ).resolves.toBeTypeOf('string');
        }
      } finally {
        await sandbox.close();
      }
    },
  );
});
