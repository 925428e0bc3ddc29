import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createBuiltinUnderstander,
  DEFAULT_UNDERSTAND_THRESHOLD,
  evaluate,
  HANDOFF_LABEL,
  loadFlowFile,
  OUT_OF_SCOPE,
  parseLabelledCsv,
} from 'switchboard';
import type { EvalReport, IntentSpec, SlotSpec } from 'switchboard';

// Third to sixth held-out sets (issue #30's check): a dental clinic and a car rental
// (heldout3/), a hotel front desk and a furniture store (heldout4/), a pharmacy and an airline
// (heldout5/), a bike shop and an energy supplier (heldout6/), each a flow file
// written from the docs alone and ~160 labelled messages, committed before the first run.
// The floors sit under the measured figures (NOTES.md there), so a change of the builtin
// understander that makes these domains worse fails here.
const ROOT = 'test/fixtures/understand';
// The day the rows were labelled: absolute dates without a year mean the nearest such day.
const NOW = Date.parse('2026-11-28T12:00:00Z');

type FlowSlot =
  | string
  | {
      kind: string;
      values?: (string | { value: string; synonyms?: string[] })[];
      description?: string;
    };

/** A flow file's `intents:` as the IntentSpec list `evaluate` takes (what `switchboard eval` reads). */
async function intentsOf(file: string): Promise<IntentSpec[]> {
  const loaded = await loadFlowFile(file);
  if (loaded.status === 'error')
    throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
  return Object.entries(loaded.flow.intents ?? {}).map(([id, intent]) => ({
    id,
    examples: intent.examples,
    ...(intent.description === undefined ? {} : { description: intent.description }),
    slots: Object.entries((intent.slots ?? {}) as Record<string, FlowSlot>).map(
      ([name, slot]): SlotSpec => {
        if (typeof slot === 'string') return { name, kind: slot as SlotSpec['kind'] };
        return {
          name,
          kind: slot.kind as SlotSpec['kind'],
          ...(slot.description === undefined ? {} : { description: slot.description }),
          ...(slot.values === undefined
            ? {}
            : { choices: slot.values.map((v) => (typeof v === 'string' ? { value: v } : v)) }),
        };
      },
    ),
  }));
}

interface Floors {
  /** The folder under test/fixtures/understand. */
  dir: 'heldout3' | 'heldout4' | 'heldout5' | 'heldout6';
  rows: number;
  intents: number;
  slots: number;
  en: number;
  es: number;
  /** Highest share of out-of-scope rows an intent may take confidently. */
  oosConfidentWrong: number;
}

