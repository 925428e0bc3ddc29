import { parseDuration } from '../core/duration.js';
import type { FlowEvent, Vars } from './contract.js';
import type { Decision } from './decide.js';
import { say, stateOf, type FlowRuntime } from './flow-runtime.js';
import { interpolate } from './interpolate.js';
import { emit, type Work } from './machine-context.js';

/**
 * Run time of `on:` events and `remind:` reminders in a compiled machine: pure
 * decisions and effects over a {@link Work} copy, like the rest of the machine.
 */

type ExternalEvent = Extract<FlowEvent, { type: 'external.event' }>;

/**
 * What a named event does in state `name` (`null`: before the flow started): the flow's
 * `on.<event>` rule, ignored during a handoff and when the flow has no rule for it. Only
 * the data fields the rule lists in `vars` become variables.
 */
export function decideExternal(
  rt: FlowRuntime,
  name: string | null,
  event: ExternalEvent,
): Decision {
  const rule = rt.def.on?.[event.name];
  if (rule === undefined) return { kind: 'ignore' };
  if (name !== null && stateOf(rt, name).handoff !== undefined) return { kind: 'ignore' };
  const vars: Vars = {};
  for (const key of rule.vars ?? []) {
    const value = event.data[key];
    if (value !== undefined) vars[key] = value;
  }
  if (rule.goto !== undefined) return { kind: 'goto', target: rule.goto, vars };
  return {
    kind: 'stay',
    apply: (w) => {
      Object.assign(w.vars, vars);
      say(rt, w, `on.${event.name}.say`, rule.say);
    },
  };
}

function ms(text: string): number {
  const r = parseDuration(text);
  return r.status === 'valid' ? r.ms : 0;
}

/**
 * Entry of a state with `remind:`: a durable timer due at the interpolated `at` time
 * with its offset. A time that does not parse records `invalid_reminder_time` in
 * `lastError` and schedules nothing; a time already past fires at once.
 */
export function scheduleReminder(rt: FlowRuntime, w: Work, name: string): void {
  const remind = stateOf(rt, name).remind;
  if (remind === undefined) return;
  const text = interpolate(remind.at, { vars: w.vars, contact: w.contact, error: w.lastError });
  const base = Date.parse(text);
  if (Number.isNaN(base)) {
    w.lastError = {
      code: 'invalid_reminder_time',
      message: `states.${name}.remind.at: "${text}" is not an ISO 8601 date-time`,
    };
    return;
  }
  const offset =
    remind.before !== undefined
      ? -ms(remind.before)
      : remind.after !== undefined
        ? ms(remind.after)
        : 0;
  const timer = `remind:${name}@${w.seq + 1}`;
  emit(w, { kind: 'timer.start', name: timer, delayMs: 0, at: base + offset });
  w.reminder = timer;
}

/** Leaving a state: its reminder, if still pending, is cancelled. */
export function cancelReminder(w: Work): void {
  if (w.reminder !== undefined && w.reminder !== null)
    emit(w, { kind: 'timer.cancel', name: w.reminder });
  w.reminder = null;
}

/** A due timer that is the current state's reminder: say it (and stay) or go on. */
export function decideReminder(
  rt: FlowRuntime,
  name: string,
  w: Work,
  timerName: string,
): Decision | undefined {
  if (w.reminder === undefined || w.reminder === null || w.reminder !== timerName) return undefined;
  const remind = stateOf(rt, name).remind;
  if (remind === undefined) return { kind: 'ignore' };
  if (remind.goto !== undefined) return { kind: 'goto', target: remind.goto };
  return {
    kind: 'stay',
    apply: (x) => {
      x.reminder = null;
      say(rt, x, `states.${name}.remind.say`, remind.say);
    },
  };
}
