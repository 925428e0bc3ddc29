import { assign, enqueueActions, setup, type AnyStateMachine } from 'xstate';
import {
  FLOW_EVENT_TYPES,
  type FlowEvent,
  type FlowInput,
  type RunnableFlow,
  type Vars,
} from './contract.js';
import { sayItems } from './content-schema.js';
import { decide, triggerTarget, type Decision } from './decide.js';
import { FlowError } from './flow-error.js';
import {
  autoTarget,
  enterState,
  leaveState,
  runtimeOf,
  takesAnswer,
  type FlowRuntime,
} from './flow-runtime.js';
import { FlowSchema, type FlowDefinition } from './flow-schema.js';
import { structuralDiagnostics } from './lint-structure.js';
import {
  assignVars,
  flushMemory,
  initialRouting,
  toWork,
  type CompiledContext,
} from './machine-context.js';
import { migrateSnapshot } from './migrate-snapshot.js';
import { understandQuery } from './understand-query.js';
import { callerUnderstanding, EMPTY_NLU, type NluRuntime } from './understand-runtime.js';

/** Name of the waiting pre-state (cannot clash: state names start with a letter). */
export const IDLE_STATE = '_idle';

/** Machines built by {@link compileFlow}: their context is plain JSON by construction. */
const compiledMachines = new WeakSet<AnyStateMachine>();

/**
 * True for a machine built by {@link compileFlow}. Such a machine's context holds only
 * JSON values, follows the contract's shape by construction, and its outbox is reset at
 * every event (so effects already executed never matter to it again).
 */
export function isCompiledMachine(machine: AnyStateMachine): boolean {
  return compiledMachines.has(machine);
}

/** Options of {@link compileFlow}. */
export interface CompileOptions {
  /** Policy for snapshots persisted under another version (default: restart). */
  readonly onVersionChange?: RunnableFlow['onVersionChange'];
}

/**
 * Compiles a flow into a pure XState v5 machine following the contract of
 * `src/flows/contract.ts`: every side effect is left in `context.outbox` for the engine.
 * Throws {@link FlowError} when the flow is structurally invalid (unknown targets,
 * `goto` loops, bad durations): run `lintFlow` first for file positions.
 * @example
 * const flow = compileFlow(defineFlow({ id: 'hello', version: 1, start: 'hi', states: { hi: { say: 'Hello!', final: true } } }));
 * const actor = createActor(flow.machine, { input: { conversationId: 'c1', contact } }).start();
 */
export function compileFlow(def: FlowDefinition, options: CompileOptions = {}): RunnableFlow {
  const parsed = FlowSchema.safeParse(def);
  if (!parsed.success) {
    throw new FlowError(
      String(def.id),
      parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    );
  }
  const flow = parsed.data;
  const errors = structuralDiagnostics(flow).filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new FlowError(flow.id, errors);
  const rt = runtimeOf(flow);
  return {
    id: flow.id,
    version: flow.version,
    machine: buildMachine(rt),
    handlers: handlerNames(flow),
    onVersionChange: options.onVersionChange ?? {
      kind: 'migrate',
      migrate: (persisted) => migrateSnapshot(flow, persisted),
    },
    subflows: subflowNames(flow),
    hasTrigger: (message) => triggerTarget(rt, message) !== undefined,
    // A flow without understanding still answers the query inside a sub-flow, where its
    // callers' global intents act (with `outer`); it never asks for its own texts.
    understandQuery: queryOf(rt, rt.nlu ?? EMPTY_NLU),
    burstOf: (snapshot, timer) => {
      const context: unknown = Reflect.get(Object(snapshot), 'context');
      if (typeof context !== 'object' || context === null) return undefined;
      const burst = toWork(context as CompiledContext).burst;
      return burst !== undefined && burst !== null && burst.timer === timer
        ? burst.text
        : undefined;
    },
    ...(rt.nlu === undefined
      ? {}
      : {
          intents: [...rt.nlu.intents.values()],
          ...(rt.def.understand?.outOfScope === undefined
            ? {}
            : { outOfScope: rt.def.understand.outOfScope }),
          callerUnderstanding: callerUnderstanding(rt.def, rt.nlu),
        }),
  };
}

