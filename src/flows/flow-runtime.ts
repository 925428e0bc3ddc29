import { parseDuration } from '../core/duration.js';
import { validateContent, type Content } from '../messages/index.js';
import type { OutboundContent, VarValue, WindowRule } from './contract.js';
import { sayItems, type MessageItem, type SayInput } from './content-schema.js';
import { evaluateCondition, parseCondition, type Condition } from './condition.js';
import type { FlowDefinition, StateDef } from './flow-schema.js';
import { interpolate, lookupName, type Scope } from './interpolate.js';
import { cancelReminder, scheduleReminder } from './proactive-runtime.js';
import { assignVar, emit, rememberWindow, type Work } from './machine-context.js';
import { takeHeard } from './decide-understood.js';
import { nluOf, type NluRuntime } from './understand-runtime.js';
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
  /** Parsed `branch[i].if` of each state (undefined entries: no `if`). */
  readonly branches: Readonly<Record<string, readonly (Condition | undefined)[]>>;
  /** Intents and asks, when the flow uses understanding. */
  readonly nlu?: NluRuntime;
}

/** Builds the run-time view of a flow (conditions parsed once). */
export function runtimeOf(def: FlowDefinition): FlowRuntime {
  const timeoutMs: Record<string, number> = {};
  const callTimeoutMs: Record<string, number> = {};
  const branches: Record<string, (Condition | undefined)[]> = {};
  for (const [name, s] of Object.entries(def.states)) {
    if (s.timeout !== undefined) timeoutMs[name] = durationMs(s.timeout.after);
    if (s.call !== undefined) callTimeoutMs[name] = durationMs(s.call.timeout);
    if (s.branch !== undefined) {
      branches[name] = s.branch.map((b) => {
        if (b.if === undefined) return undefined;
        const r = parseCondition(b.if);
        // The linter refuses bad conditions; at run time one that does not parse is false.
        return r.status === 'ok' ? r.condition : { kind: 'literal', value: false };
      });
    }
  }
  const nlu = nluOf(def);
  return { def, timeoutMs, callTimeoutMs, branches, ...(nlu === undefined ? {} : { nlu }) };
}

/** Milliseconds of a duration the schema accepted. */
export function durationMs(text: string): number {
  const r = parseDuration(text);
  return r.status === 'valid' ? r.ms : 0;
}

/** The locale of the contact: the flow's `locale` variable when it names a known locale. */
export function localeOf(rt: FlowRuntime, w: Work): string | undefined {
  const locales = rt.def.locales;
  if (locales === undefined) return undefined;
  const value = lookupName(rt.def.locale ?? 'contact.locale', scopeOf(w));
  if (typeof value === 'string') {
    const hit =
      locales.find((l) => l === value) ??
      locales.find((l) => l.toLowerCase() === value.toLowerCase().replace('_', '-'));
    if (hit !== undefined) return hit;
    const lang = value.slice(0, 2).toLowerCase();
    const prefix = locales.find((l) => l.slice(0, 2).toLowerCase() === lang);
    if (prefix !== undefined) return prefix;
  }
  return locales[0];
}

/** A text of the flow in the contact's locale (the flow's own text when not translated). */
export function translate(rt: FlowRuntime, w: Work, text: string): string {
  const locale = localeOf(rt, w);
  if (locale === undefined || locale === rt.def.locales?.[0]) return text;
  return rt.def.translations?.[locale]?.[text] ?? text;
}

/** What `{{…}}` and conditions read. */
export function scopeOf(w: Work): Scope {
  return { vars: w.vars, contact: w.contact, error: w.lastError, memory: w.memory ?? {} };
}

/** True when a state's branch rule `i` holds (a rule without `if` always does). */
export function branchTarget(rt: FlowRuntime, name: string, w: Work): string | undefined {
  const rules = rt.def.states[name]?.branch;
  if (rules === undefined) return undefined;
  const conditions = rt.branches[name] ?? [];
  const scope = scopeOf(w);
  for (const [i, rule] of rules.entries()) {
    const c = conditions[i];
    if (c === undefined || evaluateCondition(c, (n) => lookupName(n, scope))) return rule.goto;
  }
  return undefined;
}

