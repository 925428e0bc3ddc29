/**
 * The flow language and its compiler. See docs/flows.md and docs/flow-reference.md for the language and
 * contract.ts for the event/effect contract every flow machine follows.
 */
export {
  FlowSchema,
  StateSchema,
  MenuSchema,
  AskSchema,
  CallSchema,
  SubflowSchema,
  BranchRuleSchema,
  DurationSchema,
} from './flow-schema.js';
export type {
  FlowDefinition,
  FlowDefinitionInput,
  StateDef,
  MenuDef,
  AskDef,
  CallDef,
  ValidationDef,
  SubflowDef,
} from './flow-schema.js';
export { MessageItemSchema, SayInputSchema, WindowRuleSchema } from './content-schema.js';
export type { MessageItem, SayInput, WindowRuleDef } from './content-schema.js';
export { defineFlow } from './define-flow.js';
export { FlowError } from './flow-error.js';
export type { FlowIssue } from './flow-error.js';
export { compileFlow, handlerNames, subflowNames, IDLE_STATE } from './compile-flow.js';
export { migrateSnapshot, migrationTarget } from './migrate-snapshot.js';
export { parseCondition, evaluateCondition } from './condition.js';
export type { Condition, ParseResult } from './condition.js';
export { flowTexts } from './lint-locales.js';
export type { CompileOptions } from './compile-flow.js';
export type { CompiledContext, RecordedError } from './machine-context.js';
export { loadFlowFile, parseFlowText } from './load-flow-file.js';
export type { LoadFlowResult, FlowSource } from './load-flow-file.js';
export { lintFlow, declaredVariables } from './lint-flow.js';
export type { LintOptions, PositionLookup, HandlerInfo } from './lint-flow.js';
export { formatDiagnostic } from './diagnostic.js';
export type { Diagnostic } from './diagnostic.js';
export { flowToMermaid, mermaidStateId, stateIdOfMermaid } from './flow-to-mermaid.js';
export { flowJsonSchema } from './flow-json-schema.js';
export { encodeOptionId, decodeOptionId, OPTION_ID_SEPARATOR } from './option-id.js';
export type { DecodedOptionId } from './option-id.js';
export { normalizeText } from './text-match.js';
export { interpolate } from './interpolate.js';
export { DEFAULT_FALLBACK } from './decide.js';
export { parseDuration } from '../core/duration.js';
export type * from './contract.js';
