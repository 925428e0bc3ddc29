import { describe, expect, it } from 'vitest';
import {
  evaluate,
  formatEvalReport,
  parseLabelledCsv,
} from '../../../src/understand/eval/index.js';
import type { Understander, Understanding } from '../../../src/understand/types.js';

/** An understander that answers from a table, so every figure is known in advance. */
function table(answers: Record<string, Understanding>): Understander {
  return {
    name: 'table',
    understand: (input) => Promise.resolve(answers[input.text] ?? { source: 'scripted' }),
  };
}

describe('evaluate', () => {
  const rows = parseLabelledCsv(
    [
      'text,locale,intent,slots',
      'two large,en,order,quantity=2;size=large',
      'where,en,track,',
      'joke,en,out_of_scope,',
      'weather,es,,',
      'human,en,handoff,',
    ].join('\n'),
  );
  const u = table({
    'two large': {
      source: 'scripted',
      intent: { id: 'order', confidence: 0.9 },
      slots: { quantity: { value: 2 }, size: { value: 'small' } },
    },
    where: { source: 'scripted', intent: { id: 'order', confidence: 0.7 } },
    joke: { source: 'scripted', intent: { id: 'track', confidence: 0.3 } },
    weather: { source: 'scripted', intent: { id: 'track', confidence: 0.8 } },
    human: { source: 'scripted', handoff: true },
  });

  it('should compute intent and slot accuracy, the confusion table and out-of-scope figures', async () => {
    const r = await evaluate(u, [], rows, { threshold: 0.6, now: 0 });
    expect(r.intentAccuracy).toBeCloseTo(3 / 5);
    expect(r.slotAccuracy).toBeCloseTo(1 / 2);
    expect(r.confusion).toEqual({
      order: { order: 1 },
      track: { order: 1 },
      out_of_scope: { out_of_scope: 1, track: 1 },
      handoff: { handoff: 1 },
    });
    expect(r.outOfScopeRows).toBe(2);
    expect(r.confidentWrongOnOutOfScope).toBeCloseTo(1 / 2);
    expect(r.outOfScopeRate).toBeCloseTo(1 / 5);
    expect(r.byLanguage['es']).toMatchObject({ rows: 1, intentAccuracy: 0 });
    expect(r.outcomes[0]?.slotErrors).toEqual(['size=small (want large)']);
    expect(r.slowest).toHaveLength(5);
  });

  it('should print a report with the figures and the misses by line', async () => {
    const text = formatEvalReport(await evaluate(u, [], rows, { threshold: 0.6, now: 0 }));
    expect(text).toContain('intents  60.0%');
    expect(text).toContain('line 3: "where" track → order (0.70)');
    expect(text).toContain('50.0% of them taken confidently');
  });
});
