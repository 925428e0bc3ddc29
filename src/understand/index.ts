/**
 * Understanding free text: the contract (types), the builtin and llm understanders,
 * knowledge files and evaluation.
 */
export type * from './types.js';
export {
  createBuiltinUnderstander,
  DEFAULT_UNDERSTAND_THRESHOLD,
  type BuiltinUnderstander,
  type BuiltinUnderstanderOptions,
} from './builtin/index.js';
export {
  createLlmUnderstander,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_LLM_CALLS_PER_MINUTE,
  isLlmUnderstander,
  type LlmUnderstander,
  type LlmUnderstanderOptions,
  type LlmLogger,
} from './llm/index.js';
export { shareLlmBudget } from './llm/share-budget.js';
export { llmOptionsFromEnv, LlmConfigError, type LlmEndpoint } from './llm/options-from-env.js';
export { buildPrompt, type ChatMessage, type PromptOptions } from './llm/prompt.js';
export { redactPersonal } from './llm/redact-personal.js';
export { MemoryLlmBudget, type LlmBudget } from './llm/budget.js';
export { RedisLlmBudget, type RedisLlmBudgetOptions } from './llm/redis-budget.js';
export { modelAnswerSchema } from './llm/model-answer.js';
export * from './knowledge/index.js';
export * from './eval/index.js';
