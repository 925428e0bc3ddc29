import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { markerOf, type DocBlock } from './doc-blocks.js';

/** A TypeScript error in a block, placed at its line in the Markdown page. */
export interface BlockTypeError {
  readonly at: string;
  readonly message: string;
}

/**
 * Type-checks every TypeScript block in one program. Each block is written to
 * `<dir>/<page>/<name>.ts` (`<!-- file: bot.ts -->` names it, so a block can import the one
 * before it, as the page shows); `<!-- ts-context: … -->` is prepended (declarations the
 * fragment takes as given). `dir` must be inside the repository, so that `switchboard` and
 * `switchboard/testing` resolve to this package: its TypeScript sources, or with `dist` its
 * compiled declarations (faster; only when they are fresh).
 */
export function compileBlocks(
  root: string,
  dir: string,
  blocks: readonly DocBlock[],
  target: 'sources' | 'dist' = 'sources',
): BlockTypeError[] {
  const files = new Map<string, { block: DocBlock; offset: number }>();
  for (const block of blocks) {
    const page = block.file.replace(/[/.]/g, '_');
    const name = markerOf(block, 'file')?.value ?? `block-L${block.line}.ts`;
    const context = markerOf(block, 'ts-context')?.value;
    const prefix = context === undefined ? '' : `${context}\n`;
    const path = join(dir, page, name);
    if (files.has(path))
      throw new Error(`${block.file}:${block.line}: a second block named ${name}`);
    mkdirSync(join(dir, page), { recursive: true });
    writeFileSync(path, `${prefix}${block.code}`);
    files.set(path, { block, offset: prefix === '' ? 0 : prefix.split('\n').length - 1 });
  }
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    // A page shows a declaration without always using it.
    noUnusedLocals: false,
    noUnusedParameters: false,
    // `dist`: the package's declarations (the "types" export condition), as users get them.
    ...(target === 'dist' ? { customConditions: [] } : {}),
  };
  const program = ts.createProgram([...files.keys()], options);
  const errors: BlockTypeError[] = [];
  for (const [path, { block, offset }] of files) {
    const source = program.getSourceFile(path);
    if (source === undefined) throw new Error(`tsc did not load ${relative(root, path)}`);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    for (const d of diagnostics) {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
      const inBlock = line - offset;
      errors.push({
        at: `${block.file}:${inBlock < 0 ? `${block.line} (ts-context)` : block.line + 1 + inBlock}`,
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
      });
    }
  }
  return errors;
}
