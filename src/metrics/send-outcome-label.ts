import { ERROR_CODES } from '../api/resources.js';

/** How one send effect ended, as metric labels (bounded: see {@link sendOutcomeLabel}). */
export interface SendOutcomeLabel {
  /**
   * `accepted`, `rejected`, `unknown` (outcome to reconcile, never replayed),
   * `suppressed_human_owned`, `held_for_window`, `window_closed`, `already_done`
   * (a replayed effect whose send had already happened) or `other`.
   */
  readonly outcome: string;
  /** The API error code of a rejection (an `ERROR_CODES` value or `other`). */
  readonly code: string | undefined;
  /** True when the state's template fallback was sent because the window was closed. */
  readonly templateFallback: boolean;
}

const PLAIN = new Set([
  'accepted',
  'unknown',
  'suppressed_human_owned',
  'held_for_window',
  'window_closed',
]);
const CODES: readonly string[] = ERROR_CODES;

/**
 * Maps the engine's outcome string of a `send` effect (see the `effect` bot event) to
 * bounded labels.
 * @example
 * sendOutcomeLabel('rejected:contact_opted_out'); // { outcome: 'rejected', code: 'contact_opted_out', templateFallback: false }
 */
export function sendOutcomeLabel(raw: string): SendOutcomeLabel {
  if (raw.startsWith('template_fallback:'))
    return { ...sendOutcomeLabel(raw.slice('template_fallback:'.length)), templateFallback: true };
  if (PLAIN.has(raw)) return { outcome: raw, code: undefined, templateFallback: false };
  if (raw.startsWith('already_'))
    return { outcome: 'already_done', code: undefined, templateFallback: false };
  if (raw === 'owned_by_human')
    return { outcome: 'rejected', code: 'conversation_owned_by_human', templateFallback: false };
  if (raw.startsWith('rejected:')) {
    const code = raw.slice('rejected:'.length);
    return {
      outcome: 'rejected',
      code: CODES.includes(code) ? code : 'other',
      templateFallback: false,
    };
  }
  return { outcome: 'other', code: undefined, templateFallback: false };
}
