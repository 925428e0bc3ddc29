import { createActor, type AnyStateMachine, type Snapshot, type StateValue } from 'xstate';
import type { ContactInfo, FlowEvent } from '../flows/contract.js';
import { FlowContextSchema } from './schemas.js';
import type { z } from 'zod';

/** The result of feeding one event to a flow machine. */
export type StepResult =
  | {
      readonly status: 'ok';
      /** The new persisted snapshot (JSON). */
      readonly snapshot: unknown;
      readonly context: z.infer<typeof FlowContextSchema>;
      readonly state: string;
    }
  | { readonly status: 'error'; readonly error: unknown };

/** Input of {@link stepFlow}. */
export interface StepInput {
  readonly machine: AnyStateMachine;
  /** The persisted snapshot to restore, or undefined to start a new actor. */
  readonly snapshot: unknown;
  readonly conversationId: string;
  readonly contact: ContactInfo;
  readonly event: FlowEvent;
}

/**
 * Restores (or creates) an actor, feeds it one event and returns its new persisted
 * snapshot. The machine is pure, so this does no I/O; an exception or an actor that
 * ends in the `error` status is an outcome, not a crash.
 */
export function stepFlow(input: StepInput): StepResult {
  let failure: unknown;
  try {
    const flowInput = { conversationId: input.conversationId, contact: input.contact };
    const actor =
      input.snapshot === undefined || input.snapshot === null
        ? createActor(input.machine, { input: flowInput })
        : // XState validates the persisted snapshot itself when restoring it.
          createActor(input.machine, {
            input: flowInput,
            snapshot: input.snapshot as Snapshot<unknown>,
          });
    // Without an error listener XState rethrows errors asynchronously (a process crash).
    const sub = actor.subscribe({ error: (err) => void (failure = err) });
    actor.start();
    actor.send(input.event);
    const snap = actor.getSnapshot();
    const persisted: unknown = actor.getPersistedSnapshot();
    sub.unsubscribe();
    actor.stop();
    if (failure !== undefined) return { status: 'error', error: failure };
    if (snap.status === 'error') return { status: 'error', error: snap.error };
    const context = FlowContextSchema.safeParse(snap.context);
    if (!context.success) {
      return {
        status: 'error',
        error: new Error(`flow context does not follow the contract: ${context.error.message}`),
      };
    }
    // JSON round trip: what is stored must be what is restored.
    const snapshot: unknown = JSON.parse(JSON.stringify(persisted));
    return {
      status: 'ok',
      snapshot,
      context: context.data,
      state: statepath(snap.value as StateValue),
    };
  } catch (error) {
    return { status: 'error', error };
  }
}

/** `{ order: 'ask' }` → `order.ask`. */
export function statepath(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([key, child]) => (child === undefined ? key : `${key}.${statepath(child)}`))
    .join(',');
}
