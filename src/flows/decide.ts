import type { FlowEvent, InboundMessage, Understood, Vars } from './contract.js';
import type { MenuDef, StateDef } from './flow-schema.js';
import {
  applySet,
  continueEntry,
  errorTarget,
  menuRows,
  prompt,
  say,
  startTimeout,
  stateOf,
  takesAnswer,
  translate,
  type FlowRuntime,
} from './flow-runtime.js';
import { assignVar, emit, type RecordedError, type Work } from './machine-context.js';
import { decodeOptionId } from './option-id.js';
import { decideExternal, decideReminder } from './proactive-runtime.js';
import type { DynamicRow } from './render.js';
import { matchesAny, normalizeText } from './text-match.js';
import { captureAnswer, isNonTextKind } from './validate-answer.js';
import { clarifyChoice, decideClarified, decideUnderstood } from './decide-understood.js';

/**
 * What an event does in a state, decided by a pure function. The compiled machine asks
 * it twice: in guards (which target?) and in actions (apply it). Decisions are:
 * `goto` a state (with variables to merge and an error to record), `stay` and apply
 * effects to the working copy, or `ignore`.
 */
export type Decision =
  | {
      readonly kind: 'goto';
      readonly target: string;
      readonly vars?: Vars;
      readonly error?: RecordedError;
      /** Routing on a send failure: later failures of earlier sends are ignored. */
      readonly sendFailure?: true;
      /** Effect numbering continues after this seq (a sub-flow used the ones before). */
      readonly seq?: number;
      /** Applied to the working copy after leaving the state, before entering the target. */
      readonly before?: (w: Work) => void;
    }
  | { readonly kind: 'stay'; readonly apply: (w: Work) => void }
  | { readonly kind: 'ignore' };

const IGNORE: Decision = { kind: 'ignore' };

/** The pre-state before the first event: `null` state name. */
export function decide(rt: FlowRuntime, name: string | null, w: Work, event: FlowEvent): Decision {
  if (name === null) return decideIdle(rt, w, event);
  const state = stateOf(rt, name);
  switch (event.type) {
    case 'conversation.start':
      return IGNORE;
    case 'subflow.done':
      return decideSubflowDone(rt, name, state, w, event);
    case 'external.event':
      return decideExternal(rt, name, event);
    case 'inbound.message':
      return decideInbound(rt, name, state, w, event.message, false);
    case 'handler.done': {
      if (event.requestId !== w.pending) return IGNORE;
      if (state.call === undefined) return stay((x) => mergeVars(x, event.vars));
      const target = state.call.outcomes[event.outcome];
      if (target !== undefined) return goto(target, event.vars);
      return toFlowError(name, errorTarget(rt, name), {
        code: 'unknown_outcome',
        message: `handler ${event.handler} returned outcome "${event.outcome}", which state ${name} does not list (it lists ${Object.keys(state.call.outcomes).join(', ')})`,
      });
    }
    case 'handler.error': {
      if (event.requestId !== w.pending) return IGNORE;
      const error = { code: event.reason, message: `handler ${event.handler}: ${event.message}` };
      if (state.call === undefined) return stay((x) => record(x, error));
      if (event.reason === 'timeout' && state.call.onTimeout !== undefined)
        return toError(state.call.onTimeout, error);
      if (state.call.onError !== undefined) return toError(state.call.onError, error);
      return toFlowError(name, rt.def.onError, error);
    }
    case 'timer.fired':
      return decideTimer(rt, name, state, w, event.name, event.understood);
    case 'send.failed':
    case 'send.unknown': {
      if (event.seq <= (w.sendFailureSeq ?? 0)) return IGNORE;
      const code = event.type === 'send.failed' ? event.code : 'unknown';
      const error = {
        code,
        message: `send #${event.seq} ${event.type === 'send.failed' ? 'failed' : 'has an unknown outcome'}`,
      };
      const routed = toError(sendFailedTarget(rt, state, code), error);
      return routed.kind === 'goto' ? { ...routed, sendFailure: true } : routed;
    }
    case 'window.closed': {
      const hit = w.windows.find(([seq]) => seq === event.seq);
      return hit === undefined ? IGNORE : goto(hit[1]);
    }
    case 'handoff.started':
      return stay((x) => {
        x.humanOwned = true;
      });
    case 'handoff.released': {
      const release = (x: Work): void => {
        x.humanOwned = false;
      };
      if (state.handoff !== undefined) return goto(state.handoff.resume);
      const rule = rt.def.onRelease;
      return rule === undefined || rule === 'current' ? stay(release) : goto(rule);
    }
  }
}

