import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A marker: an HTML comment on its own line right before a fenced block (blank lines
 * between are allowed), `<!-- kind: value -->`. Readers of the Markdown source see it.
 */
export interface BlockMarker {
  readonly kind: string;
  readonly value: string;
  readonly line: number;
}

/** One fenced code block of a Markdown page. */
export interface DocBlock {
  /** Page path relative to the repository root, e.g. `docs/flows.md`. */
  readonly file: string;
  /** Line of the opening fence (1-based). */
  readonly line: number;
  /** The info string's first word, lower case (`''` when the fence has none). */
  readonly lang: string;
  readonly code: string;
  readonly markers: readonly BlockMarker[];
  /** The nearest heading above the block (`## Name` → `Name`; `''` before any). */
  readonly section: string;
}

/** A marker that precedes no code block (a typo or a block moved away). */
export interface DanglingMarker {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

const MARKER = /^<!--\s*([a-z][a-z-]*):\s*([\s\S]*?)\s*-->$/;
const FENCE = /^(`{3,})\s*([^\s`]*)/;

/** The Markdown pages whose code blocks the suite checks: README.md and docs/ (not docs/api). */
export function docPages(root: string): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (path !== 'docs/api') walk(path);
      } else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages.sort();
}

/**
 * Splits a page into its fenced blocks with their markers; markers that are not followed
 * by a block are returned as dangling.
 * @example
 * const { blocks } = parseBlocks('docs/flows.md', text);
 */
export function parseBlocks(
  file: string,
  text: string,
): { blocks: DocBlock[]; dangling: DanglingMarker[] } {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  const dangling: DanglingMarker[] = [];
  let pending: BlockMarker[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line.trimStart());
    if (fence !== null) {
      const ticks = fence[1] ?? '```';
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && !(lines[j] ?? '').trimStart().startsWith(ticks)) {
        body.push(lines[j] ?? '');
        j++;
      }
      const indent = line.length - line.trimStart().length;
      blocks.push({
        file,
        line: i + 1,
        lang: (fence[2] ?? '').toLowerCase(),
        code: `${body.map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n')}\n`,
        markers: pending,
        section,
      });
      pending = [];
      i = j;
      continue;
    }
    const marker = MARKER.exec(line.trim());
    if (marker !== null) {
      pending.push({ kind: marker[1] ?? '', value: marker[2] ?? '', line: i + 1 });
      continue;
    }
    if (line.trim() === '') continue;
    for (const m of pending) dangling.push({ file, line: m.line, text: `${m.kind}: ${m.value}` });
    pending = [];
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading !== null) section = heading[1] ?? '';
  }
  for (const m of pending) dangling.push({ file, line: m.line, text: `${m.kind}: ${m.value}` });
  return { blocks, dangling };
}

/** Reads and parses every page of {@link docPages}. */
export function readDocBlocks(root: string): { blocks: DocBlock[]; dangling: DanglingMarker[] } {
  const blocks: DocBlock[] = [];
  const dangling: DanglingMarker[] = [];
  for (const page of docPages(root)) {
    const r = parseBlocks(page, readFileSync(join(root, page), 'utf8'));
    blocks.push(...r.blocks);
    dangling.push(...r.dangling);
  }
  return { blocks, dangling };
}

/** The first marker of a kind, if the block has one. */
export function markerOf(block: DocBlock, kind: string): BlockMarker | undefined {
  return block.markers.find((m) => m.kind === kind);
}

/** `file:line` of a block, for messages. */
export function where(block: DocBlock): string {
  return `${block.file}:${block.line}`;
}
