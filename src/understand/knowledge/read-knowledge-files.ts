/**
 * Reads a bot's knowledge files from disk: each entry of `knowledge:` is a Markdown file,
 * a directory (every `.md`/`.markdown` file under it) or a glob (`faq/*.md`,
 * `docs/**\/*.md`), relative to the bot's folder.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { KnowledgeFile } from './knowledge-base.js';

const MARKDOWN = /\.(?:md|markdown)$/i;

function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === '*' && glob[i + 1] === '*') {
      out += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else out += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(path)));
    else if (e.isFile()) out.push(path);
  }
  return out;
}

/**
 * The Markdown files named by `entries` under `root`, with paths relative to `root`
 * (forward slashes), sorted, each once. Throws naming the entry that matches nothing.
 * @example
 * const files = await readKnowledgeFiles('bots/pizza', ['knowledge/']);
 * const kb = loadKnowledge(files);
 */
export async function readKnowledgeFiles(
  root: string,
  entries: readonly string[],
): Promise<KnowledgeFile[]> {
  const found = new Set<string>();
  for (const entry of entries) {
    const before = found.size;
    if (/[*?]/.test(entry)) {
      const base = entry.slice(0, entry.search(/[*?]/)).replace(/[^/]*$/, '');
      const pattern = globToRegExp(entry.replace(/^\.\//, ''));
      const dir = resolve(root, base || '.');
      const files = await walk(dir).catch(() => []);
      for (const f of files) {
        const rel = relative(root, f).split(sep).join('/');
        if (pattern.test(rel) && MARKDOWN.test(rel)) found.add(rel);
      }
    } else {
      const path = resolve(root, entry);
      const info = await stat(path).catch(() => undefined);
      if (info?.isDirectory() === true) {
        for (const f of await walk(path))
          if (MARKDOWN.test(f)) found.add(relative(root, f).split(sep).join('/'));
      } else if (info?.isFile() === true) found.add(relative(root, path).split(sep).join('/'));
    }
    if (found.size === before) {
      throw new Error(`knowledge entry "${entry}" matches no Markdown file under ${root}`);
    }
  }
  const paths = [...found].sort();
  return Promise.all(
    paths.map(async (path) => ({ path, content: await readFile(join(root, path), 'utf8') })),
  );
}
