import { describe, expect, it } from 'vitest';
import { findChoices } from '../../../src/understand/builtin/entities/choices.js';
import { fold } from '../../../src/understand/text/fold.js';

const treatment = [
  { value: 'checkup', synonyms: ['check-up', 'revisión'] },
  { value: 'whitening', synonyms: ['teeth whitening', 'blanqueamiento dental'] },
];
const found = (text: string) => findChoices(fold(text), treatment).map((c) => c.value);

describe('oneOf synonyms', () => {
  it.each([
    ['check-ups for 3 of us', ['checkup']],
    ['two check ups', ['checkup']],
    ['dos revisiones', ['checkup']],
    ['teeth whitenings', ['whitening']],
    ['blanqueamientos dentales', ['whitening']],
  ])('should match each word of "%s" by its root', (text, want) => {
    expect(found(text)).toEqual(want);
  });

  it('should match a multi-word synonym only in full', () => {
    expect(found('my teeth hurt')).toEqual([]);
    expect(found('a check on my account')).toEqual([]);
  });

  it.each([
    ['the legs of the tabel are wobbly', ['table']],
    ['how much are the chiars', ['chair']],
    ['my mattres still hasnt arrived', ['mattress']],
    ['the matress has a stain', ['mattress']],
  ])('should match a value through the typo in "%s" (a swap is one edit)', (text, want) => {
    const furniture = [{ value: 'table' }, { value: 'chair' }, { value: 'mattress' }];
    expect(findChoices(fold(text), furniture).map((c) => c.value)).toEqual(want);
  });

  it('should not take a word two edits away for a short value', () => {
    expect(findChoices(fold('a dubble room'), [{ value: 'double' }])).toEqual([]);
  });
});
