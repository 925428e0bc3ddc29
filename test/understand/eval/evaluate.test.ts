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

  it('should understand the first row once untimed before the timed run', async () => {
    let calls = 0;
    const counting: Understander = {
      name: 'counting',
      understand: () => Promise.resolve({ source: 'scripted', ms: ++calls }),
    };
    const r = await evaluate(counting, [], rows, { threshold: 0.6, now: 0 });
    expect(calls).toBe(rows.length + 1);
    // The first row's outcome (and timing) is the second call's, not the warm-up's.
    expect(r.outcomes[0]?.understanding.ms).toBe(2);
    expect(r.slowest.map((o) => o.understanding.ms)).not.toContain(1);
    calls = 0;
    await evaluate(counting, [], rows, { threshold: 0.6, now: 0, warmUp: false });
    expect(calls).toBe(rows.length);
  });

  it('should print whole labels as confusion columns, cutting only past 12 characters', async () => {
    const labelled = parseLabelledCsv(
      'text,locale,intent,slots\nmove,en,reschedule,\nmove it,en,reschedule_delivery,\n',
    );
    const moving = table({
      move: { source: 'scripted', intent: { id: 'reschedule', confidence: 0.9 } },
      'move it': { source: 'scripted', intent: { id: 'reschedule', confidence: 0.9 } },
    });
    const text = formatEvalReport(await evaluate(moving, [], labelled, { threshold: 0.6 }));
    const header = text.split('\n').find((l) => l.includes('reschedule')) ?? '';
    expect(header.trim().split(/ +/)).toEqual(['reschedule', 'reschedule_…']);
    expect(text).toMatch(/^reschedule_delivery +1 +\.$/m);
  });
});
