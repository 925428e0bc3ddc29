import type {
  KnowledgeAnswer,
  ScoredIntent,
  SlotValue,
  Understander,
  Understanding,
  UnderstandInput,
} from './types.js';

/**
 * A scripted understander for tests: texts (or regular expressions) mapped to the proposal
 * an understander would make. Deterministic and offline; it records every input it was
 * given (`calls`) so a test can count calls and see what the flow asked.
 */

/** A proposal written for a test, in short: `'order'` is intent `order` at confidence 1. */
export type ScriptedAnswer =
  | string
  | {
      /** Intent id (confidence `confidence`, default 1) or a scored intent. */
      readonly intent?: string | ScoredIntent;
      readonly confidence?: number;
      readonly alternatives?: readonly ScoredIntent[];
      /** Slot values by name (a plain value or `{ value, text }`). */
      readonly slots?: Readonly<Record<string, string | number | boolean | SlotValue>>;
      readonly correction?: boolean;
      readonly handoff?: boolean;
      /** A knowledge answer: its text (confidence 1, no source) or the whole answer. */
      readonly knowledge?: string | KnowledgeAnswer;
    };

/** A scripted answer, or a function of the input that returns one. */
export type ScriptedEntry = ScriptedAnswer | ((input: UnderstandInput) => ScriptedAnswer);

/** Options of {@link scripted}. */
export interface ScriptedOptions {
  /**
   * The understander's name (default `scripted`). Any name but `builtin`/`scripted` makes
   * the engine treat it as a model (a call is recorded as started before it is made):
   * what crash tests need.
   */
  readonly name?: string;
  /** Called instead of answering (e.g. to throw, or to wait on a signal), when given. */
  readonly before?: (input: UnderstandInput, signal?: AbortSignal) => Promise<void> | void;
}

/** A scripted understander, with the inputs it was given. */
export interface ScriptedUnderstander extends Understander {
  /** Every input it was asked about, oldest first. */
  readonly calls: readonly UnderstandInput[];
}

/**
 * Makes a scripted understander. Texts match after trimming, any case, accents optional;
 * regular expressions are tested on the raw text; the first match wins; anything else is
 * not understood.
 * @example
 * const understander = scripted({
 *   '2 large pepperoni to 5 Main St': { intent: 'order', slots: { qty: 2, size: 'large', address: '5 Main St' } },
 *   'no, make it three': { correction: true, slots: { qty: 3 } },
 * });
 */
export function scripted(
  rules:
    | Readonly<Record<string, ScriptedEntry>>
    | readonly (readonly [string | RegExp, ScriptedEntry])[],
  options: ScriptedOptions = {},
): ScriptedUnderstander {
  const list: (readonly [string | RegExp, ScriptedEntry])[] = Array.isArray(rules)
    ? [...(rules as readonly (readonly [string | RegExp, ScriptedEntry])[])]
    : Object.entries(rules as Readonly<Record<string, ScriptedEntry>>);
  const calls: UnderstandInput[] = [];
  return {
    name: options.name ?? 'scripted',
    calls,
    async understand(input, signal) {
      calls.push(input);
      await options.before?.(input, signal);
      const text = normal(input.text);
      const hit = list.find(([m]) =>
        typeof m === 'string' ? normal(m) === text : m.test(input.text),
      );
      if (hit === undefined) return { source: 'scripted' };
      const entry = hit[1];
      return toUnderstanding(typeof entry === 'function' ? entry(input) : entry);
    },
  };
}

/** A scripted answer as an {@link Understanding} (source `scripted`). */
export function toUnderstanding(answer: ScriptedAnswer): Understanding {
  if (typeof answer === 'string')
    return { source: 'scripted', intent: { id: answer, confidence: 1 } };
  const intent =
    answer.intent === undefined
      ? undefined
      : typeof answer.intent === 'string'
        ? { id: answer.intent, confidence: answer.confidence ?? 1 }
        : answer.intent;
  const slots =
    answer.slots === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(answer.slots).map(([k, v]) => [
            k,
            typeof v === 'object' ? v : { value: v },
          ]),
        );
  const knowledge =
    typeof answer.knowledge === 'string'
      ? { text: answer.knowledge, confidence: 1, sources: [] }
      : answer.knowledge;
  return {
    source: 'scripted',
    ...(intent === undefined ? {} : { intent }),
    ...(answer.alternatives === undefined ? {} : { alternatives: answer.alternatives }),
    ...(slots === undefined ? {} : { slots }),
    ...(answer.correction === undefined ? {} : { correction: answer.correction }),
    ...(answer.handoff === undefined ? {} : { handoff: answer.handoff }),
    ...(knowledge === undefined ? {} : { knowledge }),
  };
}

function normal(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}
