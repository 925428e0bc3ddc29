import { StateAnalytics, type StateFigures } from '../state-analytics.js';

/** Where one conversation was, step by step, oldest first (from its journal and document). */
export interface StateTrail {
  readonly conversationId: string;
  readonly steps: readonly {
    readonly flowId: string;
    readonly state: string;
    readonly at: number;
    /** The event type that moved it there (`timer.fired` marks the state left as dropped). */
    readonly cause: string | undefined;
    readonly ended: boolean;
  }[];
}

/**
 * Per-state figures of real conversations: the same {@link StateAnalytics} as the sandbox
 * studio, fed with each conversation's trail instead of a live session. Visits and median
 * times count what the journals still hold (they are bounded); `current` counts every
 * conversation read.
 * @example
 * const figures = attachAnalytics(trails, Date.now()).figures('support', Date.now());
 */
export function attachAnalytics(
  trails: readonly StateTrail[],
  options: { readonly idleMs?: number } = {},
): { figures(flowId: string, now: number): Record<string, StateFigures> } {
  const analytics = new StateAnalytics(
    options.idleMs === undefined ? {} : { idleMs: options.idleMs },
  );
  for (const trail of trails)
    for (const step of trail.steps)
      analytics.record({ conversationId: trail.conversationId, ...step });
  return analytics;
}
