import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scaffoldBot, switchboardSpec } from '../../src/cli/init-project.js';
import { runCli } from './cli-process.js';

const ROOT = resolve('.');
let temp: string;

afterEach(async () => {
  if (temp !== undefined) await rm(temp, { recursive: true, force: true });
});

const json = async (path: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

describe('switchboard init', () => {
  it('should scaffold a project whose bot validates and chats', async () => {
    temp = await mkdtemp(join(tmpdir(), 'sb-init-'));
    const dir = join(temp, 'my-bot');
    const r = await runCli(['init', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Created');
    expect(r.stdout).toContain('npm install');
    const pkg = await json(join(dir, 'package.json'));
    expect(pkg).toMatchObject({
      name: 'my-bot',
      type: 'module',
      scripts: { dev: 'switchboard dev .', test: 'vitest run', start: expect.any(String) },
      // No enclosing project: a file: link to this checkout.
      dependencies: { switchboard: `file:${relative(dir, ROOT)}` },
      devDependencies: { vitest: expect.any(String), typescript: expect.any(String) },
    });
    expect(await json(join(dir, 'tsconfig.json'))).toHaveProperty('compilerOptions.strict', true);
    for (const file of ['greeter.yaml', 'bot.ts', 'greeter.test.ts'])
      expect(await readFile(join(dir, file), 'utf8')).toBe(
        await readFile(join('templates/bot', file), 'utf8'),
      );
    expect(await readFile(join(dir, 'greeter.yaml'), 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\/flow\.schema\.json\n/,
    );
    expect(await json(join(dir, 'flow.schema.json'))).toHaveProperty('properties.states');
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toContain('node_modules/');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toMatch(/^# my-bot\n/);

    const lint = await runCli(['validate', join(dir, 'greeter.yaml'), '--handlers', 'luckyNumber']);
    expect(lint.stdout).toBe('1 file checked: 0 errors, 0 warnings\n');
    // What `npm install` gives the project: switchboard in its node_modules.
    await mkdir(join(dir, 'node_modules'));
    await symlink(ROOT, join(dir, 'node_modules', 'switchboard'), 'dir');
    const chat = await runCli(['dev', dir], { stdin: 'hello\nAda\n' });
    expect(chat.stdout).toContain('bot> Nice to meet you, Ada. Your lucky number is 21.\n');
  });

  it('should refuse a directory that is not empty with one line and exit 2', async () => {
    temp = await mkdtemp(join(tmpdir(), 'sb-init-'));
    await writeFile(join(temp, 'keep.txt'), 'x');
    const r = await runCli(['init', temp]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `switchboard init: ${temp} already exists and is not empty; choose a new directory\n`,
    );
    expect(r.stdout).toBe('');
  });

  it('should take the dependency of the enclosing project, its file: path rebased', async () => {
    temp = await mkdtemp(join(tmpdir(), 'sb-init-'));
    const project = join(temp, 'project');
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({
        dependencies: { switchboard: 'file:../switchboard/switchboard-0.1.0.tgz' },
      }),
    );
    expect(await switchboardSpec(join(project, 'my-bot'))).toBe(
      'file:../../switchboard/switchboard-0.1.0.tgz',
    );
    expect(await switchboardSpec(join(project, 'bots', 'my-bot'))).toBe(
      'file:../../../switchboard/switchboard-0.1.0.tgz',
    );
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ devDependencies: { switchboard: 'github:acme/switchboard#v0.1.0' } }),
    );
    expect(await switchboardSpec(join(project, 'my-bot'))).toBe('github:acme/switchboard#v0.1.0');
    const given = await scaffoldBot({ dir: join(project, 'other'), dependency: 'file:/opt/sb' });
    expect(given).toMatchObject({ status: 'created', dependency: 'file:/opt/sb' });
    expect(await json(join(project, 'other', 'package.json'))).toHaveProperty(
      'dependencies.switchboard',
      'file:/opt/sb',
    );
  });
});
