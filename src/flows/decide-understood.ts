import { LIMITS } from '../core/limits.js';
import { buttons } from '../messages/interactive-builders.js';
import type { ScoredIntent, Understanding } from '../understand/types.js';
import type { InboundMessage, VarValue, Vars } from './contract.js';
import type { Decision } from './decide.js';
import type { AskDef, StateDef } from './flow-schema.js';
import { prompt, sendContent, translate, type FlowRuntime } from './flow-runtime.js';
import { assignVar, assignVars, type Work } from './machine-context.js';
import { decodeOptionId, encodeOptionId } from './option-id.js';
import { normalizeText } from './text-match.js';
import { DEFAULT_CLARIFY_MARGIN, type NluRuntime } from './understand-runtime.js';
import { checkSlotValue, slotVarValue } from './understood-values.js';
import { captureAnswer } from './validate-answer.js';

/**
 * How a compiled flow applies what an understander proposed for an inbound text
 * (`message.understood`, recorded by the engine before feeding): deterministic, and only
 * what the flow allows where it allows it. The order is the precedence table of
 * docs/understanding.md: handoff, correction, intents (clarify when two are close), the
 * open ask's value, a knowledge answer, `noAnswer`, then the state's usual path.
 */

/** Prefix of clarify option ids (static option ids cannot contain it). */
const CLARIFY_PREFIX = '~';
/** Longest answer said from knowledge (a text message's limit, spec 4.5.1). */
const TEXT_MAX = LIMITS.textBody.max;
const BUTTON_TITLE_MAX = LIMITS.buttonTitle;
const DEFAULT_CLARIFY_BODY = 'Did you mean one of these?';

/** Where the flow is when the understanding is applied. */
export interface UnderstoodAt {
  readonly rt: FlowRuntime;
  readonly nlu: NluRuntime;
  /** Current state (null: not started yet). */
  readonly name: string | null;
  readonly state: StateDef | undefined;
  readonly w: Work;
  readonly msg: InboundMessage;
  /** What the state does without understanding (otherwise, retry, the free-text capture). */
  readonly fallback: () => Decision;
}

/** The decision for a text the engine had understood. */
export function decideUnderstood(at: UnderstoodAt): Decision {
  const u = at.msg.understood;
  if (u === undefined) return at.fallback();
  const { rt, name, state } = at;
  const r = u.result;
  const threshold = u.threshold;
  const own = state?.understand === false ? undefined : state?.understand;
  const flowU = rt.def.understand;
  const ask = state?.ask;
  const freeText =
    ask !== undefined &&
    ask.validate === undefined &&
    captureAnswer(at.msg, undefined, ask.var).status === 'valid';

  if (r.handoff === true && flowU?.handoff !== undefined) return goto(flowU.handoff);
  if (u.fromSubflow === true) {
    // Left a sub-flow for this flow's global intent: that intent, or nothing.
    const target = r.intent === undefined ? undefined : at.nlu.global.get(r.intent.id);
    return target === undefined ? at.fallback() : actOnIntent(at, target, r);
  }
  if (r.correction === true && name !== null) {
    const vars = correctionVars(at.nlu, at.w, r, ask);
    if (vars !== undefined) return { kind: 'goto', target: name, vars };
  }
  const acting = actingIntents(at.nlu, own?.intents);
  const ranked = rankIntents(r, acting);
  const best = ranked[0];
  const second = ranked[1];
  const margin = flowU?.clarify?.margin ?? DEFAULT_CLARIFY_MARGIN;
  const close =
    second !== undefined &&
    margin > 0 &&
    best !== undefined &&
    best.confidence - second.confidence < margin &&
    second.confidence >= threshold - margin;
  if (best !== undefined && !close && best.confidence >= threshold)
    return actOnIntent(at, acting.get(best.id) ?? '', r);
  if (freeText) return at.fallback();
  if (close && best !== undefined && second !== undefined && name !== null) {
    const d = clarify(at, name, [best.id, second.id], r);
    if (d !== undefined) return d;
  }
  if (ask !== undefined && name !== null) {
    const value = r.slots?.[ask.var];
    const vars = value === undefined ? undefined : checkAsk(at.nlu, ask, value.value);
    if (vars !== undefined)
      return { kind: 'goto', target: ask.goto, vars, before: hear(at.nlu, r, ask.var) };
  }
  const knowledgeOn = flowU?.knowledge !== false && own?.knowledge !== false;
  const answer = r.knowledge;
  if (knowledgeOn && answer !== undefined && answer.confidence >= threshold) {
    const body = answer.text.trim().slice(0, TEXT_MAX);
    if (body !== '') return answerFromKnowledge(at, body);
  }
  const noAnswer = own?.noAnswer ?? flowU?.noAnswer;
  if (noAnswer !== undefined && name !== null) return goto(noAnswer);
  return at.fallback();
}