/** The machine's pure question to the engine, on a persisted snapshot (see contract.ts). */
function queryOf(rt: FlowRuntime, nlu: NluRuntime): NonNullable<RunnableFlow['understandQuery']> {
  return (snapshot, message, outer = []) => {
    if (rt.nlu === undefined && outer.length === 0) return undefined;
    if (snapshot === null || snapshot === undefined) {
      const fresh = {
        ...initialRouting(),
        outbox: [],
        seq: 0,
        vars: { ...(rt.def.vars ?? {}) },
        ended: false,
        contact: { phone: '', id: '', name: '' },
      };
      return understandQuery(rt, nlu, null, toWork(fresh), message, outer);
    }
    const value: unknown = Reflect.get(Object(snapshot), 'value');
    const context: unknown = Reflect.get(Object(snapshot), 'context');
    if (typeof value !== 'string' || typeof context !== 'object' || context === null)
      return undefined;
    if (value !== IDLE_STATE && rt.def.states[value] === undefined) return undefined;
    const w = toWork(context as CompiledContext);
    const q = understandQuery(rt, nlu, value === IDLE_STATE ? null : value, w, message, outer);
    // Without understanding of its own, only the callers' intents act here.
    return q === undefined || rt.nlu !== undefined ? q : { ...q, knowledge: false };
  };
}

/** The initial `memory` field: absent when empty (small snapshots). */
function memoryOf(defaults: Vars, given: Vars | undefined): { memory?: Vars } {
  const memory = { ...defaults, ...given };
  return Object.keys(memory).length === 0 ? {} : { memory };
}

/** Ids of the flows a flow runs as sub-flows, sorted. */
export function subflowNames(flow: FlowDefinition): string[] {
  const names = new Set<string>();
  for (const s of Object.values(flow.states)) if (s.subflow !== undefined) names.add(s.subflow.use);
  return [...names].sort();
}

/** Every handler a flow may call (`call.handler`, `handoff.notify`), sorted. */
export function handlerNames(flow: FlowDefinition): string[] {
  const names = new Set<string>();
  for (const s of Object.values(flow.states)) {
    if (s.call !== undefined) names.add(s.call.handler);
    if (s.handoff?.notify !== undefined) names.add(s.handoff.notify);
  }
  return [...names].sort();
}

/**
 * The decision of the `decides` guards, asked once per event. Every state lists each
 * state as a guarded target of every event type, so without this one event would run
 * {@link decide} once per candidate target (a 30-state flow: 30 times). The guards of
 * one transition list see the same context and event objects (XState keeps both
 * immutable), and `decide` is pure, so the last answer for the same three is reused.
 */
function guardDecision(
  rt: FlowRuntime,
): (from: string | null, context: CompiledContext, event: FlowEvent) => Decision {
  let last:
    { from: string | null; context: CompiledContext; event: FlowEvent; d: Decision } | undefined;
  return (from, context, event) => {
    if (last?.context === context && last.event === event && last.from === from) return last.d;
    const d = decide(rt, from, toWork(context), event);
    last = { from, context, event, d };
    return d;
  };
}

