/**
 * The llm understander is told the flow's out-of-scope examples (`understand.outOfScope`):
 * the prompt lists those of the contact's language (all when it has none) and says the
 * intent is null for them (a null intent is an empty proposal: not understood).
 */
import { describe, expect, it } from 'vitest';
import { buildPrompt } from '../../../src/understand/llm/prompt.js';
import type { UnderstandInput } from '../../../src/understand/types.js';

const input = (locale: string, outOfScope?: UnderstandInput['outOfScope']): UnderstandInput => ({
  text: 'order me a pizza',
  locale,
  timezone: 'UTC',
  now: Date.parse('2026-11-28T12:00:00Z'),
  intents: [{ id: 'order', examples: { en: ['I want to order a book'] } }],
  slots: [],
  ...(outOfScope === undefined ? {} : { outOfScope }),
});

const system = (i: UnderstandInput): string =>
  buildPrompt(i).find((m) => m.role === 'system')?.content ?? '';

const OUT_OF_SCOPE = {
  en: ['order me a pizza for dinner', 'fix my laptop'],
  es: ['quiero pedir una pizza'],
};

describe('out-of-scope examples in the llm prompt', () => {
  it("should list the contact language's out-of-scope examples and say the intent is null for them", () => {
    const text = system(input('en-GB', OUT_OF_SCOPE));
    expect(text).toContain(
      'This bot does not handle requests like these; for them, and for any message like them, "intent" is null: "order me a pizza for dinner", "fix my laptop"',
    );
    expect(text).not.toContain('quiero pedir una pizza');
    expect(system(input('es', OUT_OF_SCOPE))).toContain(
      '"intent" is null: "quiero pedir una pizza"',
    );
  });

  it('should list them all for a contact whose language has none, and say nothing without them', () => {
    expect(system(input('fr', OUT_OF_SCOPE))).toContain(
      '"order me a pizza for dinner", "fix my laptop", "quiero pedir una pizza"',
    );
    expect(system(input('en'))).not.toContain('does not handle');
  });
});