/**
 * The intent a tap or typed text picks in a "did you mean" menu of this state, if any:
 * a tap on one of its buttons, the button's title, or its number.
 */
export function clarifyChoice(
  rt: FlowRuntime,
  w: Work,
  name: string,
  msg: InboundMessage,
): string | undefined {
  const pending = w.clarify;
  if (pending === undefined || pending === null || pending.state !== name) return undefined;
  if (msg.optionId !== undefined) {
    const d = decodeOptionId(msg.optionId);
    if (d === undefined || d.state !== name || d.version !== rt.def.version) return undefined;
    if (!d.option.startsWith(CLARIFY_PREFIX)) return undefined;
    const id = d.option.slice(CLARIFY_PREFIX.length);
    return pending.intents.includes(id) ? id : undefined;
  }
  if (msg.type !== 'text' || msg.text === undefined) return undefined;
  const t = normalizeText(msg.text).replace(/[.)]$/, '');
  if (/^\d$/.test(t)) return pending.intents[Number(t) - 1];
  return pending.intents.find((id) => normalizeText(titleOf(rt, w, id)) === t);
}

/** Acts on the intent picked in a "did you mean" menu (with the slots understood then). */
export function decideClarified(
  rt: FlowRuntime,
  nlu: NluRuntime,
  name: string,
  w: Work,
  id: string,
): Decision {
  const state = rt.def.states[name];
  const own = state?.understand === false ? undefined : state?.understand;
  const target = actingIntents(nlu, own?.intents).get(id);
  if (target === undefined) return { kind: 'ignore' };
  const slots = w.clarify?.slots ?? {};
  const r: Understanding = {
    source: 'builtin',
    slots: Object.fromEntries(Object.entries(slots).map(([k, v]) => [k, { value: v ?? '' }])),
  };
  return intentGoto(nlu, target, r);
}

/** On entering an ask state: a value heard earlier answers it when its rules accept it. */
export function takeHeard(nlu: NluRuntime, w: Work, ask: AskDef): boolean {
  const heard = w.heard;
  if (heard === undefined || !Object.hasOwn(heard, ask.var)) return false;
  const { [ask.var]: value, ...rest } = heard;
  w.heard = Object.keys(rest).length === 0 ? undefined : rest;
  if (value === undefined || value === null) return false;
  const vars = checkAsk(nlu, ask, value);
  if (vars === undefined) return false;
  assignVars(w, vars);
  w.skipTo = ask.goto;
  return true;
}

function goto(target: string): Decision {
  return { kind: 'goto', target };
}

/** Intent id → target: the state's own intents first, then the global ones. */
function actingIntents(
  nlu: NluRuntime,
  local: Readonly<Record<string, string>> | undefined,
): Map<string, string> {
  const acting = new Map(Object.entries(local ?? {}));
  for (const [id, target] of nlu.global) if (!acting.has(id)) acting.set(id, target);
  return acting;
}

/** The proposal's intents that act here, best first, each once. */
function rankIntents(r: Understanding, acting: ReadonlyMap<string, string>): ScoredIntent[] {
  const all = [...(r.intent === undefined ? [] : [r.intent]), ...(r.alternatives ?? [])];
  const seen = new Set<string>();
  return all
    .filter(
      (i) => acting.has(i.id) && Number.isFinite(i.confidence) && !seen.has(i.id) && seen.add(i.id),
    )
    .sort((a, b) => b.confidence - a.confidence);
}

function actOnIntent(at: UnderstoodAt, target: string, r: Understanding): Decision {
  return intentGoto(at.nlu, target, r);
}

/** Goes to an intent's target: ask vars wait in `heard`, other slots are set when valid. */
function intentGoto(nlu: NluRuntime, target: string, r: Understanding): Decision {
  return { kind: 'goto', target, before: hear(nlu, r, undefined, true) };
}

/**
 * Keeps the proposed values of asks (other than `except`) for when they are reached;
 * with `setOthers`, slots no ask captures are set now when their kind accepts them.
 */
