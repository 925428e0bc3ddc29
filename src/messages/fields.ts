/**
 * Limit-aware zod field factories. Every check adds a custom issue whose message names
 * the size, the limit and the spec section, and whose params carry them
 * ({@link IssueParams}). Characters are Unicode code points ({@link charLength}).
 */
import { z } from 'zod';
import { charLength } from '../core/limits.js';
import { quote, type IssueParams } from './issues.js';

/** Options of {@link limitedString}. */
export interface LimitedStringOptions {
  /** Human name used in messages, e.g. `Button title`. */
  readonly label: string;
  /** Maximum length in characters. */
  readonly max?: number;
  /** Minimum length in characters; default 1 (empty strings are rejected). */
  readonly min?: number;
  /** Spec section, e.g. `4.5.2`. */
  readonly spec: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A string of `min` (default 1) to `max` characters, with messages such as
 * `Button title "Talk to a human now!" is 21 characters; the limit is 20 (spec 4.5.2)`.
 */
export function limitedString(options: LimitedStringOptions): z.ZodString {
  const { label, max, spec } = options;
  const min = options.min ?? 1;
  return z.string().superRefine((value, ctx) => {
    const size = charLength(value);
    if (max !== undefined && size > max) {
      const params: IssueParams = { limit: max, size, spec };
      ctx.addIssue({
        code: 'custom',
        message: `${label} ${quote(value)} is ${plural(size, 'character')}; the limit is ${max} (spec ${spec})`,
        params,
      });
    } else if (size < min) {
      const params: IssueParams = { limit: min, size, spec };
      const range =
        max === undefined ? `at least ${plural(min, 'character')}` : `${min} to ${max} characters`;
      const what = size === 0 ? 'is empty' : `${quote(value)} is ${plural(size, 'character')}`;
      ctx.addIssue({
        code: 'custom',
        message: `${label} ${what}; it must have ${range} (spec ${spec})`,
        params,
      });
    }
  });
}

/** Options of {@link boundedArray}. */
export interface BoundedArrayOptions {
  /** Human name of the entries, plural, e.g. `Reply buttons`. */
  readonly label: string;
  readonly min: number;
  /** `Infinity` for no upper bound. */
  readonly max: number;
  readonly spec: string;
}

/**
 * An array of `min` to `max` entries. The count is checked even when entries are
 * invalid, so every problem is reported at once.
 */
export function boundedArray<T extends z.ZodType>(
  item: T,
  options: BoundedArrayOptions,
): z.ZodArray<T> {
  const { label, min, max, spec } = options;
  return z.array(item).superRefine(
    (value, ctx) => {
      const size = value.length;
      const range =
        min === max
          ? `exactly ${min}`
          : max === Infinity
            ? `at least ${min}`
            : min === 0
              ? `at most ${max}`
              : `${min} to ${max}`;
      if (size > max) {
        const params: IssueParams = { limit: max, size, spec };
        ctx.addIssue({
          code: 'custom',
          message: `${label}: ${size} given; the limit is ${range} (spec ${spec}); remove ${size - max}`,
          params,
        });
      } else if (size < min) {
        const params: IssueParams = { limit: min, size, spec };
        ctx.addIssue({
          code: 'custom',
          message: `${label}: ${size === 0 ? 'none' : size} given; ${range} required (spec ${spec})`,
          params,
        });
      }
    },
    { when: (payload) => Array.isArray(payload.value) },
  );
}

/** Options of {@link numberInRange}. */
export interface NumberInRangeOptions {
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly spec: string;
}

/** A finite number between `min` and `max` inclusive. */
export function numberInRange(options: NumberInRangeOptions): z.ZodNumber {
  const { label, min, max, spec } = options;
  return z.number().superRefine((value, ctx) => {
    if (value < min || value > max) {
      const params: IssueParams = { limit: value < min ? min : max, spec };
      ctx.addIssue({
        code: 'custom',
        message: `${label} ${value} is out of range; it must be between ${min} and ${max} (spec ${spec})`,
        params,
      });
    }
  });
}
