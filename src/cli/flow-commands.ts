import type { Command } from 'commander';
import {
  flowJsonSchema,
  flowToMermaid,
  formatDiagnostic,
  lintFlow,
  loadFlowFile,
  type Diagnostic,
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
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard validate flows/*.yaml\n  $ switchboard validate flows/order-status.yaml --handlers lookupOrder,reportFailure\n\nExit code 1 when any file has errors.',
    )
    .action(async (files: string[], opts: { handlers?: string }) => {
      const handlers = opts.handlers
        ?.split(',')
        .map((h) => h.trim())
        .filter((h) => h !== '');
      let errors = 0;
      let warnings = 0;
      for (const file of files) {
        const diagnostics = await validateFile(file, handlers);
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

async function validateFile(
  file: string,
  handlers: readonly string[] | undefined,
): Promise<Diagnostic[]> {
  const r = await loadFlowFile(file);
  if (r.status === 'error') return [...r.diagnostics];
  return lintFlow(r.flow, {
    file,
    positions: r.source.positions,
    ...(handlers === undefined ? {} : { handlers }),
  });
}
