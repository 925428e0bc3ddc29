import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import { runCli } from '../../cli/cli-process.js';
import { fingerprint } from './attach-fixture.js';

const TOKEN = 'cli-studio-token-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'sb-attach-cli-'));
const path = join(dir, 'state.db');
let child: ChildProcess | undefined;
afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((done) => child?.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('switchboard studio --attach (command)', () => {
  it('should refuse to start exposed without a token, and say what to fix', async () => {
    const open = await runCli(['studio', '--attach', '--host', '0.0.0.0']);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain(
      'switchboard studio --attach: --host 0.0.0.0 lets other machines reach the studio: it needs a token; pass --token <secret> or set STUDIO_TOKEN',
    );
    const short = await runCli(['studio', '--attach'], { env: { STUDIO_TOKEN: 'short' } });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain(
      'the studio token (STUDIO_TOKEN) must be at least 16 characters',
    );
    const missing = await runCli(['studio', '--attach', '--state', join(dir, 'none.db')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${join(dir, 'none.db')}: no such state file`);
    const sandbox = await runCli(['studio', '--host', '0.0.0.0']);
    expect(sandbox.code).toBe(2);
    expect(sandbox.stderr).toContain('switchboard studio: --host applies to --attach only');
  }, 120_000);

  it('should attach to STATE_PATH, never print the token, and refuse requests without it', async () => {
    const store = new SqliteStore({ path, backgroundCheckpoints: false });
    await store.close();
    const before = fingerprint(path);
    let output = '';
    child = spawn(
      process.execPath,
      ['bin/switchboard.js', 'studio', 'examples/support-desk', '--attach', '--port', '0'],
      {
        cwd: process.cwd(),
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: process.env['HOME'] ?? '',
          STATE_PATH: path,
          STUDIO_TOKEN: TOKEN,
          LOG_LEVEL: 'debug',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer): void => {
        output += chunk.toString();
        const found = /Open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
        if (found !== undefined) resolve(found);
      };
      child?.stdout?.on('data', read);
      child?.stderr?.on('data', read);
      child?.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
    expect(output).toContain(`switchboard studio --attach: SQLite state file ${path} (read-only`);
    expect(output).toContain(`Open ${url}?token=<your token> in your browser.`);
    expect((await fetch(`${url}api/state`)).status).toBe(401);
    const ok = await fetch(`${url}api/state`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    const exited = new Promise((done) => child?.once('exit', done));
    child.kill('SIGTERM');
    await exited;
    expect(output).not.toContain(TOKEN);
    expect(fingerprint(path)).toBe(before);
  }, 120_000);
});