function decideSubflowDone(
  rt: FlowRuntime,
  name: string,
  state: StateDef,
  w: Work,
  event: Extract<FlowEvent, { type: 'subflow.done' }>,
): Decision {
  const sub = state.subflow;
  if (sub === undefined || event.requestId !== w.pending) return IGNORE;
  const adopt = (x: Work): void => {
    if (event.memory !== undefined) x.memory = { ...event.memory };
  };
  if (event.error !== undefined) {
    const d = toFlowError(name, sub.onError ?? rt.def.onError, {
      code: 'subflow_failed',
      message: `sub-flow ${sub.use}: ${event.error}`,
    });
    if (d.kind === 'goto') return { ...d, seq: event.seq };
    return stay((x) => {
      x.seq = Math.max(x.seq, event.seq);
      adopt(x);
      if (d.kind === 'stay') d.apply(x);
    });
  }
  return {
    kind: 'goto',
    target: sub.goto,
    seq: event.seq,
    before: (x) => {
      adopt(x);
      for (const [target, output] of Object.entries(sub.output ?? {}))
        assignVar(x, target, event.vars[output] ?? null);
    },
  };
}

/** Id prefix of the text a debounce state collected, decided when its timer fires. */
export const BURST_ID_PREFIX = 'burst:';

function decideTimer(
  rt: FlowRuntime,
  name: string,
  state: StateDef,
  w: Work,
  timer: string,
  heard: Understood | undefined,
): Decision {
  const delay = w.delay;
  if (delay !== undefined && delay !== null && delay.timer === timer)
    return stay((x) => continueEntry(rt, x, name, delay.index, true));
  const burst = w.burst;
  if (burst !== undefined && burst !== null && burst.timer === timer) {
    const msg: InboundMessage = {
      id: `${BURST_ID_PREFIX}${timer}`,
      conversationId: '',
      type: 'text',
      occurredAt: '',
      text: burst.text,
      ...(heard === undefined ? {} : { understood: heard }),
    };
    const d = decideInbound(rt, name, state, { ...w, burst: null }, msg, true);
    if (d.kind === 'goto') return d;
    return stay((x) => {
      x.burst = undefined;
      if (d.kind === 'stay') d.apply(x);
    });
  }
  const reminder = decideReminder(rt, name, w, timer);
  if (reminder !== undefined) return reminder;
  const timeout = state.timeout;
  if (timeout === undefined || timer !== w.timer) return IGNORE;
  const max = timeout.nudge === undefined ? 0 : (timeout.nudges ?? 1);
  if ((w.nudges ?? 0) < max)
    return stay((x) => {
      x.nudges = (x.nudges ?? 0) + 1;
      say(rt, x, `states.${name}.timeout.nudge`, timeout.nudge);
      startTimeout(rt, x, name);
    });
  return goto(timeout.goto);
}

function decideIdle(rt: FlowRuntime, w: Work, event: FlowEvent): Decision {
  const resumeAt = w.resumeAt;
  if (resumeAt !== undefined && resumeAt !== null && event.type !== 'external.event') {
    // A migrated conversation whose state was removed: it continues where `migrate:` says.
    // The message that moves it is its answer there (the target is entered quietly and
    // the message decided again in it); without a target it is a first message.
    const trigger = event.type === 'inbound.message' ? triggerTarget(rt, event.message) : undefined;
    const state = rt.def.states[resumeAt];
    const answer =
      event.type === 'inbound.message' &&
      trigger === undefined &&
      w.resumeFirst !== true &&
      state !== undefined &&
      takesAnswer(state);
    return {
      kind: 'goto',
      target: trigger ?? resumeAt,
      before: (x) => {
        x.resumeAt = undefined;
        x.resumeFirst = undefined;
        if (answer) x.landing = true;
      },
    };
  }
  if (event.type === 'conversation.start') {
    return {
      kind: 'goto',
      target: rt.def.start,
      ...(event.vars === undefined ? {} : { vars: event.vars }),
      ...(event.seq === undefined ? {} : { seq: event.seq }),
    };
  }
  if (event.type === 'external.event') return decideExternal(rt, null, event);
  if (event.type !== 'inbound.message') return IGNORE;
  const trigger = triggerTarget(rt, event.message);
  if (trigger !== undefined) return goto(trigger);
  return understood(rt, null, undefined, w, event.message, () => goto(rt.def.start));
}

/** Applies what the engine understood of the text, else `fallback` (the usual path). */
function understood(
  rt: FlowRuntime,
  name: string | null,
  state: StateDef | undefined,
  w: Work,
  msg: InboundMessage,
  fallback: () => Decision,
): Decision {
  const nlu = rt.nlu;
  if (nlu === undefined || msg.understood === undefined) return fallback();
  return decideUnderstood({ rt, nlu, name, state, w, msg, fallback });
}