/** Where a state goes on its own once entered (goto or branch); undefined while a delay runs. */
export function autoTarget(rt: FlowRuntime, name: string, w: Work): string | undefined {
  if (w.delay !== undefined && w.delay !== null) return undefined;
  if (w.skipTo !== undefined && w.skipTo !== null) return w.skipTo;
  const s = rt.def.states[name];
  if (s === undefined) return undefined;
  return s.goto ?? branchTarget(rt, name, w);
}

/** Applies `set:` assignments: strings interpolate; exactly `{{x}}` copies x with its type. */
export function applySet(
  rt: FlowRuntime,
  w: Work,
  set: Readonly<Record<string, VarValue>> | undefined,
): void {
  if (set === undefined) return;
  const fill = fillFor(rt, w);
  for (const [target, value] of Object.entries(set)) {
    let v: VarValue = value;
    if (typeof value === 'string') {
      const whole = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\s*\}\}$/.exec(
        value,
      );
      v = whole?.[1] === undefined ? fill(value) : (lookupName(whole[1], scopeOf(w)) ?? null);
    }
    assignVar(w, target, v);
  }
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

/** Fills a text: translated to the contact's locale, then `{{…}}` interpolated. */
export function fillFor(rt: FlowRuntime, w: Work): (text: string) => string {
  const scope = scopeOf(w);
  return (text) => interpolate(translate(rt, w, text), scope);
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
    const fallback = checkContent(renderTemplate(r.template, fillFor(rt, w)));
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
  for (const item of sayItems(input)) if (!sayItem(rt, w, where, item)) return false;
  return true;
}

/** Sends one say item (a pure `delay:` item sends nothing). */
function sayItem(rt: FlowRuntime, w: Work, where: string, item: MessageItem): boolean {
  if (item.delay !== undefined && !hasContent(item)) return true;
  return sendContent(rt, w, where, renderItem(item, fillFor(rt, w)), item.window);
}

