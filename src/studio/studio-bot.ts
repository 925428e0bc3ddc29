import { stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBotDefinition, type BotDefinition } from '../bot/define-bot.js';
import { compileFlowFile, resolveBot, type ResolvedBot } from '../bot/resolve-bot.js';
import { resolveUnderstanding } from '../bot/resolve-understanding.js';
import { UnderstandSettingsSchema } from '../understand/setup.js';
import type { RunnableFlow } from '../flows/contract.js';
import {
  flowToMermaid,
  mermaidStateId,
  formatDiagnostic,
  lintFlow,
  loadFlowFile,
  type FlowDefinition,
} from '../flows/index.js';
import { importFresh } from './fresh-import.js';

/** One flow of the studio's bot, with what the flow panel draws. */
export interface StudioFlow {
  readonly id: string;
  readonly version: number;
  /** The flow file, when the flow comes from one. */
  readonly file: string | undefined;
  /** The definition (undefined for a hand-written machine: no diagram). */
  readonly definition: FlowDefinition | undefined;
  /** Lint warnings of the flow file (`file:line:col warning …`). */
  readonly warnings: readonly string[];
}

/** A bot loaded by the studio: the compiled bot, its flows' sources, and the files to watch. */
export interface StudioBot {
  readonly resolved: ResolvedBot;
  /** What the studio calls the bot: `defineBot`'s `name`, else its folder's (or flow file's) name. */
  readonly name: string;
  readonly flows: readonly StudioFlow[];
  /** Files whose change reloads the bot (flow files, the bot module and its folder's sources). */
  readonly files: readonly string[];
}

/** Folders whose source files (handlers next to the bot module) also reload the bot. */
export function sourceDirsOf(files: readonly string[]): string[] {
  return [...new Set(files.filter((f) => !FLOW_EXTENSIONS.has(extname(f))).map((f) => dirname(f)))];
}

/** Outcome of {@link loadStudioBot}; an error says what is wrong and where (file:line). */
export type StudioBotResult =
  | { readonly status: 'ok'; readonly bot: StudioBot }
  | { readonly status: 'error'; readonly message: string; readonly files: readonly string[] };

const FLOW_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
const MODULE_NAMES = ['bot.ts', 'bot.js', 'bot.mjs', 'index.ts', 'index.js', 'index.mjs'];

/**
 * Loads a bot as `loadBot` does (a flow file, a module exporting `bot`, or a directory
 * with `bot.ts` / `index.ts`), but fresh every time: a module is imported again with its
 * own imports (handlers edited since are seen), so the studio can reload it.
 */
export async function loadStudioBot(path: string): Promise<StudioBotResult> {
  const absolute = resolve(path);
  let target = absolute;
  if ((await kind(absolute)) === 'directory') {
    const found = await firstFile(MODULE_NAMES.map((n) => join(absolute, n)));
    if (found === undefined)
      return error(`${path}: a bot directory needs a bot.ts or index.ts exporting \`bot\``, []);
    target = found;
  } else if ((await kind(absolute)) === 'missing') {
    return error(`${path}: no such file or directory`, []);
  }
  if (FLOW_EXTENSIONS.has(extname(target).toLowerCase())) {
    const compiled = await compileFlowFile(target);
    if (compiled.status === 'error') return error(compiled.message, [target]);
    // A lone flow file with intents understands with the default understander.
    const understanding = await resolveUnderstanding({}, [compiled.flow], dirname(target));
    if (understanding.status === 'error') return error(understanding.message, [target]);
    const resolved: ResolvedBot = {
      flows: [compiled.flow],
      handlers: {},
      entry: undefined,
      templates: [],
      source: path,
      ...(understanding.understanding === undefined
        ? {}
        : { understanding: understanding.understanding }),
    };
    return {
      status: 'ok',
      bot: {
        resolved,
        name: nameOf(target),
        flows: [await describeFile(target, compiled.flow)],
        files: [target],
      },
    };
  }
  return loadModule(target, path);
}

