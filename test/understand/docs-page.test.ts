import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, lintFlow, loadFlowFile } from '../../src/flows/index.js';

/** The fenced blocks of a language in a Markdown text. */
function blocks(markdown: string, lang: string): string[] {
  const out: string[] = [];
  const re = new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g');
  for (const m of markdown.matchAll(re)) out.push(m[1] ?? '');
  return out;
}

/** Code lines without comments and blank lines, for comparing a block with a file. */
function code(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\/\*\*|\*)/.test(l) && l.trim() !== '')
    .join('\n');
}

describe('docs/understanding.md', () => {
  it('should have flow blocks that pass switchboard validate with no error or warning', async () => {
    const page = await readFile('docs/understanding.md', 'utf8');
    const yaml = blocks(page, 'yaml');
    expect(yaml.length).toBeGreaterThanOrEqual(2);
    const dir = await mkdtemp(join(tmpdir(), 'sb-docs-'));
    try {
      for (const [i, text] of yaml.entries()) {
        const file = join(dir, `block-${i}.yaml`);
        await writeFile(file, text);
        const loaded = await loadFlowFile(file);
        const found =
          loaded.status === 'error'
            ? loaded.diagnostics
            : lintFlow(loaded.flow, { file, positions: loaded.source.positions });
        expect(found.map(formatDiagnostic)).toEqual([]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should have TypeScript blocks that are code the type checker compiles (the example files)', async () => {
    const page = await readFile('docs/understanding.md', 'utf8');
    const compiled = [
      await readFile('examples/pizza-order/bot.ts', 'utf8'),
      await readFile('examples/pizza-order/scripted.test.ts', 'utf8'),
    ].map(code);
    const ts = blocks(page, 'ts');
    expect(ts.length).toBeGreaterThanOrEqual(2);
    for (const block of ts) expect(compiled.some((file) => file.includes(code(block)))).toBe(true);
  });
});
