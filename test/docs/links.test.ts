import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages } from './doc-blocks.js';

const root = process.cwd();

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings (outside code blocks), repeated ones numbered as GitHub does. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (h === null) continue;
    const base = anchorOf(h[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every `[text](target)` outside code blocks and inline code, with its line. */
function links(text: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return;
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      out.push({ target: m[1] ?? '', line: i + 1 });
    }
  });
  return out;
}

describe('the links between README.md and docs/', () => {
  it('should resolve every relative link and anchor', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of docPages(root)) {
      const text = readFileSync(join(root, page), 'utf8');
      for (const { target, line } of links(text)) {
        if (/^[a-z]+:/.test(target)) continue;
        checked++;
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? page : normalize(join(dirname(page), path));
        if (file.startsWith('..') || !existsSync(join(root, file))) {
          broken.push(`${page}:${line}: ${target} (no ${file})`);
          continue;
        }
        if (anchor === undefined || statSync(join(root, file)).isDirectory()) continue;
        if (!anchors(readFileSync(join(root, file), 'utf8')).has(anchor))
          broken.push(`${page}:${line}: ${target} (no heading #${anchor} in ${file})`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it('should link every docs page from the docs index', () => {
    const index = readFileSync(join(root, 'docs/README.md'), 'utf8');
    const missing = docPages(root)
      .filter((p) => p.startsWith('docs/') && p !== 'docs/README.md')
      .filter((p) => !index.includes(`](${p.slice('docs/'.length)}`));
    expect(missing).toEqual([]);
  });
});
