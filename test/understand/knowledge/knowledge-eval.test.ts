import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  evaluateKnowledge,
  parseKnowledgeCsv,
} from '../../../src/understand/eval/knowledge-eval.js';
import { LabelledCsvError } from '../../../src/understand/eval/labelled-csv.js';
import { loadKnowledge } from '../../../src/understand/knowledge/knowledge-base.js';
import { createBuiltinUnderstander } from '../../../src/understand/builtin/index.js';

const dir = new URL('../../../examples/pizza-order/knowledge/', import.meta.url);
const files = ['delivery.md', 'allergens.md', 'delivery.es.md', 'allergens.es.md'].map((f) => ({
  path: f,
  content: readFileSync(new URL(f, dir), 'utf8'),
}));
const rows = parseKnowledgeCsv(
  readFileSync(new URL('./fixtures/pizza-knowledge.csv', import.meta.url), 'utf8'),
);

describe('knowledge answers on the labelled pizza-order questions (en + es)', () => {
  const kb = loadKnowledge(files);

  it('should answer ≥ 80% of answerable questions from their section, and ≤ 5% of the others', () => {
    const report = evaluateKnowledge(kb, rows);
    expect(report.answerable).toBeGreaterThanOrEqual(40);
    expect(report.unanswerable).toBeGreaterThanOrEqual(30);
    for (const language of ['en', 'es'])
      expect(
        rows.filter((r) => r.locale === language && r.source === undefined).length,
      ).toBeGreaterThan(10);
    const misses = report.misses.map((m) => `${m.row.text} → ${m.answered ?? "I don't know"}`);
    expect(report.accuracy, misses.join('\n')).toBeGreaterThanOrEqual(0.8);
    expect(report.falseAnswerRate, misses.join('\n')).toBeLessThanOrEqual(0.05);
  });

  it('should count a wrong section as a miss, and a lower threshold as more false answers', () => {
    const loose = evaluateKnowledge(kb, rows, 0.3);
    expect(loose.falseAnswerRate).toBeGreaterThan(0.05);
    const wrong = evaluateKnowledge(kb, [
      {
        line: 2,
        text: 'do you deliver to Headingley?',
        locale: 'en',
        source: 'allergens.md#Allergens > Nuts',
      },
    ]);
    expect(wrong.accuracy).toBe(0);
    expect(wrong.misses[0]?.answered).toBe('delivery.md#Delivery > Areas');
  });

  it('should say "I don\'t know" through the builtin understander for an unanswerable question', async () => {
    const u = createBuiltinUnderstander({ knowledge: kb });
    const base = { locale: 'en', timezone: 'UTC', now: 0, intents: [], slots: [], knowledge: true };
    const known = await u.understand({ ...base, text: 'is there gluten in the base?' });
    expect(known.knowledge?.sources).toEqual([
      { file: 'allergens.md', heading: 'Allergens > Gluten' },
    ]);
    for (const text of ['do you deliver to Manchester?', 'can I pay by card?', 'do you sell beer'])
      expect((await u.understand({ ...base, text })).knowledge, text).toBeUndefined();
  });

  it('should name the line of a bad row', () => {
    expect(() => parseKnowledgeCsv('text,locale\nx,en\n')).toThrow(
      /line 1: the header has no "source"/,
    );
    expect(() => parseKnowledgeCsv('text,locale,source\n,en,a.md#B\n')).toThrow(LabelledCsvError);
    expect(() => parseKnowledgeCsv('text,locale,source\nq,en,a.md\n')).toThrow(
      /line 2: source "a.md"/,
    );
  });
});
