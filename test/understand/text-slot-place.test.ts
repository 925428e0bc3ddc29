import { describe, expect, it } from 'vitest';
import { createBuiltinUnderstander } from '../../src/understand/index.js';

/** docs/understanding.md, Slots: a `text` slot holds the place with its noun. */
describe('builtin understander: a text slot naming a place', () => {
  const understander = createBuiltinUnderstander();
  const intents = [
    {
      id: 'pickup',
      examples: { en: ['pick me up at the airport', 'I need a taxi'] },
      slots: [{ name: 'airport', kind: 'text' as const }],
    },
  ];
  const heard = async (text: string): Promise<unknown> =>
    (
      await understander.understand({
        text,
        locale: 'en',
        timezone: 'UTC',
        now: Date.parse('2026-11-28T12:00:00Z'),
        intents,
        slots: [],
        filled: {},
        knowledge: false,
      })
    ).slots?.['airport']?.value;

  it.each([
    ['I need a taxi at Lisbon airport', 'Lisbon airport'],
    ['pick me up at Lisbon airport tomorrow please', 'Lisbon airport'],
    ['pick me up at Lisbon', 'Lisbon'],
  ])('should fill %j with %j', async (text, value) => {
    expect(await heard(text)).toBe(value);
  });
});
