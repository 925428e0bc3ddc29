import type { FlowDefinition } from './flow-schema.js';

/** Name of the compiled machine's waiting pre-state (see `IDLE_STATE` in compile-flow.ts). */
const IDLE = '_idle';

/**
 * The default flow-version rule of compiled flows: a persisted snapshot of an older (or
 * edited) version of the flow is kept when its state still exists (variables declared
 * since are added with their initial values). When its state was removed (or renamed),
 * the conversation waits in the pre-state and continues at its next event (a message, a
 * timer, a handler result) in `migrate[oldState]`, or in the flow's `start` state.
 * A message that moves it into a `migrate:` target waiting for an answer (a menu, an
 * ask) is taken as that answer, without the target's messages being sent; a message
 * that moves it to `start` (no target) is handled as a first message. Both happen in
 * the same machine step, so in the one document write that applies the message.
 * Returns undefined (restart the conversation) for a snapshot it cannot read.
 * @example
 * // flows/x.yaml: migrate: { askSize: chooseSize }
 */
export function migrateSnapshot(flow: FlowDefinition, persisted: unknown): unknown {
  if (typeof persisted !== 'object' || persisted === null) return undefined;
  const snap = persisted as Record<string, unknown>;
  const value = snap['value'];
  const context = snap['context'];
  if (typeof value !== 'string' || typeof context !== 'object' || context === null)
    return undefined;
  const ctx = context as Record<string, unknown>;
  const oldVars = typeof ctx['vars'] === 'object' && ctx['vars'] !== null ? ctx['vars'] : {};
  const vars = { ...(flow.vars ?? {}), ...oldVars };
  const resumeAt = ctx['resumeAt'];
  // Waiting to continue in a state this version removed too (two reloads, no event).
  const removed =
    value === IDLE
      ? typeof resumeAt === 'string' && !Object.hasOwn(flow.states, resumeAt)
        ? resumeAt
        : undefined
      : Object.hasOwn(flow.states, value)
        ? undefined
        : value;
  if (removed === undefined) return { ...snap, context: { ...ctx, vars } };
  const target = migrationTarget(flow, removed);
  const mapped = flow.migrate?.[removed];
  const first = mapped === undefined || mapped !== target;
  return {
    ...snap,
    status: 'active',
    value: IDLE,
    context: {
      ...ctx,
      vars,
      pending: null,
      attempts: 0,
      delay: null,
      burst: null,
      resumeAt: target,
      ...(first ? { resumeFirst: true } : {}),
    },
  };
}

/** Where a conversation in a removed state `old` continues: `migrate[old]`, else `start`. */
export function migrationTarget(flow: FlowDefinition, old: string): string {
  const mapped = flow.migrate?.[old];
  return mapped !== undefined && Object.hasOwn(flow.states, mapped) ? mapped : flow.start;
}
