import { describe, expect, it } from 'vitest';
import { findChoices } from '../../../src/understand/builtin/entities/choices.js';
import { fold } from '../../../src/understand/text/fold.js';

// findChoices keeps, for the last text, the matches of each set of choices by content and
// the edits of each word pair: these tests guard that what is kept is never stale.
describe('oneOf matches kept for one text', () => {
  const text = fold('two big ones and a smal one');

  it('should give equal choices in other arrays the same matches', () => {
    const a = [{ value: 'large', synonyms: ['big'] }, { value: 'small' }];
    const b = [{ value: 'large', synonyms: ['big'] }, { value: 'small' }];
    expect(findChoices(text, b)).toEqual(findChoices(text, a));
    expect(findChoices(text, a).map((m) => m.value)).toEqual(['large', 'small']);
  });

  it('should not give choices with other values or synonyms the matches of the last ones', () => {
    findChoices(text, [{ value: 'large', synonyms: ['big'] }]);
    expect(findChoices(text, [{ value: 'grande', synonyms: ['big'] }])[0]?.value).toBe('grande');
    expect(findChoices(text, [{ value: 'large', synonyms: ['huge'] }])).toEqual([]);
    expect(findChoices(text, [{ value: 'large' }, { value: 'big' }])[0]?.value).toBe('big');
  });

  it('should read a new text afresh, and an old one again the same', () => {
    const choices = [{ value: 'large', synonyms: ['big'] }];
    expect(findChoices(fold('a big one'), choices)).toEqual([
      { value: 'large', start: 2, end: 5, edits: 0 },
    ]);
    expect(findChoices(fold('a small one'), choices)).toEqual([]);
    expect(findChoices(fold('one bigg'), choices)).toEqual([]);
    expect(findChoices(fold('a big one'), choices)[0]?.start).toBe(2);
  });

  it('should not let a caller change the kept matches', () => {
    const choices = [{ value: 'small' }];
    const first = findChoices(text, choices);
    first.length = 0;
    expect(findChoices(text, choices)).toHaveLength(1);
  });
});
