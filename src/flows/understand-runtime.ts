import type { IntentSpec, SlotKind, SlotSpec } from '../understand/types.js';
import type { CallerUnderstanding } from './contract.js';
import type { AskDef, FlowDefinition } from './flow-schema.js';
import type { IntentDef, SlotDef } from './intent-schema.js';

/**
 * What a compiled flow knows of understanding, computed once per flow: its intents as the
 * understander is told them, which are global, and the `ask` that captures each variable
 * (its rules validate a value understanding proposes for it).
 */
export interface NluRuntime {
  /** Every intent of the flow, as told to an understander. */
  readonly intents: ReadonlyMap<string, IntentSpec>;
  /** Global intents (with `goto`) → target. */
  readonly global: ReadonlyMap<string, string>;
  /** Variable → the state whose `ask` captures it (the first one declared). */
  readonly askByVar: ReadonlyMap<string, { readonly state: string; readonly ask: AskDef }>;
  /** Slot specs of every ask var (open-question order: declaration order). */
  readonly askSlots: readonly SlotSpec[];
  /** Intent slot kinds by variable, for slots no ask captures. */
  readonly slotKinds: ReadonlyMap<string, SlotSpec>;
  /** Default threshold of the flow (`understand.threshold`), if set. */
  readonly threshold: number | undefined;
}

/** Default confidence threshold when neither state, flow nor bot sets one. */
export const DEFAULT_THRESHOLD = 0.6;
/** Default margin under which the two best intents are asked about. */
export const DEFAULT_CLARIFY_MARGIN = 0.1;

/**
 * The runtime of a flow without understanding: it declares nothing, and is asked only
 * while it runs as a sub-flow, for its callers' global intents.
 */
export const EMPTY_NLU: NluRuntime = {
  intents: new Map(),
  global: new Map(),
  askByVar: new Map(),
  askSlots: [],
  slotKinds: new Map(),
  threshold: undefined,
};

/** What of a flow's understanding acts inside the sub-flows it runs (see contract.ts). */
export function callerUnderstanding(def: FlowDefinition, nlu: NluRuntime): CallerUnderstanding {
  const intents = [...nlu.global.keys()].flatMap((id) => {
    const spec = nlu.intents.get(id);
    return spec === undefined ? [] : [spec];
  });
  return { intents, handoff: def.understand?.handoff !== undefined };
}

/** True when a flow uses understanding (declares intents or an `understand:` block). */
export function usesUnderstanding(def: FlowDefinition): boolean {
  return def.intents !== undefined || def.understand !== undefined;
}

/** The understanding runtime of a flow, or undefined when it does not use understanding. */
export function nluOf(def: FlowDefinition): NluRuntime | undefined {
  if (!usesUnderstanding(def)) return undefined;
  const intents = new Map<string, IntentSpec>();
  const global = new Map<string, string>();
  const slotKinds = new Map<string, SlotSpec>();
  for (const [id, intent] of Object.entries(def.intents ?? {})) {
    intents.set(id, intentSpec(id, intent));
    if (intent.goto !== undefined) global.set(id, intent.goto);
    for (const [name, slot] of Object.entries(intent.slots ?? {}))
      if (!slotKinds.has(name)) slotKinds.set(name, slotSpec(name, slot));
  }
  const askByVar = new Map<string, { state: string; ask: AskDef }>();
  const askSlots: SlotSpec[] = [];
  for (const [state, s] of Object.entries(def.states)) {
    if (s.ask === undefined || askByVar.has(s.ask.var)) continue;
    const spec = askSlotSpec(s.ask, slotKinds.get(s.ask.var));
    if (spec === undefined) continue;
    askByVar.set(s.ask.var, { state, ask: s.ask });
    askSlots.push(spec);
  }
  return { intents, global, askByVar, askSlots, slotKinds, threshold: def.understand?.threshold };
}

function intentSpec(id: string, intent: IntentDef): IntentSpec {
  const slots = Object.entries(intent.slots ?? {}).map(([name, slot]) => slotSpec(name, slot));
  return {
    id,
    examples: intent.examples,
    ...(slots.length === 0 ? {} : { slots }),
    ...(intent.description === undefined ? {} : { description: intent.description }),
  };
}

/** A slot of an intent as the understander is told it. */
export function slotSpec(name: string, slot: SlotDef): SlotSpec {
  if (typeof slot === 'string') return { name, kind: slot };
  return {
    name,
    kind: slot.kind,
    ...(slot.values === undefined
      ? {}
      : {
          choices: slot.values.map((v) =>
            typeof v === 'string'
              ? { value: v }
              : { value: v.value, ...(v.synonyms === undefined ? {} : { synonyms: v.synonyms }) },
          ),
        }),
    ...(slot.description === undefined ? {} : { description: slot.description }),
  };
}

/**
 * The slot an `ask` can take from free text: its kind from its validation (an intent
 * slot of the same name adds synonyms and a description). Media, location and contact
 * asks take no text: undefined.
 */
export function askSlotSpec(ask: AskDef, intentSlot?: SlotSpec): SlotSpec | undefined {
  const rule = ask.validate;
  let kind: SlotKind;
  switch (rule?.kind) {
    case undefined:
    case 'pattern':
      kind = intentSlot?.kind ?? 'text';
      break;
    case 'number':
      kind = rule.integer === true ? 'integer' : (intentSlot?.kind ?? 'number');
      break;
    case 'email':
    case 'phone':
    case 'date':
    case 'time':
      kind = rule.kind;
      break;
    case 'oneOf': {
      const synonyms = new Map((intentSlot?.choices ?? []).map((c) => [c.value, c.synonyms]));
      return {
        name: ask.var,
        kind: 'oneOf',
        choices: rule.values.map((value) => {
          const words = synonyms.get(value);
          return words === undefined ? { value } : { value, synonyms: words };
        }),
        ...(intentSlot?.description === undefined ? {} : { description: intentSlot.description }),
      };
    }
    default:
      return undefined;
  }
  return {
    name: ask.var,
    kind,
    ...(intentSlot?.choices === undefined ? {} : { choices: intentSlot.choices }),
    ...(intentSlot?.description === undefined ? {} : { description: intentSlot.description }),
  };
}
