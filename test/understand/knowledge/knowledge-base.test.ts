import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadKnowledge,
  readKnowledgeFiles,
  splitMarkdown,
  trimText,
} from '../../../src/understand/knowledge/index.js';

const FAQ = `# Delivery
We deliver every day from 12:00 to 23:00.
## Areas
We deliver to Headingley, Hyde Park, Meanwood and the city centre. Delivery is free over £20.
## Delivery times
Orders usually arrive within 40 minutes.
# Allergens
All our bases contain gluten and wheat. The pesto contains pine nuts.
\`\`\`
# not a heading inside a code block
\`\`\`
# Payment
We accept cards and cash.
`;
const ES = `---
lang: es
---
# Envíos
Repartimos en Headingley y el centro.
# Alérgenos
Todas las masas llevan gluten.
`;

describe('splitMarkdown', () => {
  it('should split by heading, keep the heading path and skip headings in code', () => {
    const sections = splitMarkdown('faq.md', FAQ);
    expect(sections.map((s) => s.heading)).toEqual([
      'Delivery',
      'Delivery > Areas',
      'Delivery > Delivery times',
      'Allergens',
      'Payment',
    ]);
    expect(sections[3]?.text).toContain('# not a heading inside a code block');
    expect(sections[1]?.line).toBe(3);
  });

  it('should take the language from front matter or the file name', () => {
    expect(splitMarkdown('faq.md', ES)[0]?.locale).toBe('es');
    expect(splitMarkdown('faq.es.md', '# A\nb')[0]?.locale).toBe('es');
    expect(splitMarkdown('faq.md', 'text before any heading')[0]?.heading).toBe('faq');
  });
});

describe('KnowledgeBase', () => {
  const kb = loadKnowledge([
    { path: 'faq.md', content: FAQ },
    { path: 'faq-es.md', content: ES },
  ]);

  it('should answer with the best section and its source', () => {
    const a = kb.answer('do you deliver to Headingley?', 'en');
    expect(a?.sources).toEqual([{ file: 'faq.md', heading: 'Delivery > Areas' }]);
    expect(a?.confidence).toBeGreaterThanOrEqual(0.6);
    expect(kb.answer('is there gluten in the base?', 'en')?.sources[0]?.heading).toBe('Allergens');
    expect(kb.answer('¿lleva gluten la masa?', 'es')?.sources[0]).toEqual({
      file: 'faq-es.md',
      heading: 'Alérgenos',
    });
  });

  it('should not answer a question the files do not answer', () => {
    for (const q of [
      'do you deliver to Manchester?',
      'can I pay with bitcoin?',
      'who won the match?',
      'what is your refund policy?',
    ]) {
      expect(kb.answer(q, 'en'), q).toBeUndefined();
    }
  });

  it('should tolerate typos', () => {
    expect(kb.answer('do you delivr to headingly', 'en')?.sources[0]?.heading).toBe(
      'Delivery > Areas',
    );
  });

  it('should re-index on demand (hot reload)', () => {
    const hot = loadKnowledge([{ path: 'a.md', content: '# Parking\nThere is no parking.' }]);
    expect(hot.answer('is there parking?')).toBeDefined();
    hot.reindex([{ path: 'a.md', content: '# Opening\nWe open at noon.' }]);
    expect(hot.answer('is there parking?')).toBeUndefined();
    expect(hot.sections.map((s) => s.heading)).toEqual(['Opening']);
  });

  it('should trim an answer to the 4,096-character text body limit', () => {
    const long = `${'We deliver to many places. '.repeat(300)}`;
    const a = loadKnowledge([{ path: 'l.md', content: `# Delivery places\n${long}` }]).answer(
      'delivery places',
    );
    expect([...(a?.text ?? '')].length).toBeLessThanOrEqual(4096);
    expect(a?.text.endsWith('…')).toBe(true);
    expect(trimText('short', 10)).toBe('short');
  });
});

describe('readKnowledgeFiles', () => {
  let root = '';
  afterAll(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  it('should read files, directories and globs relative to the bot', async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-knowledge-'));
    await mkdir(join(root, 'knowledge', 'sub'), { recursive: true });
    await writeFile(join(root, 'knowledge', 'faq.md'), FAQ);
    await writeFile(join(root, 'knowledge', 'sub', 'more.md'), '# More\ntext');
    await writeFile(join(root, 'knowledge', 'notes.txt'), 'not markdown');
    expect((await readKnowledgeFiles(root, ['knowledge'])).map((f) => f.path)).toEqual([
      'knowledge/faq.md',
      'knowledge/sub/more.md',
    ]);
    expect((await readKnowledgeFiles(root, ['knowledge/*.md'])).map((f) => f.path)).toEqual([
      'knowledge/faq.md',
    ]);
    expect((await readKnowledgeFiles(root, ['knowledge/**/*.md'])).map((f) => f.path)).toEqual([
      'knowledge/faq.md',
      'knowledge/sub/more.md',
    ]);
    await expect(readKnowledgeFiles(root, ['missing/*.md'])).rejects.toThrow(/missing\/\*\.md/);
  });
});
