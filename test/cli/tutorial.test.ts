import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

const DIR = 'templates/bot';

describe('README tutorial', () => {
  it('should show exactly the tutorial files that are tested', async () => {
    const doc = await readFile('README.md', 'utf8');
    for (const file of ['greeter.yaml', 'bot.ts', 'greeter.test.ts']) {
      expect(doc).toContain((await readFile(`${DIR}/${file}`, 'utf8')).trimEnd());
    }
  });

  it('should validate the tutorial flow with its handler', async () => {
    const r = await runCli(['validate', `${DIR}/greeter.yaml`, '--handlers', 'luckyNumber']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1 file checked: 0 errors, 0 warnings\n');
  });

  it('should chat with the tutorial bot in switchboard dev', async () => {
    const r = await runCli(['dev', DIR], { stdin: 'hello\nAda\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "you> hello\nbot> Hi! What's your name?\nyou> Ada\nbot> Nice to meet you, Ada. Your lucky number is 21.\n",
    );
  });
});
