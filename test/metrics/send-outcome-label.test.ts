import { describe, expect, it } from 'vitest';
import { boundedLabel, oneOf } from '../../src/metrics/bounded-label.js';
import { sendOutcomeLabel } from '../../src/metrics/send-outcome-label.js';

describe('sendOutcomeLabel', () => {
  it.each([
    ['accepted', { outcome: 'accepted', code: undefined, templateFallback: false }],
    ['already_accepted', { outcome: 'already_done', code: undefined, templateFallback: false }],
    [
      'rejected:quality_blocked',
      { outcome: 'rejected', code: 'quality_blocked', templateFallback: false },
    ],
    ['rejected:+15551234567', { outcome: 'rejected', code: 'other', templateFallback: false }],
    [
      'owned_by_human',
      { outcome: 'rejected', code: 'conversation_owned_by_human', templateFallback: false },
    ],
    ['held_for_window', { outcome: 'held_for_window', code: undefined, templateFallback: false }],
    ['template_fallback:unknown', { outcome: 'unknown', code: undefined, templateFallback: true }],
    ['something new', { outcome: 'other', code: undefined, templateFallback: false }],
  ])('should map %s', (raw, expected) => {
    expect(sendOutcomeLabel(raw)).toEqual(expected);
  });
});

describe('boundedLabel', () => {
  it('should keep the first values and map later new ones to other', () => {
    const label = boundedLabel(2);
    expect(['a', 'b', 'c', 'a', 'b c'].map(label)).toEqual(['a', 'b', 'other', 'a', 'other']);
  });

  it('should clean characters and cap the length', () => {
    expect(boundedLabel(5)(`x y"${'z'.repeat(100)}`)).toBe(`x_y_${'z'.repeat(60)}`);
  });

  it('should let oneOf map unknown values to other', () => {
    expect([oneOf(['text'], 'text'), oneOf(['text'], 'video')]).toEqual(['text', 'other']);
  });
});
