/**
 * Fair sharing of one budget (the workspace's 1,200 sends/min) between its members (the
 * business numbers of the workspace). A plain shared sliding window is first come, first
 * served: a number whose sends arrive a little earlier after each freed unit can take the
 * whole window and starve another. So a take by member `m` is admitted only when, after
 * it, the window still has room for every other *active* member's unused reservation:
 *
 *   active  = members that asked within the last window (taken or refused), `m` included
 *   share   = floor(limit / |active|)
 *   owed    = Σ over other active members j of max(0, share − used_j)
 *   admit   ⇔ used_total + 1 + owed ≤ limit
 *
 * It is work-conserving (an idle member reserves nothing, so one busy number may use the
 * whole budget) and each saturated member gets at least `share` units per window: once it
 * asks, the others stop taking beyond what leaves its reservation free, and within one
 * window its count reaches `share`. The same rule runs in memory ({@link fairShareWait})
 * and in Redis (the `takeAll` script of the Redis limiter).
 */

/** One unit in a shared budget's window: who took it, and its time (see limiter.ts). */
export interface SharedEntry {
  readonly member: string;
  readonly at: number;
}

/**
 * The wait (ms) before `member` may take one unit of a shared budget, or 0 when it may
 * now. `entries` are the window's units ascending by time (already pruned to
 * `at > now − windowMs`); `active` the members that asked within the window (`member`
 * included). A positive wait is the least possible one: the time until the oldest unit
 * whose leaving helps `member` (its own, or one of a member above its share) leaves.
 */
export function fairShareWait(
  entries: readonly SharedEntry[],
  active: ReadonlySet<string>,
  member: string,
  limit: number,
  windowMs: number,
  now: number,
): number {
  const share = Math.floor(limit / Math.max(1, active.size));
  const used = new Map<string, number>();
  for (const e of entries) used.set(e.member, (used.get(e.member) ?? 0) + 1);
  let owed = 0;
  for (const other of active) {
    if (other !== member) owed += Math.max(0, share - (used.get(other) ?? 0));
  }
  if (entries.length + 1 + owed <= limit) return 0;
  for (const e of entries) {
    if (e.member === member || (used.get(e.member) ?? 0) > share)
      return Math.max(1, Math.ceil(Math.min(e.at, now) + windowMs - now));
  }
  return windowMs;
}
