import type { InboundMessage, RunnableFlow } from '../flows/contract.js';
import type { UnderstandQuery } from '../flows/understand-query.js';
import { DEFAULT_THRESHOLD } from '../flows/understand-runtime.js';
import type {
  IntentSpec,
  Understander,
  Understanding,
  UnderstandInput,
} from '../understand/types.js';
import { parseUnderstanding } from '../understand/understanding-schema.js';
import type { ConversationDoc } from './conversation-doc.js';
import type { EngineDeps } from './engine-deps.js';

/** The bot's understanding configuration, as the engine uses it. */
export interface EngineUnderstanding {
  /** The understander (builtin, llm, scripted or the bot's own). */
  readonly understander: Understander;
  /**
   * Stands in when the understander is a model that must not be called (the flow or state
   * opted out with `model: false`) or whose call was in flight when the process died.
   * Default: none (such a text is not understood).
   */
  readonly fallback?: Understander;
  /** The bot's confidence threshold (a flow's or state's `understand.threshold` wins). */
  readonly threshold: number;
  /** IANA timezone dates and times are resolved in. */
  readonly timezone: string;
  /** Whether the bot has knowledge files (knowledge answers are asked for only then). */
  readonly knowledge: boolean;
  /** Longest a call may take before it is aborted, ms (default 10,000). */
  readonly timeoutMs?: number;
}

/** Names of understanders that run locally and deterministically (no model call). */
const LOCAL = new Set(['builtin', 'scripted']);

/** True when `u` calls a model (a call in flight at a crash is never repeated). */
export function isModel(u: Understander): boolean {
  return !LOCAL.has(u.name);
}

/** What {@link understandInbound} hands back: the message to feed and the record made. */
export interface Understood {
  readonly message: InboundMessage;
  /** True when an understander was called now (false: recorded before, or none). */
  readonly called: boolean;
  /**
   * Index in `callers` of the calling flow whose global intent (or handoff) took the text:
   * the sub-flow is to be left and `message` fed to that caller.
   */
  readonly caller?: number;
}

/**
 * The understanding of one inbound text, exactly once (docs/understanding.md): the flow
 * is asked whether it wants the text understood; a result already recorded in `doc` for
 * this message is used as it is; a model call recorded as started but never finished
 * (the process died) is not made again: the fallback understands it instead. A model's
 * call is recorded as started (`save`) before it is made and its result (`save`) before
 * anything is fed; a local understander's result goes with the state it leads to.
 * `callers` (innermost first) are the flows waiting for the sub-flow `flow` runs as: their
 * global intents are in scope after its own, and one that wins takes the text to them.
 */
export async function understandInbound(
  deps: EngineDeps,
  flow: RunnableFlow,
  doc: ConversationDoc,
  message: InboundMessage,
  save: () => Promise<void>,
  callers: readonly RunnableFlow[] = [],
): Promise<Understood> {
  const setup = deps.understanding;
  const outer = outerIntents(callers);
  const query =
    setup === undefined || (flow.intents === undefined && outer.length === 0)
      ? undefined
      : flow.understandQuery?.(doc.snapshot, message, outer);
  if (setup === undefined || query === undefined) {
    if (doc.understood !== undefined) delete doc.understood;
    return { message, called: false };
  }
  const threshold = query.threshold ?? setup.threshold;
  const recorded = doc.understood?.messageId === message.id ? doc.understood : undefined;
  if (recorded?.status === 'done' && recorded.result !== undefined)
    return {
      ...attach(message, recorded.result, recorded.threshold ?? threshold, query, callers),
      called: false,
    };
  const input = inputOf(deps, setup, query, message);
  let result: Understanding;
  if (recorded?.status === 'started') {
    // The call began before a crash: never again; the fallback decides, the same each time.
    result = await callSafely(deps, setup.fallback, input, 'crashed', setup);
  } else if (isModel(setup.understander) && query.model) {
    doc.understood = { messageId: message.id, status: 'started' };
    await save();
    result = await callSafely(deps, setup.understander, input, undefined, setup);
  } else if (isModel(setup.understander)) {
    result = await callSafely(deps, setup.fallback, input, 'model_off', setup);
  } else {
    result = await callSafely(deps, setup.understander, input, undefined, setup);
  }
  doc.understood = { messageId: message.id, status: 'done', result, threshold };
  if (isModel(setup.understander) && query.model) await save();
  deps.emit('understood', {
    conversationId: message.conversationId,
    messageId: message.id,
    text: message.text ?? '',
    state: query.state,
    understanding: result,
    threshold,
  });
  return { ...attach(message, result, threshold, query, callers), called: true };
}

