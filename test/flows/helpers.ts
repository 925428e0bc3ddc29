import { createActor, type Actor, type AnyStateMachine } from 'xstate';
import type { Effect, FlowEvent, InboundMessage } from '../../src/flows/contract.js';
import { compileFlow, defineFlow, type FlowDefinitionInput } from '../../src/flows/index.js';

export const contact = { phone: '+15550001111', id: 'ct_1', name: 'Ana' };
export const input = { conversationId: 'conv_1', contact };

let n = 0;
/** An inbound text message event. */
export function text(body: string): FlowEvent {
  return { type: 'inbound.message', message: message({ type: 'text', text: body }) };
}
/** An inbound interactive reply event. */
export function tap(optionId: string): FlowEvent {
  return {
    type: 'inbound.message',
    message: message({ type: 'interactive', optionId, label: 'x' }),
  };
}
/** An inbound message event of any type. */
export function inbound(part: Partial<InboundMessage> & Pick<InboundMessage, 'type'>): FlowEvent {
  return { type: 'inbound.message', message: message(part) };
}
export function message(
  part: Partial<InboundMessage> & Pick<InboundMessage, 'type'>,
): InboundMessage {
  n += 1;
  return { id: `m${n}`, conversationId: 'conv_1', occurredAt: '2026-01-01T00:00:00.000Z', ...part };
}

/** Drives a compiled flow like the engine does. */
export interface Driver {
  readonly actor: Actor<AnyStateMachine>;
  send(event: FlowEvent): Effect[];
  state(): string;
  context(): {
    outbox: Effect[];
    seq: number;
    vars: Record<string, unknown>;
    ended: boolean;
    lastError: { code: string; message: string } | null;
    pending: string | null;
    timer: string | null;
  };
}

export function drive(def: FlowDefinitionInput, machine?: AnyStateMachine): Driver {
  const flow = machine ?? compileFlow(defineFlow(def)).machine;
  const actor = createActor(flow, { input }).start();
  return wrap(actor);
}

export function wrap(actor: Actor<AnyStateMachine>): Driver {
  return {
    actor,
    send(event) {
      actor.send(event);
      return actor.getSnapshot().context.outbox as Effect[];
    },
    state() {
      return String(actor.getSnapshot().value);
    },
    context() {
      const ctx: ReturnType<Driver['context']> = actor.getSnapshot().context;
      return ctx;
    },
  };
}

/** The bodies of text sends and the kinds of other effects, for compact assertions. */
export function summary(effects: readonly Effect[]): string[] {
  return effects.map((e) => {
    if (e.kind !== 'send') return e.kind;
    const c = e.content as {
      type: string;
      text?: { body: string };
      interactive?: { type: string };
    };
    if (c.type === 'text') return `text:${c.text?.body ?? ''}`;
    if (c.type === 'interactive') return `menu:${c.interactive?.type ?? ''}`;
    return c.type;
  });
}
