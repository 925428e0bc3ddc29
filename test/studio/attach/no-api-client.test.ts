import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Every source file a module loads, statically or with `import()`, transitively. */
function importGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
      const spec = m[1] ?? '';
      if (/^import\s+type\b/m.test(text.slice(Math.max(0, (m.index ?? 0) - 200), m.index)))
        continue;
      visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
    }
  };
  visit(entry);
  return new Set([...seen].map((f) => relative(ROOT, f)));
}

describe('switchboard studio --attach', () => {
  it('should load no API client, no engine, no sandbox (it cannot send)', () => {
    const graph = importGraph(join(ROOT, 'src/cli/studio-attach.ts'));
    expect(graph).toContain('src/studio/attach/attached-studio.ts');
    const forbidden = [...graph].filter(
      (f) =>
        f.startsWith('src/api/client') ||
        f === 'src/engine/create-bot.ts' ||
        f.startsWith('src/sandbox/') ||
        f === 'src/studio/studio-runtime.ts',
    );
    expect(forbidden).toEqual([]);
  });
});
