import type { FlowEvent, InboundMessage, Vars } from './contract.js';
import type { StateDef } from './flow-schema.js';
import { errorTarget, menuRows, prompt, say, stateOf, type FlowRuntime } from './flow-runtime.js';
import type { RecordedError, Work } from './machine-context.js';
import { decodeOptionId } from './option-id.js';
import { decideExternal, decideReminder } from './proactive-runtime.js';
import { matchesAny } from './text-match.js';
import { validateAnswer } from './validate-answer.js';

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
    }
  | { readonly kind: 'stay'; readonly apply: (w: Work) => void }
  | { readonly kind: 'ignore' };

const IGNORE: Decision = { kind: 'ignore' };

/** The pre-state before the first event: `null` state name. */
export function decide(rt: FlowRuntime, name: string | null, w: Work, event: FlowEvent): Decision {
  if (name === null) return decideIdle(rt, event);
  const state = stateOf(rt, name);
  switch (event.type) {
    case 'conversation.start':
      return IGNORE;
    case 'external.event':
      return decideExternal(rt, name, event);
    case 'inbound.message':
      return decideInbound(rt, name, state, w, event.message);
    case 'handler.done': {
      if (event.requestId !== w.pending) return IGNORE;
      if (state.call === undefined) return stay((x) => mergeVars(x, event.vars));
      const target = state.call.outcomes[event.outcome];
      if (target !== undefined) return goto(target, event.vars);
      return toError(errorTarget(rt, name), {
        code: 'unknown_outcome',
        message: `handler ${event.handler} returned unknown outcome "${event.outcome}"`,
      });
    }
    case 'handler.error': {
      if (event.requestId !== w.pending) return IGNORE;
      const error = { code: event.reason, message: `handler ${event.handler}: ${event.message}` };
      if (state.call === undefined) return stay((x) => record(x, error));
      const target =
        event.reason === 'timeout'
          ? (state.call.onTimeout ?? errorTarget(rt, name))
          : errorTarget(rt, name);
      return toError(target, error);
    }
    case 'timer.fired':
      return (
        decideReminder(rt, name, w, event.name) ??
        (state.timeout !== undefined && event.name === w.timer ? goto(state.timeout.goto) : IGNORE)
      );
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

function decideIdle(rt: FlowRuntime, event: FlowEvent): Decision {
  if (event.type === 'conversation.start') return goto(rt.def.start, event.vars);
  if (event.type === 'external.event') return decideExternal(rt, null, event);
  if (event.type !== 'inbound.message') return IGNORE;
  return goto(triggerTarget(rt, event.message) ?? rt.def.start);
}

function decideInbound(
  rt: FlowRuntime,
  name: string,
  state: StateDef,
  w: Work,
  msg: InboundMessage,
): Decision {
  // During a handoff the bot stays silent: a person owns the conversation.
  if (state.handoff !== undefined) return IGNORE;
  const trigger = triggerTarget(rt, msg);
  if (trigger !== undefined) return goto(trigger);
  if (state.call !== undefined && w.pending !== null) return IGNORE;
  if (msg.optionId !== undefined) return decideTap(rt, name, state, w, msg.optionId);
  const text = msg.type === 'text' ? msg.text : undefined;
  const hasInput = state.menu !== undefined || state.ask !== undefined;
  if (text === undefined || text.trim() === '') {
    if (!hasInput && state.otherwise === undefined) return IGNORE;
    return stay((x) => {
      if (say(rt, x, 'fallback', rt.def.fallback ?? DEFAULT_FALLBACK)) prompt(rt, x, name);
    });
  }
  if (state.menu !== undefined) {
    const option = state.menu.options.find((o) =>
      matchesAny(text, [o.title, ...(o.keywords ?? [])]),
    );
    if (option !== undefined) return goto(option.goto);
    const row = (menuRows(state, w) ?? []).find((r) => matchesAny(text, [r.title]));
    if (row !== undefined && state.menu.onSelect !== undefined)
      return selectRow(state, row.id, row.title);
    return otherwise(rt, name, state, w);
  }
  if (state.ask !== undefined) {
    const ask = state.ask;
    const answer = validateAnswer(text, ask.validate);
    if (answer.status === 'valid') return goto(ask.goto, { [ask.var]: answer.value });
    if (w.attempts + 1 >= ask.maxAttempts && ask.onFail !== undefined) return goto(ask.onFail);
    return stay((x) => {
      x.attempts += 1;
      say(rt, x, `states.${name}.ask.retry`, ask.retry ?? ask.prompt);
    });
  }
  return state.otherwise === undefined ? IGNORE : otherwise(rt, name, state, w);
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
    if (option !== undefined) return goto(option.goto);
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

function triggerTarget(rt: FlowRuntime, msg: InboundMessage): string | undefined {
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
  if (vars !== undefined) Object.assign(w.vars, vars);
  w.pending = null;
}
