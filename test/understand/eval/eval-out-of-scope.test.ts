/**
 * `switchboard eval` reads a flow's `understand.outOfScope` and gives it to the
 * understander, as a running bot does: on heldout4's hotel copy with out-of-scope examples
 * it reports the out-of-scope figure the library does with them, not without.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFlowFile } from '../../../src/flows/index.js';
import { loadBot } from '../../../src/bot/load-bot.js';
import { intentsOf } from '../../../src/bot/resolve-understanding.js';
import { createBuiltinUnderstander } from '../../../src/understand/builtin/index.js';
import { evaluate, parseLabelledCsv } from '../../../src/understand/eval/index.js';
import { runEvalCli } from './run-eval-cli.js';

const DIR = 'test/fixtures/understand/heldout4/hotel';
const NOW = Date.parse('2026-11-28T12:00:00Z');

async function cli(flow: string): Promise<string> {
  const out = await runEvalCli(flow, `${DIR}/labelled.csv`);
  return out.split('\n').find((l) => l.startsWith('out of scope:')) ?? '';
}

describe('switchboard eval with out-of-scope examples', () => {
  it("should give the flow's out-of-scope examples to the understander", async () => {
    const file = `${DIR}/hotel.oos.yaml`;
    const loaded = await loadFlowFile(file);
    if (loaded.status === 'error') throw new Error('the copy does not load');
    const bot = await loadBot(file);
    if (bot.status === 'error') throw new Error(bot.message);
    const rows = parseLabelledCsv(readFileSync(`${DIR}/labelled.csv`, 'utf8'));
    const run = async (withThem: boolean) =>
      evaluate(createBuiltinUnderstander(), intentsOf(bot.bot.flows), rows, {
        threshold: 0.6,
        now: NOW,
        timezone: 'UTC',
        ...(withThem && loaded.flow.understand?.outOfScope !== undefined
          ? { outOfScope: loaded.flow.understand.outOfScope }
          : {}),
      });
    const [withThem, without] = [await run(true), await run(false)];
    expect(withThem.confidentWrongOnOutOfScope).toBeLessThan(without.confidentWrongOnOutOfScope);
    const line = await cli(file);
    expect(line).toContain(
      `${Math.round(withThem.confidentWrongOnOutOfScope * 1000) / 10}% of them taken confidently`,
    );
  });
});
