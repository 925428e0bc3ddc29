/**
 * Measures an understander on labelled messages: intent accuracy, slot accuracy, a
 * confusion table, how often out-of-scope messages are left alone or taken confidently
 * by a wrong intent, per language, and the slowest messages.
 */
import { performance } from 'node:perf_hooks';
import type { IntentSpec, UnderstandInput, Understander, Understanding } from '../types.js';
import { baseLanguage, fold } from '../text/fold.js';
import { OUT_OF_SCOPE, type LabelledRow } from './labelled-csv.js';

/** The label for "the understander asked for a person" (a row may expect it). */
export const HANDOFF_LABEL = 'handoff';

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  /** Confidence an intent needs to count as understood (the flow's threshold). */
  readonly threshold: number;
  /** Locale for rows without one (rows always have one when parsed from CSV). */
  readonly locale?: string;
  /** Timezone relative dates are resolved in (default `UTC`). */
  readonly timezone?: string;
  /** "Now" for relative dates, epoch ms (default: the time evaluate() starts; give one for repeatable figures). */
  readonly now?: number;
  /** The flow's out-of-scope examples per locale (`understand.outOfScope`), if any. */
  readonly outOfScope?: Readonly<Record<string, readonly string[]>>;
  /** How many slowest messages to list (default 5). */
  readonly slowest?: number;
  /**
   * Whether the first row is understood once, untimed, before the timed run (default true):
   * the first call pays for building the index. An llm understander makes one more call.
   */
  readonly warmUp?: boolean;
}

/** What the understander made of one row. */
export interface RowOutcome {
  readonly row: LabelledRow;
  /** Predicted label: an intent id, `handoff` or `out_of_scope`. */
  readonly predicted: string;
  readonly expected: string;
  readonly confidence: number;
  readonly slotsExpected: number;
  readonly slotsCorrect: number;
  /** Slots expected but missing or different, as `name=got (want)`. */
  readonly slotErrors: readonly string[];
  readonly ms: number;
  readonly understanding: Understanding;
}

/** Accuracy figures over a group of rows. */
export interface Figures {
  readonly rows: number;
  readonly intentAccuracy: number;
  readonly slotAccuracy: number;
  readonly slotsExpected: number;
}

/** The result of {@link evaluate}. */
export interface EvalReport extends Figures {
  readonly threshold: number;
  readonly understander: string;
  /** Figures per language (`en`, `es`). */
  readonly byLanguage: Readonly<Record<string, Figures>>;
  /** expected label → predicted label → count. */
  readonly confusion: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Share of all rows predicted out of scope. */
  readonly outOfScopeRate: number;
  /** Rows labelled out of scope. */
  readonly outOfScopeRows: number;
  /** Share of out-of-scope rows that an intent (or handoff) took confidently. */
  readonly confidentWrongOnOutOfScope: number;
  readonly slowest: readonly RowOutcome[];
  readonly outcomes: readonly RowOutcome[];
}

function same(got: unknown, want: string): boolean {
  if (typeof got === 'number') return Number(want) === got;
  const norm = (s: string): string =>
    fold(s)
      .replace(/[^\p{L}\p{N}@+.:-]+/gu, ' ')
      .trim();
  return typeof got === 'string' && norm(got) === norm(want);
}

function figures(outcomes: readonly RowOutcome[]): Figures {
  const expected = outcomes.reduce((n, o) => n + o.slotsExpected, 0);
  const correct = outcomes.reduce((n, o) => n + o.slotsCorrect, 0);
  return {
    rows: outcomes.length,
    intentAccuracy:
      outcomes.length === 0
        ? 0
        : outcomes.filter((o) => o.predicted === o.expected).length / outcomes.length,
    slotAccuracy: expected === 0 ? 1 : correct / expected,
    slotsExpected: expected,
  };
}

/**
 * Runs `understander` over `rows` with `intents` in scope (and no open capture), one
 * message at a time.
 * @example
 * const report = await evaluate(createBuiltinUnderstander(), intents, parseLabelledCsv(csv), { threshold: 0.6 });
 * console.log(formatEvalReport(report));
 */
export async function evaluate(
  understander: Understander,
  intents: readonly IntentSpec[],
  rows: readonly LabelledRow[],
  options: EvaluateOptions,
): Promise<EvalReport> {
  const now = options.now ?? Date.now();
  const outcomes: RowOutcome[] = [];
  const input = (row: LabelledRow): UnderstandInput => ({
    text: row.text,
    locale: row.locale === '' ? (options.locale ?? 'en') : row.locale,
    timezone: options.timezone ?? 'UTC',
    now,
    intents,
    slots: [],
    ...(options.outOfScope === undefined ? {} : { outOfScope: options.outOfScope }),
  });
  // Warm-up: the first call builds the index and loads the readers; timed, it would head
  // the slowest list with a cost no later message pays.
  const first = rows[0];
  if (first !== undefined && options.warmUp !== false) await understander.understand(input(first));
  for (const row of rows) {
    const started = performance.now();
    const u = await understander.understand(input(row));
    const ms = performance.now() - started;
    const confident = u.intent !== undefined && u.intent.confidence >= options.threshold;
    const predicted =
      u.handoff === true
        ? HANDOFF_LABEL
        : confident && u.intent !== undefined
          ? u.intent.id
          : OUT_OF_SCOPE;
    const slotErrors: string[] = [];
    let slotsCorrect = 0;
    for (const [name, want] of Object.entries(row.slots)) {
      const got = u.slots?.[name]?.value;
      if (same(got, want)) slotsCorrect += 1;
      else slotErrors.push(`${name}=${got === undefined ? '∅' : String(got)} (want ${want})`);
    }
    outcomes.push({
      row,
      predicted,
      expected: row.intent ?? OUT_OF_SCOPE,
      confidence: u.intent?.confidence ?? 0,
      slotsExpected: Object.keys(row.slots).length,
      slotsCorrect,
      slotErrors,
      ms,
      understanding: u,
    });
  }
  const confusion: Record<string, Record<string, number>> = {};
  for (const o of outcomes) {
    const line = (confusion[o.expected] ??= {});
    line[o.predicted] = (line[o.predicted] ?? 0) + 1;
  }
  const languages = [...new Set(outcomes.map((o) => baseLanguage(o.row.locale)))].sort();
  const oos = outcomes.filter((o) => o.expected === OUT_OF_SCOPE);
  return {
    ...figures(outcomes),
    threshold: options.threshold,
    understander: understander.name,
    byLanguage: Object.fromEntries(
      languages.map((l) => [l, figures(outcomes.filter((o) => baseLanguage(o.row.locale) === l))]),
    ),
    confusion,
    outOfScopeRate:
      outcomes.length === 0
        ? 0
        : outcomes.filter((o) => o.predicted === OUT_OF_SCOPE).length / outcomes.length,
    outOfScopeRows: oos.length,
    confidentWrongOnOutOfScope:
      oos.length === 0 ? 0 : oos.filter((o) => o.predicted !== OUT_OF_SCOPE).length / oos.length,
    slowest: [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, options.slowest ?? 5),
    outcomes,
  };
}
