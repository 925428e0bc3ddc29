/**
 * The builtin understander on the labelled development set (test/fixtures/understand):
 * a regression of intent accuracy, slot accuracy or out-of-scope confidence fails here.
 * The floors are the figures measured when the set was made, rounded down a little.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createBuiltinUnderstander,
  DEFAULT_UNDERSTAND_THRESHOLD,
} from '../../../src/understand/builtin/index.js';
import {
  evaluate,
  formatEvalReport,
  parseLabelledCsv,
} from '../../../src/understand/eval/index.js';
import type { IntentSpec } from '../../../src/understand/types.js';

const dir = new URL('../../fixtures/understand/', import.meta.url);
const load = (domain: string) => ({
  intents: JSON.parse(readFileSync(new URL(`${domain}-intents.json`, dir), 'utf8')) as IntentSpec[],
  rows: parseLabelledCsv(readFileSync(new URL(`${domain}.csv`, dir), 'utf8')),
});
const NOW = Date.parse('2026-03-04T10:00:00Z');

describe('builtin understander on the development set', () => {
  it.each([
    // domain, intent accuracy, slot accuracy, confident-wrong on out-of-scope (max)
    ['pizza', 0.82, 0.84, 0.05],
    ['courier', 0.8, 0.85, 0.15],
  ] as const)('should keep %s at its measured figures', async (domain, intents, slots, wrong) => {
    const set = load(domain);
    const report = await evaluate(
      createBuiltinUnderstander({ defaultCountry: 'GB' }),
      set.intents,
      set.rows,
      {
        threshold: DEFAULT_UNDERSTAND_THRESHOLD,
        now: NOW,
      },
    );
    expect(report.rows).toBeGreaterThan(120);
    expect(report.intentAccuracy, formatEvalReport(report)).toBeGreaterThanOrEqual(intents);
    expect(report.slotAccuracy, formatEvalReport(report)).toBeGreaterThanOrEqual(slots);
    expect(report.confidentWrongOnOutOfScope, formatEvalReport(report)).toBeLessThanOrEqual(wrong);
    expect(Object.keys(report.byLanguage).sort()).toEqual(['en', 'es']);
  });
});
