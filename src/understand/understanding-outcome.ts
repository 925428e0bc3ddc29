import type { Understanding } from './types.js';

/** What a proposal amounts to, for metrics and logs (the flow decides what it does). */
export type UnderstandingOutcome =
  | 'handoff'
  | 'correction'
  | 'intent'
  | 'knowledge'
  | 'slots'
  | 'out_of_scope'
  | 'below_threshold'
  | 'none';

/**
 * The outcome of a proposal judged by `threshold`, first that applies: a handoff request,
 * a correction, an intent at the threshold, a knowledge answer at the threshold, slot
 * values alone, a text closest to the flow's out-of-scope examples, an intent or answer
 * below the threshold, nothing.
 * @example
 * understandingOutcome({ source: 'builtin', intent: { id: 'order', confidence: 0.9 } }, 0.6); // 'intent'
 */
export function understandingOutcome(u: Understanding, threshold: number): UnderstandingOutcome {
  if (u.handoff === true) return 'handoff';
  if (u.correction === true && Object.keys(u.slots ?? {}).length > 0) return 'correction';
  if (u.intent !== undefined && u.intent.confidence >= threshold) return 'intent';
  if (u.knowledge !== undefined && u.knowledge.confidence >= threshold) return 'knowledge';
  if (Object.keys(u.slots ?? {}).length > 0) return 'slots';
  if (u.outOfScope === true) return 'out_of_scope';
  if (u.intent !== undefined || u.knowledge !== undefined) return 'below_threshold';
  return 'none';
}
