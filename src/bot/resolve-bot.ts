import { isAbsolute, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Handler, SendOptions } from '../engine/types.js';
import type { RunnableFlow } from '../flows/contract.js';
import {
  compileFlow,
  formatDiagnostic,
  lintFlow,
  loadFlowFile,
  type FlowDefinition,
  type PositionLookup,
} from '../flows/index.js';
import { handlerInfo } from './define-handler.js';
import type { BotDefinition, BotFlowSource, SandboxTemplate } from './define-bot.js';
import type { EngineUnderstanding } from '../engine/understand-inbound.js';
import { resolveUnderstanding } from './resolve-understanding.js';

/** A bot whose flows are compiled and ready for `createBot`. */
export interface ResolvedBot {
  readonly flows: readonly RunnableFlow[];
  readonly handlers: Readonly<Record<string, Handler>>;
  readonly entry: string | undefined;
  readonly templates: readonly SandboxTemplate[];
  /** Where it came from (a file, or `(inline)`), for messages. */
  readonly source: string;
  /** The name given to `defineBot`, if any (the studio shows it, else the bot's folder name). */
  readonly name?: string;
  /** Understanding of free text (absent: none; see docs/understanding.md). */
  readonly understanding?: EngineUnderstanding;
  /** The `sends` options given to `defineBot`, if any. */
  readonly sends?: SendOptions;
}

/** Outcome of {@link resolveBot} and `loadBot`. */
export type BotLoadResult =
  | { readonly status: 'ok'; readonly bot: ResolvedBot }
  | { readonly status: 'error'; readonly message: string };

/**
 * Compiles the flows of a bot definition: flow files are read, linted (errors stop
 * here, with `file:line:column`) and compiled; definitions are compiled; compiled flows
 * are kept. Handler names are checked against what the flows call.
 * @example
 * const r = await resolveBot(bot);
 * if (r.status === 'error') console.error(r.message);
 */
export async function resolveBot(
  def: BotDefinition,
  options: {
    dir?: string;
    source?: string;
    /** Refuse flows calling a handler `def` lacks (default true; a reload checks later). */
    checkHandlers?: boolean;
  } = {},
): Promise<BotLoadResult> {
  const dir = def.dir ?? options.dir ?? process.cwd();
  const source = options.source ?? '(inline bot)';
  // Read every flow first: sub-flows are checked against the others, calls against the
  // handlers' declared outcomes.
  const loaded: Loaded[] = [];
  for (const item of def.flows) {
    const r = await loadSource(item, dir);
    if (r.status === 'error') return { status: 'error', message: `${source}: ${r.message}` };
    loaded.push(r);
  }
  const definitions = new Map<string, FlowDefinition>();
  for (const l of loaded) if (l.def !== undefined) definitions.set(l.def.id, l.def);
  const handlers = handlerInfo(def.handlers);
  const flows: RunnableFlow[] = [];
  for (const l of loaded) {
    if (l.compiled !== undefined) {
      flows.push(l.compiled);
      continue;
    }
    if (l.def === undefined) continue;
    const errors = lintFlow(l.def, {
      ...(l.file === undefined ? {} : { file: l.file }),
      ...(l.positions === undefined ? {} : { positions: l.positions }),
      flows: definitions,
      handlers,
    }).filter((d) => d.severity === 'error' && d.rule !== 'unknown-handler');
    if (errors.length > 0)
      return { status: 'error', message: `${source}: ${errors.map(formatDiagnostic).join('\n')}` };
    const r = compileDefinition(l.def, l.file ?? `flow ${l.def.id}`);
    if (r.status === 'error') return { status: 'error', message: `${source}: ${r.message}` };
    flows.push(r.flow);
  }
  const missing = flows.flatMap((f) =>
    f.handlers.filter((h) => def.handlers[h] === undefined).map((h) => `"${h}" (flow ${f.id})`),
  );
  if (missing.length > 0 && options.checkHandlers !== false) {
    return {
      status: 'error',
      message: `${source}: missing handler${missing.length === 1 ? '' : 's'} ${missing.join(', ')}; add ${missing.length === 1 ? 'it' : 'them'} to defineBot({ handlers })`,
    };
  }
  if (def.entry !== undefined && !flows.some((f) => f.id === def.entry)) {
    return {
      status: 'error',
      message: `${source}: entry flow "${def.entry}" is not among the flows (${flows.map((f) => f.id).join(', ')})`,
    };
  }
  const understanding = await resolveUnderstanding(
    { understander: def.understander, understand: def.understand },
    flows,
    dir,
  );
  if (understanding.status === 'error')
    return { status: 'error', message: `${source}: ${understanding.message}` };
  return {
    status: 'ok',
    bot: {
      flows,
      handlers: def.handlers,
      entry: def.entry,
      templates: def.templates,
      source,
      ...(def.name === undefined ? {} : { name: def.name }),
      ...(def.sends === undefined ? {} : { sends: def.sends }),
      ...(understanding.understanding === undefined
        ? {}
        : { understanding: understanding.understanding }),
    },
  };
}

type Compiled =
  | { readonly status: 'ok'; readonly flow: RunnableFlow }
  | { readonly status: 'error'; readonly message: string };

interface Loaded {
  readonly status: 'ok';
  readonly def?: FlowDefinition;
  readonly compiled?: RunnableFlow;
  readonly file?: string;
  readonly positions?: PositionLookup;
}

async function loadSource(
  item: BotFlowSource,
  dir: string,
): Promise<Loaded | { readonly status: 'error'; readonly message: string }> {
  if (typeof item === 'string' || item instanceof URL) {
    const file =
      item instanceof URL ? fileURLToPath(item) : isAbsolute(item) ? item : resolvePath(dir, item);
    const r = await loadFlowFile(file);
    if (r.status === 'error')
      return { status: 'error', message: r.diagnostics.map(formatDiagnostic).join('\n') };
    return { status: 'ok', def: r.flow, file, positions: r.source.positions };
  }
  if ('machine' in item) return { status: 'ok', compiled: item };
  return { status: 'ok', def: item };
}

/** Reads, lints and compiles one flow file; lint errors come back formatted. */
export async function compileFlowFile(file: string): Promise<Compiled> {
  const loaded = await loadFlowFile(file);
  if (loaded.status === 'error')
    return { status: 'error', message: loaded.diagnostics.map(formatDiagnostic).join('\n') };
  const errors = lintFlow(loaded.flow, { file, positions: loaded.source.positions }).filter(
    (d) => d.severity === 'error',
  );
  if (errors.length > 0)
    return { status: 'error', message: errors.map(formatDiagnostic).join('\n') };
  return compileDefinition(loaded.flow, file);
}

function compileDefinition(def: FlowDefinition, where: string): Compiled {
  try {
    return { status: 'ok', flow: compileFlow(def) };
  } catch (error) {
    return {
      status: 'error',
      message: `${where}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