const SETS: Record<string, Floors> = {
  // first run: 82.9% intents (en 83.5, es 81.8), 98.4% slots, 4 of 24 out-of-scope taken;
  // after issue #30's lexicon fixes: 87.2% (en 88.1, es 85.5), 99.2% slots, 3 of 24;
  // after multi-word verbs and lexicon typos (round 4): 87.8% (en 88.1, es 87.3);
  // after phone numbers as one value: 88.4% (en 88.1, es 89.1);
  // after near misses by object (object-fit.ts): 88.4% (en 89.0, es 87.3), 2 of 24;
  // with round 5 (person requests read from the words, issue #30): 89.0% (en 89.9, es
  // 87.3), 98.4% slots, 2 of 24
  dental: {
    dir: 'heldout3',
    rows: 164,
    intents: 0.88,
    slots: 0.98,
    en: 0.88,
    es: 0.87,
    oosConfidentWrong: 0.09,
  },
  // first run: 77.2% intents (en 77.6, es 76.4), 81.1% slots, 2 of 22 out-of-scope taken;
  // after issue #30's lexicon fixes: 80.9% (en 80.4, es 81.8), 98.5% slots, 3 of 22;
  // after multi-word verbs and lexicon typos (round 4): 82.1% (en 82.2, es 81.8);
  // after phone numbers as one value: 82.7% (en 82.2, es 83.6);
  // after round 5 (oneOf typos, a deposit is a payment): 84.0% (en 83.2, es 85.5); after
  // round 6: 84.0% (en 82.2, es 87.3)
  rental: {
    dir: 'heldout3',
    rows: 162,
    intents: 0.83,
    slots: 0.97,
    en: 0.82,
    es: 0.87,
    oosConfidentWrong: 0.14,
  },
  // first run (main ae44343, before round 4): 76.3% intents, 86.3% slots, 3 of 22
  // out-of-scope taken; after round 4: 76.9%, 87.0% slots, 3 of 22; after round 5:
  // 80.0% (en 77.8, es 84.6), 92.4% slots, 3 of 22; with near misses by object: 80.6% (en
  // 78.7, es 84.6), 2 of 22
  hotel: {
    dir: 'heldout4',
    rows: 160,
    intents: 0.78,
    slots: 0.9,
    en: 0.76,
    es: 0.82,
    oosConfidentWrong: 0.1,
  },
  // first run (main ae44343, before round 4): 78.5% intents, 93.0% slots, 4 of 22
  // out-of-scope taken; after round 4: 79.1%, 94.2% slots, 4 of 22; after round 5:
  // 84.2% (en 82.4, es 88.0), 97.7% slots, 3 of 22; with near misses by object: 86.1% (en
  // 84.3, es 90.0), 0 of 22; after round 6 (vosotros forms, issue #30): 86.7% (en 84.3, es
  // 92.0), 0 of 22
  furniture: {
    dir: 'heldout4',
    rows: 158,
    intents: 0.86,
    slots: 0.95,
    en: 0.82,
    es: 0.91,
    oosConfidentWrong: 0.05,
  },
  // Fifth held-out sets, written from the docs while rounds 4 and 5 were under way and
  // measured only on finished code, never tuned on. First run (main ae44343): 84.5% intents
  // (en 87.4, es 79.3), 94.9% slots, 5 of 23 out-of-scope taken; after round 4: 83.9%, 6 of
  // 23; after near misses by object: 84.5%, 5 of 23; after round 5: 85.1% (en 89.3, es
  // 77.6), 94.9% slots, 5 of 23; after round 6 (issue #30, tuned on these misses, so no
  // longer unseen): 88.8% (en 93.2, es 81.0), 93.5% slots, 4 of 23
  pharmacy: {
    dir: 'heldout5',
    rows: 161,
    intents: 0.88,
    slots: 0.93,
    en: 0.92,
    es: 0.8,
    oosConfidentWrong: 0.18,
  },
  // First run (main ae44343): 84.5% intents (en 88.5, es 78.1), 85.4% slots, 3 of 22
  // out-of-scope taken; after round 4: 83.9%; after near misses by object: 83.3%; after
  // round 5: 83.9% (en 86.5, es 79.7), 85.4% slots, 3 of 22; after round 6 (issue #30,
  // tuned on these misses): 86.9% (en 89.4, es 82.8), 92.0% slots, 2 of 22
  airline: {
    dir: 'heldout5',
    rows: 168,
    intents: 0.86,
    slots: 0.91,
    en: 0.88,
    es: 0.81,
    oosConfidentWrong: 0.1,
  },
  // Sixth held-out sets (a bike shop with a workshop, an electricity and gas supplier),
  // written from the docs alone after round 6 had started and measured only on finished code.
  // First run (main b5d8de5): 68.5% intents (en 67.6, es 70.2), 85.7% slots, 6 of 22
  // out-of-scope taken; after round 6: 69.0% (en 68.5, es 70.2), 85.7% slots, 7 of 22. The
  // floors record how far the builtin is from issue #30's targets on a domain nobody tuned on.
  bikeshop: {
    dir: 'heldout6',
    rows: 168,
    intents: 0.68,
    slots: 0.85,
    en: 0.67,
    es: 0.7,
    oosConfidentWrong: 0.32,
  },
  // First run (main b5d8de5): 75.2% intents (en 76.6, es 72.2), 85.3% slots, 7 of 23
  // out-of-scope taken; after round 6: 75.8% (en 77.5, es 72.2), 86.0% slots, 6 of 23.
  energy: {
    dir: 'heldout6',
    rows: 165,
    intents: 0.75,
    slots: 0.85,
    en: 0.76,
    es: 0.72,
    oosConfidentWrong: 0.27,
  },
};

describe('builtin understander on the third to sixth held-out sets', () => {
  for (const [domain, floors] of Object.entries(SETS)) {
    it(`should keep the ${domain} set at or above its first-run floors`, async () => {
      const dir = `${ROOT}/${floors.dir}/${domain}`;
      const intents = await intentsOf(`${dir}/${domain}.yaml`);
      const rows = parseLabelledCsv(readFileSync(`${dir}/labelled.csv`, 'utf8'));
      expect(rows).toHaveLength(floors.rows);
      // Every label names an intent of the flow, so a renamed intent cannot pass silently.
      const labels = new Set([...intents.map((i) => i.id), HANDOFF_LABEL, OUT_OF_SCOPE]);
      expect(rows.filter((r) => !labels.has(r.intent ?? OUT_OF_SCOPE))).toEqual([]);

      const report: EvalReport = await evaluate(createBuiltinUnderstander(), intents, rows, {
        threshold: DEFAULT_UNDERSTAND_THRESHOLD,
        now: NOW,
      });
      expect(report.intentAccuracy).toBeGreaterThanOrEqual(floors.intents);
      expect(report.slotAccuracy).toBeGreaterThanOrEqual(floors.slots);
      expect(report.byLanguage['en']?.intentAccuracy).toBeGreaterThanOrEqual(floors.en);
      expect(report.byLanguage['es']?.intentAccuracy).toBeGreaterThanOrEqual(floors.es);
      expect(report.outOfScopeRows).toBeGreaterThanOrEqual(20);
      expect(report.confidentWrongOnOutOfScope).toBeLessThanOrEqual(floors.oosConfidentWrong);
    });
  }
});