function hasContent(item: MessageItem): boolean {
  return (
    item.text !== undefined ||
    item.template !== undefined ||
    item.image !== undefined ||
    item.video !== undefined ||
    item.audio !== undefined ||
    item.document !== undefined ||
    item.interactive !== undefined ||
    item.location !== undefined ||
    item.contact !== undefined
  );
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
      fillFor(rt, w),
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
 * Entry of a state: `set`, then say (pausing at each `delay:` on a durable timer), then
 * prompt / call / sub-flow / handoff, then its timers; a final state ends. On invalid
 * content the remaining effects are skipped and `w.failed` names the error target.
 * `quiet` (a migrated conversation landing with the contact's answer, see
 * {@link takesAnswer}): the state's messages and prompt are not sent, the rest runs.
 */
export function enterState(rt: FlowRuntime, w: Work, name: string, quiet = false): void {
  const state = stateOf(rt, name);
  w.attempts = 0;
  w.pending = null;
  w.timer = null;
  w.failed = null;
  clearEntryState(w);
  // Only what the state uses is kept: the context is persisted after every event.
  if (state.debounce !== undefined) w.entrySeq = w.seq;
  else w.entrySeq = undefined;
  applySet(rt, w, state.set);
  // An answer understood earlier (several at once) skips the question when valid.
  if (state.ask !== undefined && rt.nlu !== undefined && takeHeard(rt.nlu, w, state.ask)) return;
  if (quiet) finishEntry(rt, w, name);
  else continueEntry(rt, w, name, 0);
}

/**
 * Whether a state waits for the contact's answer and nothing else: a `menu`, an `ask` or
 * an `otherwise`, with no call, sub-flow, handoff, automatic `goto`/`branch` or end. A
 * migrated conversation landing in such a state takes the message that moved it as its
 * answer (see `decideIdle`).
 */
export function takesAnswer(state: StateDef): boolean {
  return (
    (state.menu !== undefined || state.ask !== undefined || state.otherwise !== undefined) &&
    state.call === undefined &&
    state.subflow === undefined &&
    state.handoff === undefined &&
    state.goto === undefined &&
    state.branch === undefined &&
    state.final !== true
  );
}

/**
 * Goes on with a state's entry from say item `from`; `resumed`: the pause of item `from`
 * is over (its delay timer fired).
 */
export function continueEntry(
  rt: FlowRuntime,
  w: Work,
  name: string,
  from: number,
  resumed = false,
): void {
  const state = stateOf(rt, name);
  const items = sayItems(state.say);
  w.delay = undefined;
  for (let i = from; i < items.length; i++) {
    const item = items[i];
    if (item === undefined) continue;
    if (item.delay !== undefined && !(resumed && i === from)) {
      const timer = `delay:${name}@${w.seq + 1}`;
      emit(w, { kind: 'timer.start', name: timer, delayMs: durationMs(item.delay) });
      w.delay = { timer, index: i };
      return;
    }
    if (!sayItem(rt, w, `states.${name}.say`, item)) return failEntry(rt, w, name);
  }
  if (!prompt(rt, w, name)) return failEntry(rt, w, name);
  finishEntry(rt, w, name);
}

/** The end of a state's entry, after its messages: call / sub-flow / handoff, timers, end. */
function finishEntry(rt: FlowRuntime, w: Work, name: string): void {
  const state = stateOf(rt, name);
  const fill = fillFor(rt, w);
  if (state.call !== undefined) {
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
  if (state.subflow !== undefined) {
    const input: Record<string, VarValue> = {};
    for (const [k, v] of Object.entries(state.subflow.input ?? {}))
      input[k] = typeof v === 'string' ? fill(v) : v;
    const requestId = `${name}#${w.seq + 1}`;
    emit(w, { kind: 'flow.call', flowId: state.subflow.use, requestId, input });
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
        : { kind: 'handoff.request', reason: fill(state.handoff.reason) },
    );
  }
  if (state.timeout !== undefined) startTimeout(rt, w, name);
  scheduleReminder(rt, w, name);
  if (state.final === true) {
    emit(w, { kind: 'end' });
    w.ended = true;
  }
}

/** Starts (or restarts, after a nudge) the state's `timeout` timer. */
export function startTimeout(rt: FlowRuntime, w: Work, name: string): void {
  const timer = `${name}@${w.seq + 1}`;
  emit(w, { kind: 'timer.start', name: timer, delayMs: rt.timeoutMs[name] ?? 0 });
  w.timer = timer;
}

function failEntry(rt: FlowRuntime, w: Work, name: string): void {
  const target = rt.def.onError;
  w.failed = target !== undefined && target !== name ? target : null;
}

/** Leaving a state: cancel its timer, forget its pending call. */
export function leaveState(w: Work): void {
  if (w.timer !== null) emit(w, { kind: 'timer.cancel', name: w.timer });
  if (w.delay !== undefined && w.delay !== null)
    emit(w, { kind: 'timer.cancel', name: w.delay.timer });
  if (w.burst !== undefined && w.burst !== null)
    emit(w, { kind: 'timer.cancel', name: w.burst.timer });
  cancelReminder(w);
  w.timer = null;
  w.pending = null;
  w.attempts = 0;
  clearEntryState(w);
}

/** Forgets a state's nudges, delay and debounced text (absent fields: small snapshots). */
function clearEntryState(w: Work): void {
  w.nudges = undefined;
  w.delay = undefined;
  w.burst = undefined;
  if (w.clarify !== undefined) w.clarify = undefined;
  if (w.skipTo !== undefined) w.skipTo = undefined;
}
