import type { IntentSpec, OptionSpec, SlotSpec } from '../understand/types.js';
import type { InboundMessage, VarValue } from './contract.js';
import { sayItems } from './content-schema.js';
import { BURST_ID_PREFIX, triggerTarget, typedChoice } from './decide.js';
import type { StateDef } from './flow-schema.js';
import { localeOf, menuRows, stateOf, translate, type FlowRuntime } from './flow-runtime.js';
import type { Work } from './machine-context.js';
import type { NluRuntime } from './understand-runtime.js';
import { clarifyChoice } from './decide-understood.js';
import { captureAnswer, isNonTextKind } from './validate-answer.js';

/**
 * The pure question the engine asks a compiled machine before feeding an inbound text:
 * "would your deterministic matching take this message here, and if not, what should the
 * understander be told?" (docs/understanding.md, the precedence table).
 */
export interface UnderstandQuery {
  /** The state it was asked in (null: the conversation has not started). */
  readonly state: string | null;
  /** Intents in scope: the state's, then the global ones. */
  readonly intents: readonly IntentSpec[];
  /** Slots the state can take: the open ask's var first, then the flow's other ask vars. */
  readonly slots: readonly SlotSpec[];
  /** Values already given, by slot name (a correction changes one of them). */
  readonly filled: Readonly<Record<string, string | number | boolean | null>>;
  readonly options?: readonly OptionSpec[];
  /** The question the state asked (the ask prompt or the menu body), as written. */
  readonly question?: string;
  /** The contact's locale as the flow resolves it (undefined: the flow has no `locales`). */
  readonly locale?: string;
  /** Whether knowledge answers are acted on here. */
  readonly knowledge: boolean;
  /** The state's or the flow's threshold (undefined: the bot's). */
  readonly threshold?: number;
  /** false: a model must not see this text (the flow or the state opted out). */
  readonly model: boolean;
  /** Ids of the calling flows' global intents in scope (this flow runs as a sub-flow). */
  readonly outer: readonly string[];
  /** The flow's out-of-scope examples per locale (`understand.outOfScope`), if any. */
  readonly outOfScope?: Readonly<Record<string, readonly string[]>>;
  /** Whether this flow hands off on request (`understand.handoff`). */
  readonly handoff: boolean;
  /**
   * True at an `ask` without validation: the capture takes the text unless understanding
   * finds a handoff, a correction or an intent at the threshold.
   */
  readonly freeText: boolean;
}

/** {@link UnderstandQuery} for a state (null: not started) and working context. */
export function understandQuery(
  rt: FlowRuntime,
  nlu: NluRuntime,
  name: string | null,
  w: Work,
  msg: InboundMessage,
  outerIntents: readonly IntentSpec[] = [],
): UnderstandQuery | undefined {
  if (msg.type !== 'text' || msg.text === undefined || msg.text.trim() === '') return undefined;
  if (triggerTarget(rt, msg) !== undefined) return undefined;
  const flowU = rt.def.understand;
  const base = {
    knowledge: flowU?.knowledge !== false,
    model: flowU?.model !== false,
    ...(nlu.threshold === undefined ? {} : { threshold: nlu.threshold }),
    filled: filledOf(nlu, w),
    handoff: flowU?.handoff !== undefined,
    ...(flowU?.outOfScope === undefined ? {} : { outOfScope: flowU.outOfScope }),
    ...localeField(rt, w),
  };
  const own = [...nlu.global.keys()].flatMap((id) => specOf(nlu, id));
  // The callers' global intents come after this flow's (which win for the same id).
  const outer = outerIntents.filter((o) => !nlu.intents.has(o.id));
  const globals = [...own, ...outer];
  if (name === null) {
    if (w.resumeAt !== undefined && w.resumeAt !== null) return undefined;
    return {
      ...base,
      state: null,
      intents: globals,
      outer: outer.map((o) => o.id),
      slots: nlu.askSlots,
      freeText: false,
    };
  }
  const state = stateOf(rt, name);
  if (state.handoff !== undefined || state.understand === false) return undefined;
  if ((state.call !== undefined || state.subflow !== undefined) && w.pending !== null)
    return undefined;
  if (msg.optionId !== undefined) return undefined;
  // A debounce state's texts are understood together, when its burst ends.
  if (state.debounce !== undefined && !msg.id.startsWith(BURST_ID_PREFIX)) return undefined;
  if (clarifyChoice(rt, w, name, msg) !== undefined) return undefined;
  const here = state.understand;
  const local = Object.keys(here?.intents ?? {}).flatMap((id) => specOf(nlu, id));
  const intents = [...local, ...globals.filter((g) => !local.some((l) => l.id === g.id))];
  const scoped = {
    ...base,
    state: name,
    intents,
    outer: outer.filter((o) => !local.some((l) => l.id === o.id)).map((o) => o.id),
    knowledge: base.knowledge && here?.knowledge !== false,
    model: base.model && here?.model !== false,
    ...(here?.threshold === undefined ? {} : { threshold: here.threshold }),
  };
  if (state.menu !== undefined) {
    if (typedChoice(rt, state.menu, menuRows(state, w) ?? [], w, msg.text) !== undefined)
      return undefined;
    return {
      ...scoped,
      slots: nlu.askSlots,
      options: state.menu.options.map((o) => ({
        id: o.id,
        title: translate(rt, w, o.title),
        ...(o.keywords === undefined ? {} : { keywords: o.keywords }),
      })),
      question: translate(rt, w, state.menu.body),
      freeText: false,
    };
  }
  if (state.ask !== undefined) {
    const ask = state.ask;
    if (isNonTextKind(ask.validate)) return undefined;
    const valid = captureAnswer(msg, ask.validate, ask.var).status === 'valid';
    if (valid && ask.validate !== undefined) return undefined;
    const open = nlu.askSlots.find((s) => s.name === ask.var);
    const slots =
      open === undefined ? nlu.askSlots : [open, ...nlu.askSlots.filter((s) => s !== open)];
    return { ...scoped, slots, ...questionOf(rt, w, state), freeText: valid };
  }
  if (intents.length === 0 && state.otherwise === undefined) return undefined;
  return { ...scoped, slots: nlu.askSlots, freeText: false };
}

function specOf(nlu: NluRuntime, id: string): IntentSpec[] {
  const spec = nlu.intents.get(id);
  return spec === undefined ? [] : [spec];
}

function questionOf(rt: FlowRuntime, w: Work, state: StateDef): { question?: string } {
  const first = sayItems(state.ask?.prompt)[0]?.text;
  return first === undefined ? {} : { question: translate(rt, w, first) };
}

function localeField(rt: FlowRuntime, w: Work): { locale?: string } {
  const locale = localeOf(rt, w);
  return locale === undefined ? {} : { locale };
}

/** Values already given for ask vars and intent slots. */
function filledOf(nlu: NluRuntime, w: Work): Record<string, VarValue> {
  const filled: Record<string, VarValue> = {};
  const names = new Set([...nlu.askByVar.keys(), ...nlu.slotKinds.keys()]);
  for (const n of names) {
    const v = n.startsWith('contact.') ? w.memory?.[n.slice('contact.'.length)] : w.vars[n];
    if (v !== undefined && v !== null) filled[n] = v;
  }
  return filled;
}
