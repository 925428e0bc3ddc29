import { assign, setup } from 'xstate';
import type { Effect, FlowEvent, FlowInput, RunnableFlow, Vars } from '../../src/flows/contract.js';

interface EchoContext {
  outbox: Effect[];
  seq: number;
  vars: Vars;
  ended: boolean;
}

/**
 * A hand-written XState v5 machine following the flow contract (no compiler): it echoes
 * every text, records the last event it heard about in `vars`, and sets a timer on
 * "timer <name>".
 */
export const echoMachine = setup({
  types: { context: {} as EchoContext, input: {} as FlowInput, events: {} as FlowEvent },
}).createMachine({
  id: 'echo',
  context: () => ({ outbox: [], seq: 0, vars: {}, ended: false }),
  initial: 'talking',
  states: {
    talking: {
      on: {
        'inbound.message': {
          actions: assign(({ context, event }) => {
            const body = event.message.text ?? event.message.optionId ?? event.message.type;
            const seq = context.seq + 1;
            const outbox: Effect[] = body.startsWith('timer ')
              ? [{ kind: 'timer.start', seq, name: body.slice(6), delayMs: 60_000 }]
              : [{ kind: 'send', seq, content: { type: 'text', text: { body: `echo: ${body}` } } }];
            return { seq, outbox };
          }),
        },
        'timer.fired': {
          actions: assign(({ context, event }) => ({
            seq: context.seq + 1,
            outbox: [
              {
                kind: 'send',
                seq: context.seq + 1,
                content: { type: 'text', text: { body: `fired: ${event.name}` } },
              },
            ] satisfies Effect[],
          })),
        },
        '*': {
          actions: assign(({ context, event }) => ({
            outbox: [],
            vars: {
              ...context.vars,
              last: event.type,
              ...('code' in event ? { code: event.code } : {}),
            },
          })),
        },
      },
    },
  },
});

/** The echo machine as a runnable flow. */
export const echoFlow: RunnableFlow = {
  id: 'echo',
  version: 1,
  machine: echoMachine,
  handlers: [],
  onVersionChange: { kind: 'restart' },
};
