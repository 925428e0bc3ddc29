/**
 * Measuring knowledge answers on labelled questions: CSV with the columns `text`, `locale`
 * and `source` (the section that answers it, `file#Heading > Sub`, or empty when the
 * knowledge does not answer it: the right answer is "I don't know"). Two figures: the
 * share of answerable questions answered from their section, and the share of
 * unanswerable ones that got an answer anyway (a false answer).
 */
import type { KnowledgeBase } from '../knowledge/knowledge-base.js';
import { DEFAULT_KNOWLEDGE_THRESHOLD } from '../knowledge/knowledge-base.js';
import { labelledTable, LabelledCsvError } from './labelled-csv.js';

/** One labelled question. */
export interface KnowledgeRow {
  readonly line: number;
  readonly text: string;
  readonly locale: string;
  /** `file#Heading > Sub` of the section that answers it; undefined: unanswerable. */
  readonly source: string | undefined;
}

/** What happened to one question. */
export interface KnowledgeOutcome {
  readonly row: KnowledgeRow;
  /** `file#heading` of the section answered from, or undefined ("I don't know"). */
  readonly answered: string | undefined;
  readonly confidence: number | undefined;
  readonly right: boolean;
}

/** The figures of {@link evaluateKnowledge}. */
export interface KnowledgeReport {
  readonly threshold: number;
  readonly answerable: number;
  readonly unanswerable: number;
  /** Answerable questions answered from their own section, 0..1. */
  readonly accuracy: number;
  /** Unanswerable questions that got an answer, 0..1. */
  readonly falseAnswerRate: number;
  /** Every question that went wrong. */
  readonly misses: readonly KnowledgeOutcome[];
}

const REQUIRED = ['text', 'locale', 'source'] as const;

/**
 * Parses a labelled knowledge CSV; throws {@link LabelledCsvError} naming the line.
 * @example
 * parseKnowledgeCsv('text,locale,source\ndo you deliver to Leeds?,en,faq.md#Delivery\n');
 */
export function parseKnowledgeCsv(text: string): KnowledgeRow[] {
  return labelledTable(text, REQUIRED).map(({ line, text: rowText, at }) => {
    const source = at('source').trim();
    if (source !== '' && !source.includes('#'))
      throw new LabelledCsvError(`source "${source}" is not file#Heading > Sub`, line);
    return {
      line,
      text: rowText,
      locale: at('locale').trim(),
      source: source === '' ? undefined : source,
    };
  });
}

/** Answers every question with `kb` at `threshold` and compares with its label. */
export function evaluateKnowledge(
  kb: KnowledgeBase,
  rows: readonly KnowledgeRow[],
  threshold = DEFAULT_KNOWLEDGE_THRESHOLD,
): KnowledgeReport {
  const outcomes = rows.map((row): KnowledgeOutcome => {
    const a = kb.answer(row.text, row.locale, threshold);
    const src = a?.sources[0];
    const answered = src === undefined ? undefined : `${src.file}#${src.heading}`;
    return { row, answered, confidence: a?.confidence, right: answered === row.source };
  });
  const answerable = outcomes.filter((o) => o.row.source !== undefined);
  const unanswerable = outcomes.filter((o) => o.row.source === undefined);
  const share = (n: number, of: number): number => (of === 0 ? 0 : n / of);
  return {
    threshold,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    accuracy: share(answerable.filter((o) => o.right).length, answerable.length),
    falseAnswerRate: share(
      unanswerable.filter((o) => o.answered !== undefined).length,
      unanswerable.length,
    ),
    misses: outcomes.filter((o) => !o.right),
  };
}