function decideInbound(
  rt: FlowRuntime,
  name: string,
  state: StateDef,
  w: Work,
  msg: InboundMessage,
  fromBurst: boolean,
): Decision {
  // During a handoff the bot stays silent: a person owns the conversation.
  if (state.handoff !== undefined) return IGNORE;
  const trigger = triggerTarget(rt, msg);
  if (trigger !== undefined) return goto(trigger);
  if ((state.call !== undefined || state.subflow !== undefined) && w.pending !== null) {
    // The sub-flow it ran was left for one of this flow's global intents (the engine
    // decided it, docs/understanding.md): act on that intent only.
    if (state.subflow !== undefined && msg.understood?.fromSubflow === true)
      return understood(rt, name, state, w, msg, () => IGNORE);
    return IGNORE;
  }
  if (rt.nlu !== undefined && w.clarify !== undefined && w.clarify !== null) {
    const picked = clarifyChoice(rt, w, name, msg);
    if (picked !== undefined) return decideClarified(rt, rt.nlu, name, w, picked);
  }
  if (msg.optionId !== undefined) return decideTap(rt, name, state, w, msg.optionId);
  if (state.ask !== undefined && isNonTextKind(state.ask.validate))
    return decideAsk(rt, name, state.ask, w, msg);
  const text = msg.type === 'text' ? msg.text : undefined;
  const hasInput = state.menu !== undefined || state.ask !== undefined;
  if (text === undefined || text.trim() === '') {
    if (!hasInput && state.otherwise === undefined) return IGNORE;
    return stay((x) => {
      if (say(rt, x, 'fallback', rt.def.fallback ?? DEFAULT_FALLBACK)) prompt(rt, x, name);
    });
  }
  if (state.debounce !== undefined && !fromBurst) {
    return stay((x) => {
      const timer = x.burst?.timer ?? `debounce:${name}@${x.entrySeq ?? x.seq}`;
      x.burst = {
        text: x.burst === undefined || x.burst === null ? text : `${x.burst.text}\n${text}`,
        timer,
      };
      emit(x, { kind: 'timer.start', name: timer, delayMs: debounceMs(state.debounce ?? '') });
    });
  }
  if (state.menu !== undefined) {
    const picked = typedChoice(rt, state.menu, menuRows(state, w) ?? [], w, text);
    if (picked?.option !== undefined) return chooseOption(rt, picked.option);
    if (picked?.row !== undefined && state.menu.onSelect !== undefined)
      return selectRow(state, picked.row.id, picked.row.title);
    return understood(rt, name, state, w, msg, () => otherwise(rt, name, state, w));
  }
  const ask = state.ask;
  if (ask !== undefined)
    return understood(rt, name, state, w, msg, () => decideAsk(rt, name, ask, w, msg));
  return understood(rt, name, state, w, msg, () =>
    state.otherwise === undefined ? IGNORE : otherwise(rt, name, state, w),
  );
}

function debounceMs(text: string): number {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  return m === null ? 0 : Number(m[1]) * (unit[m[2] ?? ''] ?? 0);
}

type Option = MenuDef['options'][number];

/**
 * What typed text picks in a menu: "1", "2"… (rows first, as shown), then a title
 * (as written or translated, any case, accents optional) or a keyword.
 */
export function typedChoice(
  rt: FlowRuntime,
  menu: MenuDef,
  rows: readonly DynamicRow[],
  w: Work,
  text: string,
): { option?: Option; row?: DynamicRow } | undefined {
  const typed = menu.typed ?? true;
  if (typed === false) return undefined;
  const numbers = typed === true || typed.numbers !== false;
  const titles = typed === true || typed.titles !== false;
  const t = normalizeText(text).replace(/[.)]$/, '');
  if (numbers && /^\d{1,2}$/.test(t)) {
    const i = Number(t) - 1;
    const row = i >= 0 ? rows[i] : undefined;
    if (row !== undefined) return { row };
    const option = menu.options[i - rows.length];
    if (option !== undefined) return { option };
  }
  if (!titles) return undefined;
  const option = menu.options.find((o) =>
    matchesAny(text, [o.title, translate(rt, w, o.title), ...(o.keywords ?? [])]),
  );
  if (option !== undefined) return { option };
  const row = rows.find((r) => matchesAny(text, [r.title]));
  return row === undefined ? undefined : { row };
}

function chooseOption(rt: FlowRuntime, option: Option): Decision {
  if (option.set === undefined) return goto(option.goto);
  const set = option.set;
  return { kind: 'goto', target: option.goto, before: (x) => applySet(rt, x, set) };
}

