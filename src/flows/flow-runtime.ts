import { validateContent, type Content } from '../messages/index.js';
import type { OutboundContent, WindowRule } from './contract.js';
import { sayItems, type MessageItem, type SayInput } from './content-schema.js';
import type { FlowDefinition, StateDef } from './flow-schema.js';
import { interpolate } from './interpolate.js';
import { cancelReminder, scheduleReminder } from './proactive-runtime.js';
import { emit, rememberWindow, type Work } from './machine-context.js';
import {
  parseDynamicRows,
  renderItem,
  renderMenu,
  renderTemplate,
  type DynamicRow,
} from './render.js';

/**
 * Run-time helpers of a compiled machine: rendering and emitting sends (with their
 * window rules) and the prompts of a state. All pure functions over a {@link Work} copy.
 */

/** A flow with its durations resolved, as the machine uses it. */
export interface FlowRuntime {
  readonly def: FlowDefinition;
  /** `timeout.after` of each state, in ms. */
  readonly timeoutMs: Readonly<Record<string, number>>;
  /** `call.timeout` of each state, in ms. */
  readonly callTimeoutMs: Readonly<Record<string, number>>;
}

/** Looks a state up (the compiler only creates nodes for declared states). */
export function stateOf(rt: FlowRuntime, name: string): StateDef {
  const s = rt.def.states[name];
  if (s === undefined) throw new Error(`unknown state "${name}"`);
  return s;
}

/**
 * Content objects validated here, until the send path takes them (FIFO, bounded: an
 * entry nobody takes, e.g. a machine that failed later, is dropped after a while). A
 * plain Map on purpose: a WeakMap that gets an entry per message makes V8 slow.
 */
const validated = new Map<object, Content>();
const VALIDATED_MAX = 4096;

/**
 * Takes the content as validated by a compiled machine in this process, or undefined
 * when this very object was not (for example, read back from a store): lets the send
 * path skip checking it a second time. Nothing downstream changes effect content.
 */
export function takeValidatedContent(content: object): Content | undefined {
  const value = validated.get(content);
  if (value !== undefined) validated.delete(content);
  return value;
}

function checkContent(content: OutboundContent): ReturnType<typeof validateContent> {
  const checked = validateContent(content);
  if (checked.status === 'valid') {
    validated.set(checked.value, checked.value);
    if (validated.size > VALIDATED_MAX) {
      const oldest = validated.keys().next();
      if (oldest.done !== true) validated.delete(oldest.value);
    }
  }
  return checked;
}

function fillFor(w: Work): (text: string) => string {
  return (text) => interpolate(text, { vars: w.vars, contact: w.contact, error: w.lastError });
}

/** Records invalid content: the error target is set in `w.failed` by the caller. */
function fail(w: Work, where: string, messages: readonly string[]): false {
  w.lastError = { code: 'invalid_content', message: `${where}: ${messages.join('; ')}` };
  return false;
}

/** Validates and emits one send; false (and nothing emitted) when the content is invalid. */
export function sendContent(
  rt: FlowRuntime,
  w: Work,
  where: string,
  content: OutboundContent,
  rule: MessageItem['window'],
): boolean {
  const checked = checkContent(content);
  if (checked.status === 'invalid')
    return fail(
      w,
      where,
      checked.issues.map((i) => `${i.path} ${i.message}`),
    );
  if (content.type === 'template') {
    emit(w, { kind: 'send', content: checked.value });
    return true;
  }
  const r = rule ?? rt.def.window ?? { onClosed: 'wait' as const };
  let window: WindowRule;
  if (r.onClosed === 'template') {
    const fallback = checkContent(renderTemplate(r.template, fillFor(w)));
    if (fallback.status === 'invalid') {
      return fail(
        w,
        `${where} window template`,
        fallback.issues.map((i) => `${i.path} ${i.message}`),
      );
    }
    window = { onClosed: 'template', template: fallback.value };
  } else if (r.onClosed === 'goto') {
    window = { onClosed: 'event' };
  } else {
    window = { onClosed: 'wait' };
  }
  const seq = emit(w, { kind: 'send', content: checked.value, window });
  if (r.onClosed === 'goto') rememberWindow(w, seq, r.goto);
  return true;
}

