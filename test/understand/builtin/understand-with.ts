import { createBuiltinUnderstander } from '../../../src/understand/builtin/index.js';
import type { IntentSpec, Understanding } from '../../../src/understand/types.js';

/** The day the builtin's rule tests read their messages on (UTC). */
export const RULES_NOW = Date.parse('2026-11-28T12:00:00Z');

/** A fresh builtin understander's reading of `text` against `intents` (no slots, UTC, {@link RULES_NOW}). */
export function understandWith(
  intents: readonly IntentSpec[],
  text: string,
  locale: string,
): Promise<Understanding> {
  return createBuiltinUnderstander().understand({
    text,
    locale,
    timezone: 'UTC',
    now: RULES_NOW,
    intents,
    slots: [],
  });
}