async function loadModule(file: string, shown: string): Promise<StudioBotResult> {
  const watched = [file];
  let mod: Record<string, unknown>;
  try {
    mod = (await importFresh(file)) as Record<string, unknown>;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    return error(`${shown}: cannot load the module: ${reason}`, watched);
  }
  const def = mod['bot'] ?? mod['default'];
  if (!isBotDefinition(def))
    return error(
      `${shown}: the module must export \`bot\` made with defineBot({ flows, handlers })`,
      watched,
    );
  const dir = def.dir ?? dirname(file);
  const flowFiles = flowFilesOf(def, dir);
  // Knowledge files too: an edit re-indexes them (the understander is built anew).
  watched.push(...flowFiles, ...knowledgeFilesOf(def, dir));
  const result = await resolveBot(def, { dir, source: shown });
  if (result.status === 'error') return error(result.message, watched);
  const flows: StudioFlow[] = [];
  for (const [i, flow] of result.bot.flows.entries()) {
    const item = def.flows[i];
    if (typeof item === 'string' || item instanceof URL)
      flows.push(await describeFile(fileOf(item, dir), flow));
    else if (item !== undefined && !('machine' in item))
      flows.push({
        id: flow.id,
        version: flow.version,
        file: undefined,
        definition: item,
        warnings: [],
      });
    else
      flows.push({
        id: flow.id,
        version: flow.version,
        file: undefined,
        definition: undefined,
        warnings: [],
      });
  }
  return {
    status: 'ok',
    bot: { resolved: result.bot, name: result.bot.name ?? nameOf(file), flows, files: watched },
  };
}

/**
 * The name of a bot found at `file`: its folder's for a `bot.*` or `index.*` module, else
 * the file's own name without its extension (a flow file, a module named after the bot).
 */
export function nameOf(file: string): string {
  const stem = basename(file, extname(file));
  return stem === 'bot' || stem === 'index' ? basename(dirname(file)) : stem;
}

async function describeFile(file: string, flow: RunnableFlow): Promise<StudioFlow> {
  const loaded = await loadFlowFile(file);
  if (loaded.status === 'error')
    return { id: flow.id, version: flow.version, file, definition: undefined, warnings: [] };
  const warnings = lintFlow(loaded.flow, { file, positions: loaded.source.positions })
    .filter((d) => d.severity === 'warning')
    .map(formatDiagnostic);
  return { id: flow.id, version: flow.version, file, definition: loaded.flow, warnings };
}

/**
 * The Mermaid diagram of a studio flow (undefined without a definition): `flowToMermaid`
 * with each state's name as the title of its box, above what the state does.
 */
export function studioDiagram(flow: StudioFlow): string | undefined {
  if (flow.definition === undefined) return undefined;
  const names = new Map(
    Object.keys(flow.definition.states).map((name) => [mermaidStateId(name), name]),
  );
  const titled = new Set<string>();
  return flowToMermaid(flow.definition)
    .split('\n')
    .flatMap((line) => {
      const m = /^(\s+)([A-Za-z0-9_]+) : /.exec(line);
      const name = m === null ? undefined : names.get(m[2] ?? '');
      if (m === null || name === undefined || titled.has(name)) return [line];
      titled.add(name);
      return [`${m[1] ?? ''}${m[2] ?? ''} : ${name.replace(/[:;#{}]/g, ' ')}`, line];
    })
    .join('\n');
}

function flowFilesOf(def: BotDefinition, dir: string): string[] {
  return def.flows
    .filter((f): f is string | URL => typeof f === 'string' || f instanceof URL)
    .map((f) => fileOf(f, dir));
}

function knowledgeFilesOf(def: BotDefinition, dir: string): string[] {
  const settings = UnderstandSettingsSchema.safeParse(def.understand ?? {});
  return settings.success ? (settings.data.knowledge ?? []).map((f) => fileOf(f, dir)) : [];
}

function fileOf(item: string | URL, dir: string): string {
  return item instanceof URL ? fileURLToPath(item) : isAbsolute(item) ? item : resolve(dir, item);
}

function error(message: string, files: readonly string[]): StudioBotResult {
  return { status: 'error', message, files };
}

async function kind(path: string): Promise<'file' | 'directory' | 'missing'> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'file';
  } catch {
    // Any stat failure (ENOENT, EACCES) means the path cannot be used.
    return 'missing';
  }
}

async function firstFile(paths: readonly string[]): Promise<string | undefined> {
  for (const p of paths) if ((await kind(p)) === 'file') return p;
  return undefined;
}
