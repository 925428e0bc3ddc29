import type { SlotSpec } from '../understand/types.js';
import type { VarValue } from './contract.js';
import { normalizeText } from './text-match.js';
import { validateAnswer } from './validate-answer.js';

/**
 * Checks of slot values an understander proposed for variables no `ask` captures: the
 * slot's kind is their only rule (an ask var is checked by its ask's own rules instead).
 */

/** A proposed value as a variable value. */
export function slotVarValue(value: string | number | boolean): VarValue {
  return value;
}

/** The value to store for a slot of `spec`, or undefined when its kind refuses it. */
export function checkSlotValue(spec: SlotSpec, value: VarValue): VarValue | undefined {
  if (value === null) return undefined;
  const text = String(value).trim();
  switch (spec.kind) {
    case 'text':
    case 'datetime':
      return text === '' ? undefined : text;
    case 'number':
    case 'amount': {
      const n = typeof value === 'number' ? value : Number(text.replace(',', '.'));
      return Number.isFinite(n) && text !== '' ? n : undefined;
    }
    case 'integer': {
      const n = typeof value === 'number' ? value : Number(text);
      return Number.isInteger(n) && text !== '' ? n : undefined;
    }
    case 'date':
    case 'time':
    case 'email':
    case 'phone': {
      const r = validateAnswer(text, { kind: spec.kind });
      return r.status === 'valid' ? r.value : undefined;
    }
    case 'oneOf': {
      const t = normalizeText(text);
      const hit = spec.choices?.find(
        (c) =>
          normalizeText(c.value) === t || (c.synonyms ?? []).some((s) => normalizeText(s) === t),
      );
      return hit?.value;
    }
  }
}