// Issue #30: copies of the fourth sets' flows with out-of-scope examples (`understand.
// outOfScope`, 22 and 21 of them), written from the flows alone before any out-of-scope row
// was read. Measured (threshold 0.6): hotel 80.6% intents (en 78.7, es 84.6; as without),
// 92.4% slots, 1 of 22 out-of-scope taken (2 without); furniture 86.1% (en 83.3, es 92.0;
// 86.7 without: one row lost), 97.7% slots, 0 of 22 (0 without).
// The fifth and sixth sets' copies got 13 English and 7 Spanish examples each from another
// engineer who read only the flow files and the docs (never the rows), measured once:
// pharmacy 89.4% (en 93.2, es 82.8; 88.8 without), 3 of 23 taken (4 without); airline as
// without (86.9%, 2 of 22); bikeshop 69.6% (en 69.4, es 70.2; 69.0 without), 6 of 22 (7
// without); energy 75.8% (as without), 5 of 23 (6 without).
const WITH_OUT_OF_SCOPE: Record<string, Floors> = {
  hotel: {
    dir: 'heldout4',
    rows: 160,
    intents: 0.8,
    slots: 0.92,
    en: 0.78,
    es: 0.84,
    oosConfidentWrong: 0.05,
  },
  furniture: {
    dir: 'heldout4',
    rows: 158,
    intents: 0.86,
    slots: 0.97,
    en: 0.83,
    es: 0.92,
    oosConfidentWrong: 0,
  },
  pharmacy: {
    dir: 'heldout5',
    rows: 161,
    intents: 0.89,
    slots: 0.93,
    en: 0.93,
    es: 0.82,
    oosConfidentWrong: 0.14,
  },
  airline: {
    dir: 'heldout5',
    rows: 168,
    intents: 0.86,
    slots: 0.91,
    en: 0.89,
    es: 0.82,
    oosConfidentWrong: 0.1,
  },
  bikeshop: {
    dir: 'heldout6',
    rows: 168,
    intents: 0.69,
    slots: 0.85,
    en: 0.69,
    es: 0.7,
    oosConfidentWrong: 0.28,
  },
  energy: {
    dir: 'heldout6',
    rows: 165,
    intents: 0.75,
    slots: 0.85,
    en: 0.77,
    es: 0.72,
    oosConfidentWrong: 0.22,
  },
};

describe('builtin understander on the held-out sets with out-of-scope examples', () => {
  for (const [domain, floors] of Object.entries(WITH_OUT_OF_SCOPE)) {
    it(`should keep ${domain}.oos.yaml at or above its floors`, async () => {
      const dir = `${ROOT}/${floors.dir}/${domain}`;
      const loaded = await loadFlowFile(`${dir}/${domain}.oos.yaml`);
      if (loaded.status === 'error') throw new Error('the copy does not load');
      const outOfScope = loaded.flow.understand?.outOfScope;
      expect(outOfScope).toBeDefined();
      const rows = parseLabelledCsv(readFileSync(`${dir}/labelled.csv`, 'utf8'));
      expect(rows).toHaveLength(floors.rows);
      const report = await evaluate(
        createBuiltinUnderstander(),
        await intentsOf(`${dir}/${domain}.oos.yaml`),
        rows,
        {
          threshold: DEFAULT_UNDERSTAND_THRESHOLD,
          now: NOW,
          ...(outOfScope ? { outOfScope } : {}),
        },
      );
      expect(report.intentAccuracy).toBeGreaterThanOrEqual(floors.intents);
      expect(report.slotAccuracy).toBeGreaterThanOrEqual(floors.slots);
      expect(report.byLanguage['en']?.intentAccuracy).toBeGreaterThanOrEqual(floors.en);
      expect(report.byLanguage['es']?.intentAccuracy).toBeGreaterThanOrEqual(floors.es);
      expect(report.confidentWrongOnOutOfScope).toBeLessThanOrEqual(floors.oosConfidentWrong);
    });
  }
});
