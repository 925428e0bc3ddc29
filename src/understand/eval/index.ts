/** Measuring an understander on labelled messages (`switchboard eval`). */
export {
  evaluate,
  HANDOFF_LABEL,
  type EvalReport,
  type EvaluateOptions,
  type Figures,
  type RowOutcome,
} from './evaluate.js';
export { formatEvalReport } from './format-report.js';
export {
  parseLabelledCsv,
  LabelledCsvError,
  OUT_OF_SCOPE,
  type LabelledRow,
} from './labelled-csv.js';
export {
  evaluateKnowledge,
  parseKnowledgeCsv,
  type KnowledgeOutcome,
  type KnowledgeReport,
  type KnowledgeRow,
} from './knowledge-eval.js';
