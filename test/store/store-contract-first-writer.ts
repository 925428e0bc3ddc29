import { describe, expect, it } from 'vitest';
import type { ContractContext } from './store-contract-context.js';

/** Contract of `setValueIfAbsent`: first writer wins, atomically, also under concurrency. */
export function firstWriterContract(ctx: ContractContext): void {
  const store = () => ctx.store();
  const clock = () => ctx.clock();
  describe('setValueIfAbsent', () => {
    it('should write an absent value and answer it, as a copy', async () => {
      const value = { at: 1_000, ids: ['m1'] };
      const stored = (await store().setValueIfAbsent('line', value)) as typeof value;
      expect(stored).toEqual({ at: 1_000, ids: ['m1'] });
      stored.ids.push('changed');
      value.ids.push('changed too');
      expect(await store().getValue('line')).toEqual({ at: 1_000, ids: ['m1'] });
    });

    it('should keep the stored value and answer it instead of the new one', async () => {
      await store().setValue('line', { at: 1 });
      expect(await store().setValueIfAbsent('line', { at: 2 })).toEqual({ at: 1 });
      expect(await store().setValueIfAbsent('line', { at: 3 })).toEqual({ at: 1 });
      expect(await store().getValue('line')).toEqual({ at: 1 });
    });

    it('should keep what it wrote forever', async () => {
      await store().setValueIfAbsent('line', 'first');
      clock().advance(400 * 86_400_000);
      expect(await store().getValue('line')).toBe('first');
      expect(await store().setValueIfAbsent('line', 'second')).toBe('first');
    });

    it('should take the place of an expired value', async () => {
      await store().setValue('line', 'old', 1_000);
      clock().advance(1_000);
      expect(await store().setValueIfAbsent('line', 'new')).toBe('new');
      clock().advance(10 * 86_400_000);
      expect(await store().getValue('line')).toBe('new');
    });

    it('should answer every one of many racing writers with the one value that won', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store().setValueIfAbsent('race', { writer: i })),
      );
      const stored = await store().getValue('race');
      expect(stored).toHaveProperty('writer');
      for (const answer of answers) expect(answer).toEqual(stored);
    });

    it('should keep falsy values as stored values', async () => {
      expect(await store().setValueIfAbsent('zero', 0)).toBe(0);
      expect(await store().setValueIfAbsent('zero', 1)).toBe(0);
      expect(await store().setValueIfAbsent('null', null)).toBeNull();
      expect(await store().setValueIfAbsent('null', 'x')).toBeNull();
    });
  });
}
