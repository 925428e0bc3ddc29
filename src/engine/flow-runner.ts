import { createActor, type AnyStateMachine, type Snapshot, type StateValue } from 'xstate';
import { isCompiledMachine } from '../flows/compile-flow.js';
import type { ContactInfo, FlowContext, FlowEvent, Vars } from '../flows/contract.js';
import type { CompiledContext } from '../flows/machine-context.js';
import type { LiveActor } from './actor-cache.js';
import { FlowContextSchema } from './schemas.js';

/** The result of feeding one event to a flow machine. */
export type StepResult =
  | {
      readonly status: 'ok';
      /** The new persisted snapshot (JSON values only). */
      readonly snapshot: unknown;
      readonly context: FlowContext;
      readonly state: string;
      /**
       * The actor, still running, when it may be kept for the next event (a compiled
       * machine whose snapshot is active); otherwise it was stopped.
       */
      readonly live?: LiveActor;
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
  /** Contact memory given to a new actor (ignored when restoring a snapshot). */
  readonly memory?: Vars | undefined;
  /** A running actor of `machine` whose persisted snapshot is `snapshot` (skips restoring). */
  readonly live?: LiveActor | undefined;
}

/**
 * Restores (or creates, or takes the given live) actor, feeds it one event and returns
 * its new persisted snapshot. The machine is pure, so this does no I/O; an exception or
 * an actor that ends in the `error` status is an outcome, not a crash.
 *
 * A machine built by `compileFlow` is trusted to follow the contract with JSON values
 * only (its context is built that way), so its context is not re-validated and its
 * persisted snapshot is stored as it is; any other machine's context is checked with
 * zod and its snapshot goes through a JSON round trip (what is stored is what is restored).
 */
export function stepFlow(input: StepInput): StepResult {
  let live = input.live;
  try {
    if (live === undefined) live = startActor(input);
    else live.failure = undefined;
    const { actor } = live;
    actor.send(input.event);
    const snap = actor.getSnapshot();
    const failure = live.failure;
    if (failure !== undefined || snap.status === 'error') {
      actor.stop();
      return { status: 'error', error: failure ?? snap.error };
    }
    const persisted: unknown = actor.getPersistedSnapshot();
    const state = statepath(snap.value as StateValue);
    if (isCompiledMachine(input.machine)) {
      // Built by compileFlow: its context type is CompiledContext by construction.
      const context = snap.context as CompiledContext;
      const keep = snap.status === 'active';
      if (!keep) actor.stop();
      return {
        status: 'ok',
        snapshot: persisted,
        context: {
          outbox: context.outbox,
          seq: context.seq,
          vars: context.vars,
          ended: context.ended,
          ...(context.memory === undefined ? {} : { memory: context.memory }),
        },
        state,
        ...(keep ? { live } : {}),
      };
    }
    actor.stop();
    const context = FlowContextSchema.safeParse(snap.context);
    if (!context.success) {
      return {
        status: 'error',
        error: new Error(`flow context does not follow the contract: ${context.error.message}`),
      };
    }
    // JSON round trip: what is stored must be what is restored.
    const snapshot: unknown = JSON.parse(JSON.stringify(persisted));
    return { status: 'ok', snapshot, context: context.data, state };
  } catch (error) {
    live?.actor.stop();
    return { status: 'error', error };
  }
}

function startActor(input: StepInput): LiveActor {
  const flowInput = {
    conversationId: input.conversationId,
    contact: input.contact,
    ...(input.memory === undefined ? {} : { memory: input.memory }),
  };
  const actor =
    input.snapshot === undefined || input.snapshot === null
      ? createActor(input.machine, { input: flowInput })
      : // XState validates the persisted snapshot itself when restoring it.
        createActor(input.machine, {
          input: flowInput,
          snapshot: input.snapshot as Snapshot<unknown>,
        });
  const live: LiveActor = { actor, machine: input.machine, failure: undefined };
  // Without an error listener XState rethrows errors asynchronously (a process crash).
  actor.subscribe({ error: (err) => void (live.failure = err) });
  actor.start();
  return live;
}

/** `{ order: 'ask' }` → `order.ask`. */
export function statepath(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([key, child]) => (child === undefined ? key : `${key}.${statepath(child)}`))
    .join(',');
}
