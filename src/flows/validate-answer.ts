import type { VarValue } from './contract.js';
import type { ValidationDef } from './flow-schema.js';
import { normalizeText } from './text-match.js';

/** Outcome of checking an answer to an `ask`. */
export type AnswerResult =
  { readonly status: 'valid'; readonly value: VarValue } | { readonly status: 'invalid' };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * Checks a typed answer. Values are stored trimmed; `number` stores a number, `phone`
 * stores the number without spaces, dashes, dots or parentheses, `oneOf` stores the
 * declared value that matched (case- and accent-insensitive).
 */
export function validateAnswer(text: string, rule: ValidationDef | undefined): AnswerResult {
  const answer = text.trim();
  if (answer === '') return { status: 'invalid' };
  if (rule === undefined) return { status: 'valid', value: answer };
  switch (rule.kind) {
    case 'pattern': {
      let re: RegExp;
      try {
        re = new RegExp(rule.pattern, rule.flags?.replace(/[gy]/g, ''));
      } catch {
        // The linter reports bad patterns; at run time a bad pattern accepts nothing.
        return { status: 'invalid' };
      }
      return re.test(answer) ? { status: 'valid', value: answer } : { status: 'invalid' };
    }
    case 'number': {
      const n = Number(answer.replace(',', '.'));
      if (!/^[-+]?\d+([.,]\d+)?$/.test(answer) || !Number.isFinite(n)) return { status: 'invalid' };
      if (rule.integer === true && !Number.isInteger(n)) return { status: 'invalid' };
      if (rule.min !== undefined && n < rule.min) return { status: 'invalid' };
      if (rule.max !== undefined && n > rule.max) return { status: 'invalid' };
      return { status: 'valid', value: n };
    }
    case 'email':
      return EMAIL.test(answer) ? { status: 'valid', value: answer } : { status: 'invalid' };
    case 'phone': {
      const phone = answer.replace(/[\s\-.()]/g, '');
      return E164.test(phone) ? { status: 'valid', value: phone } : { status: 'invalid' };
    }
    case 'date':
      return isCalendarDate(answer) ? { status: 'valid', value: answer } : { status: 'invalid' };
    case 'oneOf': {
      const hit = rule.values.find((v) => normalizeText(v) === normalizeText(answer));
      return hit === undefined ? { status: 'invalid' } : { status: 'valid', value: hit };
    }
  }
}

function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}
