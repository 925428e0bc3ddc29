import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

describe('switchboard dev (scripted over stdin)', () => {
  it('should chat with the support desk, take over, release, advance the clock and exit on EOF', async () => {
    const script = [
      'hi',
      '2',
      '/state',
      '/takeover',
      'anyone?',
      '/release',
      'menu',
      '1',
      '2',
      '/advance 31m',
      '/state',
    ].join('\n');
    const r = await runCli(['dev'], { stdin: `${script}\n` });
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain('You are Ada Lovelace (+15551230001)');
    // Text in, rendered buttons out.
    expect(out).toMatch(
      /you> hi\nbot> Hi Ada Lovelace! I'm the support desk assistant\.\nbot> How can I help you today\?\n {5}_Type "menu" at any time_\n {7}\[1\] Common questions\n {7}\[2\] Talk to a person\n {7}\[3\] Nothing, thanks\n/,
    );
    // A number picks the button.
    expect(out).toContain(
      'you> 2\n  (you tapped "Talk to a person")\nbot> OK, I\'m asking a teammate to join.',
    );
    expect(out).toMatch(/state handoff/);
    // While a person owns the chat, the bot stays quiet; on release it resumes.
    expect(out).toMatch(
      /you> anyone\?\nyou> \/release\n {2}\(released to the API; the bot resumes\)\nbot> I'm back\. Thanks for your patience!/,
    );
    // A list is rendered with numbered rows and descriptions.
    expect(out).toMatch(
      /\(list "Questions"\)\n {7}\[1\] Opening hours\n {7}\[2\] Shipping times - How long delivery takes/,
    );
    expect(out).toContain('bot> Orders ship within 1 business day');
    // The clock moves and the state's timer fires.
    expect(out).toMatch(
      /\(clock advanced by 31m; now [^)]+\)\n(bot> .*\n)*bot> I'll close this chat for now\./,
    );
    expect(out).toMatch(/you> \/state\n {2}flow support-desk@1 {2}state idleGoodbye \(ended\)\n/);
    expect(out.trimEnd().endsWith('bye')).toBe(true);
  });
});

describe('switchboard dev: take-over commands', () => {
  it('should say there is nothing to release without a take-over, and not take over twice', async () => {
    const script = ['hi', '/release', '/takeover', '/takeover', '/release'].join('\n');
    const r = await runCli(['dev'], { stdin: `${script}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'you> /release\n  (nobody has taken the conversation over, so there is nothing to release; /takeover first)\n',
    );
    expect(r.stdout).toContain(
      'you> /takeover\n  (a person already owns the conversation; /release gives it back to the bot)\n',
    );
    expect(r.stdout).toContain('you> /release\n  (released to the API; the bot resumes)\n');
  });
});

describe('npm start (the README front door)', () => {
  it('should open the demo chat and answer a scripted session', async () => {
    const { spawn } = await import('node:child_process');
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn('npm', ['start', '--silent'], {
        cwd: process.cwd(),
        env: { ...process.env, npm_config_update_notifier: 'false' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(deadline);
        resolve({ code, stdout });
      });
      child.stdin.end('hi\n3\n');
    });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('switchboard dev: examples/support-desk');
    expect(out.stdout).toContain("bot> Hi Ada Lovelace! I'm the support desk assistant.");
    expect(out.stdout).toContain('you> 3\n  (you tapped "Nothing, thanks")');
  });
});
