import { stat } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isBotDefinition } from './define-bot.js';
import { compileFlowFile, resolveBot, type BotLoadResult } from './resolve-bot.js';
import { ensureTypeScriptLoader } from './typescript-loader.js';

const FLOW_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
const MODULE_NAMES = ['bot.ts', 'bot.js', 'bot.mjs', 'index.ts', 'index.js', 'index.mjs'];

/**
 * Loads a bot from a path: a flow file (`.yaml`, `.yml`, `.json`; a bot without
 * handlers), a module exporting `bot` (made with `defineBot`), or a directory holding
 * `bot.ts` / `index.ts`. Relative flow paths in a module resolve against its directory.
 * Never throws for a bad bot: the error names the file and says what is wrong.
 * @example
 * const r = await loadBot('examples/support-desk');
 * if (r.status === 'ok') createBot({ ...r.bot, api });
 */
export async function loadBot(path: string): Promise<BotLoadResult> {
  const absolute = resolve(path);
  const kind = await fileKind(absolute);
  if (kind === 'missing') return { status: 'error', message: `${path}: no such file or directory` };
  if (kind === 'directory') {
    for (const name of MODULE_NAMES) {
      if ((await fileKind(join(absolute, name))) === 'file')
        return loadModule(join(absolute, name), join(path, name));
    }
    return {
      status: 'error',
      message: `${path}: a bot directory needs a bot.ts or index.ts exporting \`bot\``,
    };
  }
  if (FLOW_EXTENSIONS.has(extname(absolute).toLowerCase())) {
    const compiled = await compileFlowFile(absolute);
    if (compiled.status === 'error') return compiled;
    return {
      status: 'ok',
      bot: { flows: [compiled.flow], handlers: {}, entry: undefined, templates: [], source: path },
    };
  }
  return loadModule(absolute, path);
}

async function loadModule(absolute: string, shown: string): Promise<BotLoadResult> {
  let mod: Record<string, unknown>;
  try {
    await ensureTypeScriptLoader(absolute);
    mod = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { status: 'error', message: `${shown}: cannot load the module: ${reason}` };
  }
  // A CommonJS module (a `.ts` file in a package without `"type": "module"`) arrives as
  // `default` = its `module.exports`.
  const fallback = mod['default'];
  const bot =
    mod['bot'] ??
    (typeof fallback === 'object' && fallback !== null && 'bot' in fallback
      ? fallback.bot
      : fallback);
  if (!isBotDefinition(bot)) {
    return {
      status: 'error',
      message: `${shown}: the module must export \`bot\` made with defineBot({ flows, handlers })`,
    };
  }
  return resolveBot(bot, { dir: dirname(absolute), source: shown });
}

async function fileKind(path: string): Promise<'file' | 'directory' | 'missing'> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'directory' : 'file';
  } catch {
    // Any stat failure (ENOENT, EACCES) means we cannot use the path.
    return 'missing';
  }
}