function buildMachine(rt: FlowRuntime): AnyStateMachine {
  const names = Object.keys(rt.def.states);
  const decision = guardDecision(rt);
  const machineSetup = setup({
    types: {
      context: {} as CompiledContext,
      events: {} as FlowEvent,
      input: {} as FlowInput,
    },
    guards: {
      decides: ({ context, event }, params: { from: string | null; to: string }) => {
        const d = decision(params.from, context, event);
        return d.kind === 'goto' && d.target === params.to;
      },
      failedTo: ({ context }, params: { to: string }) => context.failed === params.to,
      autoTo: ({ context }, params: { from: string; to: string }) =>
        context.failed === null && autoTarget(rt, params.from, toWork(context)) === params.to,
    },
    actions: {
      step: assign(({ context, event }, params: { from: string | null }) => {
        const w = toWork(context);
        // A message decided again after a migration's quiet landing (see `replay`) adds to
        // the effects of the same event.
        if (context.landing !== true) w.outbox = [];
        w.landing = undefined;
        const d = decide(rt, params.from, w, event);
        if (d.kind === 'goto') {
          if (d.seq !== undefined) w.seq = Math.max(w.seq, d.seq);
          if (params.from !== null) leaveState(w);
          assignVars(w, d.vars);
          d.before?.(w);
          if (d.error !== undefined) w.lastError = d.error;
          if (d.sendFailure === true) w.sendFailureSeq = w.seq;
        } else if (d.kind === 'stay') {
          d.apply(w);
        }
        flushMemory(context.memory, w);
        return w;
      }),
      enter: assign(({ context }, params: { state: string }) => {
        const w = toWork(context);
        enterState(rt, w, params.state, context.landing === true);
        flushMemory(context.memory, w);
        return w;
      }),
      // After a migration's quiet landing: the message that moved the conversation is
      // decided again in the state it landed in, within the same event (one write).
      replay: enqueueActions(({ context, event, enqueue }) => {
        if (context.landing === true) enqueue.raise(event);
      }),
      settle: assign(({ context }) => {
        const w = toWork(context);
        leaveState(w);
        w.failed = null;
        return w;
      }),
    },
  });

  const routed = (from: string | null) =>
    Object.fromEntries(
      FLOW_EVENT_TYPES.map((type) => [
        type,
        [
          ...names.map((to) => ({
            guard: { type: 'decides' as const, params: { from, to } },
            target: to,
            reenter: true,
            actions: { type: 'step' as const, params: { from } },
          })),
          { actions: { type: 'step' as const, params: { from } } },
        ],
      ]),
    );

  const states: Record<string, object> = { [IDLE_STATE]: { on: routed(null) } };
  for (const name of names) {
    const s = rt.def.states[name];
    if (s === undefined) continue;
    const enter = { type: 'enter' as const, params: { state: name } };
    // Only a state that takes answers can be a migration's quiet landing.
    const entry = takesAnswer(s) ? [enter, { type: 'replay' as const }] : enter;
    // A final state that pauses (`delay:`) stays an ordinary node until its last message:
    // an XState final node would take no more events (the delay's timer).
    const pauses = sayItems(s.say).some((item) => item.delay !== undefined);
    if (s.final === true && !pauses) {
      states[name] = { type: 'final', entry };
      continue;
    }
    const always: object[] = [];
    const onError = rt.def.onError;
    if (onError !== undefined && onError !== name) {
      always.push({
        guard: { type: 'failedTo', params: { to: onError } },
        target: onError,
        actions: 'settle',
      });
    }
    const autos = new Set([
      ...(s.goto === undefined ? [] : [s.goto]),
      // An ask answered on entry by a value understood earlier goes on at once.
      ...(s.ask !== undefined && rt.nlu !== undefined ? [s.ask.goto] : []),
      ...(s.branch ?? []).map((b) => b.goto),
    ]);
    for (const to of autos)
      always.push({
        guard: { type: 'autoTo', params: { from: name, to } },
        target: to,
        actions: 'settle',
      });
    states[name] = { entry, on: routed(name), ...(always.length > 0 ? { always } : {}) };
  }

  const initialVars = { ...(rt.def.vars ?? {}) };
  const initialMemory = { ...(rt.def.contact ?? {}) };
  // The states object is built from data, so its literal types cannot be checked here;
  // every action and guard it names is declared in setup() above.
  const machine = machineSetup.createMachine({
    id: `${rt.def.id}@${rt.def.version}`,
    initial: IDLE_STATE,
    context: ({ input }) => ({
      outbox: [],
      seq: 0,
      vars: { ...initialVars },
      ended: false,
      contact: input.contact,
      ...initialRouting(),
      ...memoryOf(initialMemory, input.memory),
    }),
    states: states as never,
  });
  // exactOptionalPropertyTypes makes a concrete machine differ from AnyStateMachine only
  // in optional-property typing; the value is an ordinary XState machine.
  const built = machine as unknown as AnyStateMachine;
  compiledMachines.add(built);
  return built;
}
