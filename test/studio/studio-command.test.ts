import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { runCli } from '../cli/cli-process.js';
import { waitUntil } from '../wait-until.js';

const PHONE = '+15551230001';

/** Starts `switchboard studio` as a process; resolves with its URL once it prints it. */
function startCli(
  args: readonly string[],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/switchboard.js', 'studio', ...args], {
      cwd: process.cwd(),
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`studio did not print its URL in time:\n${output}`));
    }, 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = /Open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
      if (url !== undefined) {
        clearTimeout(deadline);
        resolve({ child, url, output: () => output });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`studio exited with ${code}:\n${output}`));
    });
  });
}

describe('switchboard studio (command)', () => {
  let running: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (running !== undefined && running.exitCode === null) {
      const exited = new Promise((done) => running?.once('exit', done));
      running.kill('SIGTERM');
      await exited;
    }
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    running = undefined;
    dir = undefined;
  });

  it('should describe itself in --help with examples', () => {
    let help = '';
    const program = buildProgram();
    for (const c of [program, ...program.commands])
      c.exitOverride().configureOutput({
        writeOut: (s) => (help += s),
        writeErr: (s) => (help += s),
      });
    expect(() => program.parse(['node', 'switchboard', 'studio', '--help'])).toThrow();
    expect(help).toContain('Usage: switchboard studio');
    expect(help).toContain('$ npm run studio');
    expect(help).toContain('--port');
  });

  it('should exit with code 2 and one line on a bad port or a bot that cannot load', async () => {
    const port = await runCli(['studio', '--port', 'abc']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be an integer 0..65535 (got "abc")');
    const missing = await runCli(['studio', 'no/such/bot']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no/such/bot: no such file or directory');
  }, 60_000);

  it('should serve the page and its API, never the API key, and reload an edited handler file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'studio-cli-'));
    const defineBotUrl = pathToFileURL(join(process.cwd(), 'src/bot/define-bot.ts')).href;
    // A bot project is an ES module package, as `npm init` + `"type": "module"` makes it.
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(dir, 'flow.yaml'),
      "id: word-bot\nversion: 1\nstart: ask\nstates:\n  ask:\n    call: { handler: word, sets: [word], outcomes: { ok: tell }, onError: tell }\n  tell:\n    say: 'The word is {{word}}.'\n    final: true\n",
    );
    const handler = (word: string): string =>
      `export const word = () => ({ outcome: 'ok', vars: { word: '${word}' } });\n`;
    writeFileSync(join(dir, 'word.ts'), handler('one'));
    writeFileSync(
      join(dir, 'bot.ts'),
      `import { defineBot } from '${defineBotUrl}';\nimport { word } from './word.ts';\nexport const bot = defineBot({ flows: ['./flow.yaml'], handlers: { word } });\n`,
    );
    const cli = await startCli([dir, '--port', '0']);
    running = cli.child;
    const api = async (path: string, body?: unknown): Promise<Record<string, unknown>> => {
      const res = await fetch(`${cli.url}api${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const lastBotText = async (phone: string): Promise<string | undefined> => {
      const detail = await api(`/customers/${encodeURIComponent(phone)}`);
      const messages = detail['messages'] as { kind: string; view?: { text?: string } }[];
      return messages.filter((m) => m.kind === 'outbound').at(-1)?.view?.text;
    };
    await api(`/customers/${encodeURIComponent(PHONE)}/send`, { type: 'text', text: 'hi' });
    expect(
      await waitUntil(async () => (await lastBotText(PHONE)) === 'The word is one.', 30_000),
    ).toBe(true);

    // Everything the page loads, and every API answer: no API key anywhere.
    const page = await (await fetch(cli.url)).text();
    expect(page).toContain('<script type="module" src="/app/app.js">');
    const bodies = [page];
    for (const path of [
      '/app/app.js',
      '/app/phone.js',
      '/vendor/preact.mjs',
      '/vendor/htm-preact.mjs',
    ])
      bodies.push(await (await fetch(`${cli.url}${path.slice(1)}`)).text());
    bodies.push(
      JSON.stringify(await api('/state')),
      JSON.stringify(await api(`/customers/${encodeURIComponent(PHONE)}`)),
    );
    for (const body of bodies) expect(body).not.toContain('sk_sandbox_default_0123456789');
    expect((await fetch(`${cli.url}vendor/mermaid.min.js`)).status).toBe(200);

    writeFileSync(join(dir, 'word.ts'), handler('two'));
    expect(
      await waitUntil(async () => {
        const state = (await api('/state'))['bot'] as { generation: number };
        return state.generation >= 1;
      }, 30_000),
    ).toBe(true);
    await api(`/customers/${encodeURIComponent('+15551230002')}/send`, {
      type: 'text',
      text: 'hi',
    });
    expect(
      await waitUntil(
        async () => (await lastBotText('+15551230002')) === 'The word is two.',
        30_000,
      ),
    ).toBe(true);
  }, 120_000);
});