/** The message with its understanding, and the caller it goes to when one takes it. */
function attach(
  message: InboundMessage,
  result: Understanding,
  threshold: number,
  query: UnderstandQuery,
  callers: readonly RunnableFlow[],
): { message: InboundMessage; caller?: number } {
  const taken = callerTaking(result, threshold, query, callers);
  if (taken === undefined) return { message: { ...message, understood: { result, threshold } } };
  return {
    message: { ...message, understood: { result: taken.result, threshold, fromSubflow: true } },
    caller: taken.caller,
  };
}

/** The callers' global intents, innermost caller first, each id once. */
function outerIntents(callers: readonly RunnableFlow[]): IntentSpec[] {
  const seen = new Set<string>();
  const out: IntentSpec[] = [];
  for (const c of callers)
    for (const i of c.callerUnderstanding?.intents ?? [])
      if (!seen.has(i.id) && seen.add(i.id)) out.push(i);
  return out;
}

/**
 * Whether a calling flow takes a text understood inside a sub-flow (docs/understanding.md,
 * "Inside a sub-flow"): a request for a person when the sub-flow names no handoff and a
 * caller does; else, unless the text corrects the sub-flow's own values, the best intent
 * in scope when it is at the threshold and one only the callers declare. The caller is
 * given that alone (the intent and the slots heard, or the handoff request).
 */
function callerTaking(
  r: Understanding,
  threshold: number,
  query: UnderstandQuery,
  callers: readonly RunnableFlow[],
): { caller: number; result: Understanding } | undefined {
  if (callers.length === 0) return undefined;
  if (r.handoff === true) {
    if (query.handoff) return undefined;
    const caller = callers.findIndex((c) => c.callerUnderstanding?.handoff === true);
    if (caller >= 0) return { caller, result: { source: r.source, handoff: true } };
  }
  if (r.correction === true && Object.keys(query.filled).length > 0) return undefined;
  if (query.outer.length === 0) return undefined;
  const inScope = new Set(query.intents.map((i) => i.id));
  const best = [...(r.intent === undefined ? [] : [r.intent]), ...(r.alternatives ?? [])]
    .filter((i) => inScope.has(i.id) && Number.isFinite(i.confidence))
    .sort((a, b) => b.confidence - a.confidence)[0];
  if (best === undefined || best.confidence < threshold || !query.outer.includes(best.id))
    return undefined;
  const caller = callers.findIndex((c) =>
    (c.callerUnderstanding?.intents ?? []).some((i) => i.id === best.id),
  );
  if (caller < 0) return undefined;
  return {
    caller,
    result: {
      source: r.source,
      intent: best,
      ...(r.slots === undefined ? {} : { slots: r.slots }),
    },
  };
}

function inputOf(
  deps: EngineDeps,
  setup: EngineUnderstanding,
  query: UnderstandQuery,
  message: InboundMessage,
): UnderstandInput {
  return {
    text: message.text ?? '',
    locale: query.locale ?? 'en',
    timezone: setup.timezone,
    now: deps.clock.now(),
    intents: query.intents,
    slots: query.slots,
    ...(query.outOfScope === undefined ? {} : { outOfScope: query.outOfScope }),
    filled: query.filled,
    ...(query.options === undefined ? {} : { options: query.options }),
    ...(query.question === undefined ? {} : { question: query.question }),
    knowledge: query.knowledge && setup.knowledge,
  };
}

/**
 * Calls an understander, bounded in time; never throws. A failure, a timeout or an answer
 * that is not a valid proposal is "not understood" (with `fallback` saying why).
 */
async function callSafely(
  deps: EngineDeps,
  understander: Understander | undefined,
  input: UnderstandInput,
  reason: string | undefined,
  setup: EngineUnderstanding,
): Promise<Understanding> {
  const none = (why: string): Understanding => ({ source: 'builtin', fallback: why });
  if (understander === undefined) return none(reason ?? 'no_understander');
  const controller = new AbortController();
  const timeoutMs = setup.timeoutMs ?? 10_000;
  const timer = setTimeout(() => controller.abort(new Error('understanding timed out')), timeoutMs);
  timer.unref();
  const started = Date.now();
  try {
    const answer: unknown = await understander.understand(input, controller.signal);
    const parsed = parseUnderstanding(answer);
    if (!parsed.ok) {
      deps.logger.warn('understander answered an invalid proposal; not understood', {
        understander: understander.name,
        error: parsed.error,
      });
      return none('invalid');
    }
    const value = parsed.value;
    const withReason =
      reason === undefined || value.fallback !== undefined ? value : { ...value, fallback: reason };
    return withReason.ms === undefined ? { ...withReason, ms: Date.now() - started } : withReason;
  } catch (error) {
    deps.logger.warn('understander failed; not understood', {
      understander: understander.name,
      error: error instanceof Error ? error.message : String(error),
    });
    return none(controller.signal.aborted ? 'timeout' : 'error');
  } finally {
    clearTimeout(timer);
  }
}

export { DEFAULT_THRESHOLD };
