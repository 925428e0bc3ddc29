/**
 * The builtin understander on the labelled sets (test/fixtures/understand): a regression of
 * intent accuracy, slot accuracy or out-of-scope confidence fails here. pizza and courier
 * are the development set the understander was tuned on; salon, card and restaurant
 * (heldout/) were written from the docs alone by someone who had not read the
 * understander, as the issue's check does; telecom and gym (heldout2/) were written the
 * same way after the tuning (two general fixes followed their misses). The floors are the figures measured when the
 * sets were last tuned on, rounded down a little (about one row). Every set is run against
 * a fixed clock (its labels' "now"), so the figures do not drift with the calendar; the
 * command line gets the same clock from `switchboard eval --now`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runEvalCli } from './run-eval-cli.js';
import { loadBot } from '../../../src/bot/load-bot.js';
import { intentsOf } from '../../../src/bot/resolve-understanding.js';
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
const read = (path: string): string => readFileSync(new URL(path, dir), 'utf8');

/** A development domain: intents as JSON; its labels are relative to 2026-03-04. */
const dev = (domain: string) => ({
  intents: JSON.parse(read(`${domain}-intents.json`)) as IntentSpec[],
  rows: parseLabelledCsv(read(`${domain}.csv`)),
  now: Date.parse('2026-03-04T10:00:00Z'),
});

/** A held-out domain: a flow file as a bot author writes it; labels relative to 2026-11-28. */
const heldout = async (domain: string, folder = 'heldout') => {
  const loaded = await loadBot(new URL(`${folder}/${domain}/${domain}.yaml`, dir).pathname);
  if (loaded.status === 'error') throw new Error(loaded.message);
  return {
    intents: intentsOf(loaded.bot.flows),
    rows: parseLabelledCsv(read(`${folder}/${domain}/labelled.csv`)),
    now: Date.parse('2026-11-28T12:00:00Z'),
  };
};

describe('builtin understander on the labelled sets', () => {
  it.each([
    // domain, intent accuracy, slot accuracy, confident-wrong on out-of-scope (max);
    // measured 2026-11-28 (threshold 0.6, after issue #30's lexicon fixes): pizza 90.5 /
    // 97.0 / 0, courier 91.9 / 87.3 / 0, salon 85.6 / 95.3 / 4.2 (1 of 24), card 88.8 / 95.3
    // / 0, restaurant 88.1 / 93.8 / 5.0 (1 of 20), telecom 90.6 / 85.4 / 0, gym 93.0 / 96.2 /
    // 6.3 (1 of 16); after multi-word verbs and lexicon typos (round 4): restaurant 88.8 /
    // 94.6 / 5.0, telecom 91.5 / 85.4 / 0; after Spanish clitics: salon 86.3, gym 93.9; after
    // "no longer need", "ya no quiero": courier 92.6; after phone numbers as one value: salon
    // 86.9, card 91.3 / 97.2, telecom 92.3; after "instead / rather / en vez de": salon 87.5,
    // restaurant 89.4; after "can't find" / "no encuentro" and "any update": pizza 91.1, card
    // 91.9. Round 5 (issue #30, heldout4's categories): courier slots 96.4 (un paquete);
    // salon 88.8 / 97.7 (oneOf typos, callbacks); card 91.9 (+1 person request, −1 at 0.59);
    // telecom 93.2 (person request). Round 6 (issue #30): salon 89.4 (vosotros forms),
    // pizza 91.8 ("how much longer"), card 93.1 ("money back").
    ['pizza', 0.91, 0.96, 0.05],
    ['courier', 0.91, 0.95, 0.05],
    ['salon', 0.89, 0.96, 0.05],
    ['card', 0.93, 0.96, 0.05],
    ['restaurant', 0.88, 0.93, 0.05],
    // heldout2/: written later; measured before two general fixes their misses suggested.
    ['telecom', 0.92, 0.84, 0.05],
    ['gym', 0.93, 0.95, 0.07],
  ] as const)('should keep %s at its measured figures', async (domain, intents, slots, wrong) => {
    const set =
      domain === 'pizza' || domain === 'courier'
        ? dev(domain)
        : await heldout(domain, domain === 'telecom' || domain === 'gym' ? 'heldout2' : 'heldout');
    const report = await evaluate(createBuiltinUnderstander(), set.intents, set.rows, {
      threshold: DEFAULT_UNDERSTAND_THRESHOLD,
      now: set.now,
    });
    expect(report.rows).toBeGreaterThan(110);
    expect(report.intentAccuracy, formatEvalReport(report)).toBeGreaterThanOrEqual(intents);
    expect(report.slotAccuracy, formatEvalReport(report)).toBeGreaterThanOrEqual(slots);
    expect(report.confidentWrongOnOutOfScope, formatEvalReport(report)).toBeLessThanOrEqual(wrong);
    expect(Object.keys(report.byLanguage).sort()).toEqual(['en', 'es']);
  });
});

describe('switchboard eval on a held-out set', () => {
  it("should give the figures of the floors test when run with --now at the labels' date", async () => {
    const folder = new URL('heldout/salon/', dir);
    const out = await runEvalCli(
      fileURLToPath(new URL('salon.yaml', folder)),
      fileURLToPath(new URL('labelled.csv', folder)),
    );
    const set = await heldout('salon');
    const report = await evaluate(createBuiltinUnderstander(), set.intents, set.rows, {
      threshold: DEFAULT_UNDERSTAND_THRESHOLD,
      now: set.now,
    });
    const line = formatEvalReport(report).split('\n')[1] ?? '';
    expect(line).toMatch(/^all +160 msgs/);
    expect(out.split('\n')[1]).toBe(line);
  });
});