function decideAsk(
  rt: FlowRuntime,
  name: string,
  ask: NonNullable<StateDef['ask']>,
  w: Work,
  msg: InboundMessage,
): Decision {
  const answer = captureAnswer(msg, ask.validate, ask.var);
  if (answer.status === 'valid') return goto(ask.goto, answer.vars);
  if (w.attempts + 1 >= ask.maxAttempts && ask.onFail !== undefined) return goto(ask.onFail);
  return stay((x) => {
    x.attempts += 1;
    say(rt, x, `states.${name}.ask.retry`, ask.retry ?? ask.prompt);
  });
}

/** A tap on an interactive option: route it when it is from this state's current menu. */
function decideTap(
  rt: FlowRuntime,
  name: string,
  state: StateDef,
  w: Work,
  optionId: string,
): Decision {
  const decoded = decodeOptionId(optionId);
  const menu = state.menu;
  if (
    menu !== undefined &&
    decoded !== undefined &&
    decoded.version === rt.def.version &&
    decoded.state === name
  ) {
    const option = menu.options.find((o) => o.id === decoded.option);
    if (option !== undefined) return chooseOption(rt, option);
    const row = (menuRows(state, w) ?? []).find((r) => r.id === decoded.option);
    if (row !== undefined && menu.onSelect !== undefined)
      return selectRow(state, row.id, row.title);
  }
  if (menu === undefined && state.ask === undefined) return IGNORE;
  // Stale: a tap on an older menu (another version or state). Re-show the current prompt.
  return stay((x) => {
    if (say(rt, x, 'stale', rt.def.stale)) prompt(rt, x, name);
  });
}

function selectRow(state: StateDef, id: string, title: string): Decision {
  const onSelect = state.menu?.onSelect;
  if (onSelect === undefined) return IGNORE;
  const vars: Vars =
    onSelect.var === undefined ? {} : { [onSelect.var]: id, [`${onSelect.var}Title`]: title };
  return goto(onSelect.goto, vars);
}

function otherwise(rt: FlowRuntime, name: string, state: StateDef, w: Work): Decision {
  const rule = state.otherwise;
  const reprompt = rule?.reprompt ?? 2;
  if (rule?.goto !== undefined && w.attempts + 1 > reprompt) return goto(rule.goto);
  return stay((x) => {
    x.attempts += 1;
    if (say(rt, x, `states.${name}.otherwise.say`, rule?.say)) prompt(rt, x, name);
  });
}

/** The state a flow-level trigger keyword in this message leads to, if any. */
export function triggerTarget(rt: FlowRuntime, msg: InboundMessage): string | undefined {
  if (msg.type !== 'text' || msg.text === undefined) return undefined;
  const text = msg.text;
  return rt.def.triggers?.find((t) => matchesAny(text, t.keywords))?.goto;
}

function sendFailedTarget(rt: FlowRuntime, state: StateDef, code: string): string | undefined {
  const rules = [state.onSendFailed, rt.def.onSendFailed].flatMap((r) =>
    r === undefined ? [] : Array.isArray(r) ? r : [r],
  );
  return rules.find((r) => r.codes === undefined || r.codes.includes(code))?.goto;
}

/** Said when an inbound message cannot be used and the flow declares no `fallback`. */
export const DEFAULT_FALLBACK =
  'Sorry, I can only read text messages here. Please type your answer or tap an option.';

function goto(target: string, vars?: Vars): Decision {
  return vars === undefined ? { kind: 'goto', target } : { kind: 'goto', target, vars };
}

/**
 * The flow's error path, logged: the engine writes one error line (flow, state, contact,
 * code) and counts it. Without any error target the flow stays (and it is logged).
 */
function toFlowError(name: string, target: string | undefined, error: RecordedError): Decision {
  const log = (x: Work): void =>
    void emit(x, {
      kind: 'flow.error',
      state: name,
      code: error.code,
      message: error.message,
      target: target ?? null,
    });
  if (target === undefined)
    return stay((x) => {
      record(x, error);
      log(x);
    });
  return { kind: 'goto', target, error, before: log };
}

function toError(target: string | undefined, error: RecordedError): Decision {
  return target === undefined ? stay((x) => record(x, error)) : { kind: 'goto', target, error };
}

function stay(apply: (w: Work) => void): Decision {
  return { kind: 'stay', apply };
}

function record(w: Work, error: RecordedError): void {
  w.lastError = error;
  w.pending = null;
}

function mergeVars(w: Work, vars: Vars | undefined): void {
  if (vars !== undefined) for (const [k, v] of Object.entries(vars)) assignVar(w, k, v);
  w.pending = null;
}
