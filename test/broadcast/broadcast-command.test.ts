import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';

const env = {
  MESSAGING_API_BASE_URL: 'http://127.0.0.1:9',
  MESSAGING_API_KEY: 'sk_test_key_0123456789',
};

function csv(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'broadcast-cli-')), 'contacts.csv');
  writeFileSync(file, text);
  return file;
}

describe('switchboard broadcast (process)', () => {
  it('should exit 2 with one line when the configuration is missing', async () => {
    const run = await runCli([
      'broadcast',
      '--template',
      'welcome',
      '--language',
      'en_US',
      '--to',
      csv('phone\n'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'switchboard broadcast: MESSAGING_API_BASE_URL is not set; set it to the API base URL, e.g. https://api.example.com',
    );
  });

  it('should exit 2 naming the file and line when there is no phone column', async () => {
    const file = csv('name\nAda\n');
    const run = await runCli(['broadcast', '--template', 'w', '--language', 'en', '--to', file], {
      env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: the header has no "phone" column (found: name)`);
  });

  it('should check a list on --dry-run without credentials or sends', async () => {
    const file = csv('phone,name\n+15551230001,Ada\n+1555,Bob\n');
    const run = await runCli([
      'broadcast',
      '--template',
      'greet',
      '--language',
      'en',
      '--to',
      file,
      '--params',
      'name',
      '--dry-run',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'dry run: 1 contacts would get template greet (en); 1 bad rows skipped',
    );
    expect(run.stderr).toContain(`${file}:3: phone "+1555" is not E.164`);
  });
});