/** Sends every message of a say input; stops at the first invalid one. */
export function say(rt: FlowRuntime, w: Work, where: string, input: SayInput | undefined): boolean {
  for (const item of sayItems(input)) {
    if (!sendContent(rt, w, where, renderItem(item, fillFor(w)), item.window)) return false;
  }
  return true;
}

/** The dynamic rows of a menu (from its `rowsFrom` variable); undefined when unreadable. */
export function menuRows(state: StateDef, w: Work): DynamicRow[] | undefined {
  const from = state.menu?.rowsFrom;
  if (from === undefined) return [];
  return parseDynamicRows(w.vars[from]);
}

/** Sends the state's prompt: its menu, or its ask prompt. */
export function prompt(rt: FlowRuntime, w: Work, name: string): boolean {
  const state = stateOf(rt, name);
  if (state.menu !== undefined) {
    const rows = menuRows(state, w);
    if (rows === undefined)
      return fail(w, `states.${name}.menu`, [
        `rowsFrom variable "${state.menu.rowsFrom ?? ''}" is not a JSON array of rows`,
      ]);
    const content = renderMenu(
      state.menu,
      { version: rt.def.version, state: name },
      fillFor(w),
      rows,
    );
    return sendContent(rt, w, `states.${name}.menu`, content, state.menu.window);
  }
  if (state.ask !== undefined) return say(rt, w, `states.${name}.ask.prompt`, state.ask.prompt);
  return true;
}

/** The error target of a state (its call's onError, else the flow's onError). */
export function errorTarget(rt: FlowRuntime, name: string): string | undefined {
  return stateOf(rt, name).call?.onError ?? rt.def.onError;
}

/**
 * Entry of a state: say, then prompt / call / handoff, then start its timer; a final
 * state ends. On invalid content the remaining effects are skipped and `w.failed` names
 * the error target.
 */
export function enterState(rt: FlowRuntime, w: Work, name: string): void {
  const state = stateOf(rt, name);
  w.attempts = 0;
  w.pending = null;
  w.timer = null;
  w.failed = null;
  const ok = say(rt, w, `states.${name}.say`, state.say) && prompt(rt, w, name);
  if (!ok) {
    const target = rt.def.onError;
    w.failed = target !== undefined && target !== name ? target : null;
    return;
  }
  if (state.call !== undefined) {
    const fill = fillFor(w);
    const input: Record<string, string | number | boolean | null> = {};
    for (const [k, v] of Object.entries(state.call.input ?? {}))
      input[k] = typeof v === 'string' ? fill(v) : v;
    const requestId = `${name}#${w.seq + 1}`;
    emit(w, {
      kind: 'call',
      handler: state.call.handler,
      requestId,
      input,
      timeoutMs: rt.callTimeoutMs[name] ?? 10_000,
    });
    w.pending = requestId;
  }
  if (state.handoff !== undefined) {
    if (state.handoff.notify !== undefined) {
      const requestId = `${name}#${w.seq + 1}`;
      emit(w, {
        kind: 'call',
        handler: state.handoff.notify,
        requestId,
        input: { ...w.vars, contactName: w.contact.name, contactPhone: w.contact.phone },
        timeoutMs: 10_000,
      });
      w.pending = requestId;
    }
    emit(
      w,
      state.handoff.reason === undefined
        ? { kind: 'handoff.request' }
        : { kind: 'handoff.request', reason: fillFor(w)(state.handoff.reason) },
    );
  }
  if (state.timeout !== undefined) {
    const timer = `${name}@${w.seq + 1}`;
    emit(w, { kind: 'timer.start', name: timer, delayMs: rt.timeoutMs[name] ?? 0 });
    w.timer = timer;
  }
  scheduleReminder(rt, w, name);
  if (state.final === true) {
    emit(w, { kind: 'end' });
    w.ended = true;
  }
}

/** Leaving a state: cancel its timer, forget its pending call. */
export function leaveState(w: Work): void {
  if (w.timer !== null) emit(w, { kind: 'timer.cancel', name: w.timer });
  cancelReminder(w);
  w.timer = null;
  w.pending = null;
  w.attempts = 0;
}
