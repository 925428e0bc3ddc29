import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { flowJsonSchema } from '../flows/flow-json-schema.js';

/** The root of the running switchboard package (a checkout or an installed copy). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Files copied from `templates/bot/` (the names they get in the new project). */
const TEMPLATE_FILES = [
  ['greeter.yaml', 'greeter.yaml'],
  ['bot.ts', 'bot.ts'],
  ['greeter.test.ts', 'greeter.test.ts'],
  ['README.md', 'README.md'],
  // npm never packs a file named .gitignore: the template has another name.
  ['gitignore', '.gitignore'],
] as const;

const PackageJson = z.looseObject({
  version: z.string().optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  devDependencies: z.record(z.string(), z.string()).optional(),
});
type PackageJson = z.infer<typeof PackageJson>;

/** Options of {@link scaffoldBot}. */
export interface ScaffoldOptions {
  /** The directory to create (must not exist, or be empty). */
  readonly dir: string;
  /** The `switchboard` dependency spec; default: see {@link switchboardSpec}. */
  readonly dependency?: string;
}

/** What {@link scaffoldBot} did, or why it did nothing. */
export type ScaffoldResult =
  | {
      readonly status: 'created';
      readonly dir: string;
      readonly files: readonly string[];
      readonly dependency: string;
    }
  | { readonly status: 'refused'; readonly message: string };

/**
 * Creates a bot project: package.json (scripts `dev`, `test`, `start`, `typecheck`),
 * tsconfig.json, a flow with its schema comment and `flow.schema.json`, a handler, a
 * passing test and a README. `npm install && npm test` passes right after.
 * @example
 * const r = await scaffoldBot({ dir: 'my-bot' });
 */
export async function scaffoldBot(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const dir = resolve(options.dir);
  const existing = await readdir(dir).catch(() => undefined);
  if (existing !== undefined && existing.length > 0)
    return {
      status: 'refused',
      message: `${options.dir} already exists and is not empty; choose a new directory`,
    };
  const own = PackageJson.parse(
    JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8')),
  );
  const dependency = options.dependency ?? (await switchboardSpec(dir));
  const name = packageName(basename(dir));
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const write = async (file: string, text: string): Promise<void> => {
    await writeFile(join(dir, file), text);
    files.push(file);
  };
  await write(
    'package.json',
    `${JSON.stringify(projectPackage(name, dependency, own), null, 2)}\n`,
  );
  await write('tsconfig.json', `${JSON.stringify(PROJECT_TSCONFIG, null, 2)}\n`);
  for (const [from, to] of TEMPLATE_FILES) {
    const text = await readFile(join(PACKAGE_ROOT, 'templates', 'bot', from), 'utf8');
    // Only the README names the project (the flow's own {{name}} is a flow variable).
    await write(to, from === 'README.md' ? text.replaceAll('{{project}}', name) : text);
  }
  await write('flow.schema.json', `${JSON.stringify(flowJsonSchema(), null, 2)}\n`);
  return { status: 'created', dir, files, dependency };
}

const PROJECT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['**/*.ts'],
  exclude: ['node_modules'],
};

function projectPackage(name: string, dependency: string, own: PackageJson): object {
  const dev = (pkg: string, fallback: string): string =>
    own.devDependencies?.[pkg] ?? own.dependencies?.[pkg] ?? fallback;
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      dev: 'switchboard dev .',
      test: 'vitest run',
      start: 'switchboard run . --poll 2s',
      typecheck: 'tsc',
      validate: 'switchboard validate *.yaml --handlers luckyNumber',
    },
    dependencies: { switchboard: dependency },
    devDependencies: {
      '@types/node': dev('@types/node', '^20.19.0'),
      typescript: dev('typescript', '~6.0'),
      vitest: dev('vitest', '^4.1.0'),
    },
  };
}

/**
 * The `switchboard` dependency of a new project in `dir`: the spec of the enclosing
 * project (its `file:` path rebased onto `dir`), else a `file:` link to this package's
 * own directory (a clone, or the copy installed in node_modules). switchboard is not on
 * the npm registry, where the name belongs to another package.
 */
export async function switchboardSpec(dir: string): Promise<string> {
  for (let at = dirname(dir); ; at = dirname(at)) {
    const text = await readFile(join(at, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined) {
      const parsed = PackageJson.safeParse(JSON.parse(text));
      const spec = parsed.success
        ? (parsed.data.dependencies?.['switchboard'] ??
          parsed.data.devDependencies?.['switchboard'])
        : undefined;
      if (spec === undefined) break;
      if (!spec.startsWith('file:')) return spec;
      const target = spec.slice('file:'.length);
      return fileSpec(dir, isAbsolute(target) ? target : resolve(at, target));
    }
    if (dirname(at) === at) break;
  }
  return fileSpec(dir, await realpath(PACKAGE_ROOT));
}

function fileSpec(from: string, to: string): string {
  const path = relative(from, to).split(sep).join('/');
  return `file:${path === '' ? '.' : path}`;
}

/** An npm package name from a directory name: lowercase, `[a-z0-9._-]`, not empty. */
function packageName(dir: string): string {
  const name = dir
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name === '' ? 'my-bot' : name;
}
