/**
 * Splits a Markdown file into sections by heading, each keeping its heading path
 * (`Delivery > Areas`). Headings inside fenced code blocks are text. A file's language is
 * its front matter's `lang:`/`locale:` or a suffix of its name (`faq.es.md`).
 */

/** One section of a knowledge file. */
export interface KnowledgeSection {
  /** File path as given (relative to the bot). */
  readonly file: string;
  /** The heading path, outermost first, joined with ` > `. */
  readonly heading: string;
  /** The section's own text (without its heading and without its sub-sections). */
  readonly text: string;
  /** Its language (`en`, `es`), when the file declares one. */
  readonly locale?: string;
  /** 1-based line of its heading (1 for text before the first heading). */
  readonly line: number;
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

function localeOf(path: string, content: string): string | undefined {
  const front = FRONT_MATTER.exec(content)?.[1];
  const declared =
    front === undefined ? undefined : /^(?:lang|locale):\s*([A-Za-z-_]+)\s*$/m.exec(front)?.[1];
  if (declared !== undefined) return declared;
  return /\.([a-z]{2}(?:[-_][A-Za-z]{2})?)\.(?:md|markdown)$/i.exec(path)?.[1];
}

function title(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.replace(/\.(?:[a-z]{2}(?:[-_][A-Za-z]{2})?\.)?(?:md|markdown)$/i, '');
}

/**
 * The sections of one Markdown file; empty sections (a heading directly followed by a
 * sub-heading) are left out, their heading living on in the path of the ones below.
 * @example
 * splitMarkdown('faq.md', '# Delivery\n## Areas\nWe deliver to Leeds.');
 * // [{ file: 'faq.md', heading: 'Delivery > Areas', text: 'We deliver to Leeds.', line: 2 }]
 */
export function splitMarkdown(path: string, content: string): KnowledgeSection[] {
  const locale = localeOf(path, content);
  const front = FRONT_MATTER.exec(content);
  const skipped = front === null ? 0 : front[0].split('\n').length - 1;
  const lines = content.slice(front?.[0].length ?? 0).split(/\r?\n/);
  const out: KnowledgeSection[] = [];
  const stack: { level: number; text: string }[] = [];
  let body: string[] = [];
  let line = skipped + 1;
  let fenced = false;
  const flush = (): void => {
    const text = body.join('\n').trim();
    if (text !== '') {
      const heading = stack.length === 0 ? title(path) : stack.map((s) => s.text).join(' > ');
      out.push({ file: path, heading, text, line, ...(locale === undefined ? {} : { locale }) });
    }
    body = [];
  };
  lines.forEach((raw, i) => {
    if (FENCE.test(raw)) fenced = !fenced;
    const m = fenced ? null : HEADING.exec(raw);
    if (m === null) {
      body.push(raw);
      return;
    }
    flush();
    const level = (m[1] ?? '#').length;
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= level) stack.pop();
    stack.push({ level, text: (m[2] ?? '').trim() });
    line = skipped + i + 1;
  });
  flush();
  return out;
}