function hear(
  nlu: NluRuntime,
  r: Understanding,
  except: string | undefined,
  setOthers = false,
): (x: Work) => void {
  return (x) => {
    const heard: Vars = { ...x.heard };
    for (const [name, slot] of Object.entries(r.slots ?? {})) {
      if (name === except) continue;
      const value = slotVarValue(slot.value);
      if (nlu.askByVar.has(name)) heard[name] = value;
      else if (setOthers) {
        const spec = nlu.slotKinds.get(name);
        const checked = spec === undefined ? undefined : checkSlotValue(spec, value);
        if (checked !== undefined) assignVar(x, name, checked);
      }
    }
    x.heard = Object.keys(heard).length === 0 ? undefined : heard;
  };
}

/** Values of a correction: slots that change a value already given, each valid by its ask. */
function correctionVars(
  nlu: NluRuntime,
  w: Work,
  r: Understanding,
  open: AskDef | undefined,
): Vars | undefined {
  const vars: Vars = {};
  for (const [name, slot] of Object.entries(r.slots ?? {})) {
    if (name === open?.var) continue;
    const given = w.vars[name];
    if (given === undefined || given === null) continue;
    const capture = nlu.askByVar.get(name);
    const value = slotVarValue(slot.value);
    if (capture !== undefined) {
      const checked = checkAsk(nlu, capture.ask, value);
      if (checked !== undefined) Object.assign(vars, checked);
      continue;
    }
    const spec = nlu.slotKinds.get(name);
    const checked = spec === undefined ? undefined : checkSlotValue(spec, value);
    if (checked !== undefined) vars[name] = checked;
  }
  return Object.keys(vars).length === 0 ? undefined : vars;
}

/**
 * The variables an ask sets for a proposed value, when its own rules accept it. A word an
 * intent slot of the same name lists as a synonym stands for its value.
 */
function checkAsk(nlu: NluRuntime, ask: AskDef, proposed: VarValue): Vars | undefined {
  if (proposed === null) return undefined;
  const spec = nlu.slotKinds.get(ask.var);
  const value = spec?.kind === 'oneOf' ? (checkSlotValue(spec, proposed) ?? proposed) : proposed;
  const msg: InboundMessage = {
    id: '',
    conversationId: '',
    type: 'text',
    occurredAt: '',
    text: String(value),
  };
  const r = captureAnswer(msg, ask.validate, ask.var);
  return r.status === 'valid' ? r.vars : undefined;
}

function titleOf(rt: FlowRuntime, w: Work, id: string): string {
  const title = rt.def.intents?.[id]?.title ?? id;
  return translate(rt, w, title).slice(0, BUTTON_TITLE_MAX);
}

/** Asks which of two intents was meant: a reply-button menu (the message builders' limits). */
function clarify(
  at: UnderstoodAt,
  name: string,
  ids: readonly string[],
  r: Understanding,
): Decision | undefined {
  const { rt, w } = at;
  const body = translate(rt, w, rt.def.understand?.clarify?.body ?? DEFAULT_CLARIFY_BODY);
  let content;
  try {
    content = buttons(
      body,
      ids.map((id) => ({
        id: encodeOptionId(rt.def.version, name, `${CLARIFY_PREFIX}${id}`),
        title: titleOf(rt, w, id),
      })),
    );
  } catch {
    // A translated body or title beyond a limit: the state goes on without asking.
    return undefined;
  }
  const slots: Vars = {};
  for (const [k, v] of Object.entries(r.slots ?? {})) slots[k] = slotVarValue(v.value);
  return {
    kind: 'stay',
    apply: (x) => {
      if (sendContent(rt, x, `states.${name}.understand.clarify`, content, undefined))
        x.clarify = {
          state: name,
          intents: [...ids],
          ...(Object.keys(slots).length === 0 ? {} : { slots }),
        };
    },
  };
}

/** Says a knowledge answer, then the state's question again (or, not started, starts). */
function answerFromKnowledge(at: UnderstoodAt, body: string): Decision {
  const { rt, name } = at;
  const content = { type: 'text', text: { body } };
  if (name === null)
    return {
      kind: 'goto',
      target: rt.def.start,
      before: (x) => void sendContent(rt, x, 'understand.knowledge', content, undefined),
    };
  return {
    kind: 'stay',
    apply: (x) => {
      if (sendContent(rt, x, `states.${name}.understand.knowledge`, content, undefined))
        prompt(rt, x, name);
    },
  };
}
