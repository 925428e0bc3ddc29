import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { isBotDefinition } from '../bot/define-bot.js';
import { handlerInfo } from '../bot/define-handler.js';
import {
  flowJsonSchema,
  flowToMermaid,
  formatDiagnostic,
  lintFlow,
  loadFlowFile,
  type Diagnostic,
  type FlowDefinition,
  type LintOptions,
} from '../flows/index.js';

/** Where the flow commands write (injectable for tests). */
export interface FlowCommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
}

const defaultIo: FlowCommandIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

/**
 * Adds `validate`, `graph` and `schema` to the `switchboard` command.
 * @example
 * registerFlowCommands(program);
 * // switchboard validate flows/*.yaml --handlers lookupOrder,notifyAgents
 */
export function registerFlowCommands(program: Command, io: FlowCommandIo = defaultIo): Command {
  program
    .command('validate')
    .description(
      'Check flow files: schema, targets, stuck states, content limits, variables, handlers',
    )
    .argument('<files...>', 'flow files (YAML or JSON)')
    .option(
      '--handlers <names>',
      'comma-separated handler names the bot provides (unknown ones are errors)',
    )
    .option(
      '--bot <module>',
      'a bot module (defineBot): its handlers, with the outcomes defineHandler declares, are checked',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard validate flows/*.yaml\n  $ switchboard validate flows/order-status.yaml --handlers lookupOrder,reportFailure\n\nExit code 1 when any file has errors.',
    )
    .action(async (files: string[], opts: { handlers?: string; bot?: string }) => {
      let handlers: LintOptions['handlers'] = opts.handlers
        ?.split(',')
        .map((h) => h.trim())
        .filter((h) => h !== '');
      if (opts.bot !== undefined) {
        const info = await botHandlers(opts.bot);
        if (typeof info === 'string') {
          io.err(`${info}\n`);
          io.setExitCode(1);
          return;
        }
        handlers = info;
      }
      let errors = 0;
      let warnings = 0;
      for (const diagnostics of await validateFiles(files, handlers)) {
        for (const d of diagnostics) {
          if (d.severity === 'error') errors++;
          else warnings++;
          io.out(`${formatDiagnostic(d)}\n`);
        }
      }
      io.out(
        `${files.length} file${files.length === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`,
      );
      io.setExitCode(errors > 0 ? 1 : 0);
    });

  program
    .command('graph')
    .description('Print a diagram of a flow')
    .argument('<flow>', 'a flow file')
    .option('--format <format>', 'diagram format (mermaid)', 'mermaid')
    .addHelpText(
      'after',
      '\nExample:\n  $ switchboard graph flows/support-desk.yaml --format mermaid > support-desk.mmd',
    )
    .action(async (file: string, opts: { format: string }) => {
      if (opts.format !== 'mermaid') {
        io.err(`unknown format "${opts.format}"; supported: mermaid\n`);
        io.setExitCode(1);
        return;
      }
      const r = await loadFlowFile(file);
      if (r.status === 'error') {
        for (const d of r.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
        io.setExitCode(1);
        return;
      }
      io.out(flowToMermaid(r.flow));
    });

  program
    .command('schema')
    .description('Print the JSON Schema of flow files (for yaml-language-server)')
    .addHelpText(
      'after',
      '\nExample:\n  $ switchboard schema > flows/flow.schema.json\n  then start each flow file with: # yaml-language-server: $schema=./flow.schema.json',
    )
    .action(() => {
      io.out(`${JSON.stringify(flowJsonSchema(), null, 2)}\n`);
    });
  return program;
}

/**
 * Validates files together: a `subflow.use` is looked up among the files given, then as
 * `<id>.yaml|.yml|.json` beside the file that uses it (a missing one is an error).
 */
async function validateFiles(
  files: readonly string[],
  handlers: LintOptions['handlers'],
): Promise<Diagnostic[][]> {
  const loaded = await Promise.all(
    files.map(async (file) => ({ file, r: await loadFlowFile(file) })),
  );
  const flows = new Map<string, FlowDefinition>();
  for (const { r } of loaded) if (r.status === 'ok') flows.set(r.flow.id, r.flow);
  for (const { file, r } of loaded) {
    if (r.status !== 'ok') continue;
    for (const s of Object.values(r.flow.states)) {
      const id = s.subflow?.use;
      if (id === undefined || flows.has(id)) continue;
      for (const ext of ['.yaml', '.yml', '.json']) {
        const sibling = join(dirname(file), `${id}${ext}`);
        if (!existsSync(sibling)) continue;
        const other = await loadFlowFile(sibling);
        if (other.status === 'ok' && other.flow.id === id) flows.set(id, other.flow);
        break;
      }
    }
  }
  return loaded.map(({ file, r }) =>
    r.status === 'error'
      ? [...r.diagnostics]
      : lintFlow(r.flow, {
          file,
          positions: r.source.positions,
          flows,
          ...(handlers === undefined ? {} : { handlers }),
        }),
  );
}

/** The handlers of a bot module with their declared outcomes, or why it cannot be read. */
async function botHandlers(path: string): Promise<LintOptions['handlers'] | string> {
  try {
    const mod = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
    const bot = mod['bot'] ?? mod['default'];
    if (!isBotDefinition(bot))
      return `${path}: the module must export \`bot\` made with defineBot({ flows, handlers })`;
    return handlerInfo(bot.handlers);
  } catch (error) {
    return `${path}: cannot load the module: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}
