/// <reference types="node" preserve="true" />
/**
 * switchboard: conversational bots on the Messaging Developer API.
 *
 * One curated entry point, grouped by audience. Test helpers live in the
 * `switchboard/testing` subpath.
 */

// ── Building bots ───────────────────────────────────────────────────────────
export { createBot } from './engine/create-bot.js';
export { BotConfigError } from './engine/types.js';
export type {
  EventTarget,
  ExternalEventOptions,
  ExternalEventResult,
} from './engine/external-events.js';
export { eventsRouter, createEventsHandler, EventRequestSchema } from './ingest/events-endpoint.js';
export type {
  Bot,
  BotOptions,
  SendOptions,
  BotEvents,
  Handler,
  HandlerContext,
  HandlerResult,
  ConversationView,
  IngestEvent,
  HandleResult,
  ReadOnlyApi,
} from './engine/types.js';
export { defineBot, loadBot, resolveBot, reloadFlowSources, intentsOf } from './bot/index.js';
export type {
  BotDefinition,
  BotDefinitionInput,
  BotFlowSource,
  ResolvedBot,
  BotLoadResult,
  ReloadSourcesOptions,
} from './bot/index.js';
export {
  defineFlow,
  compileFlow,
  loadFlowFile,
  parseFlowText,
  lintFlow,
  formatDiagnostic,
  flowToMermaid,
  flowJsonSchema,
  FlowError,
  FlowSchema,
} from './flows/index.js';
export type {
  FlowDefinition,
  FlowDefinitionInput,
  Diagnostic,
  RunnableFlow,
  FlowEvent,
  Effect,
  FlowContext,
  FlowInput,
  InboundMessage,
  ContactInfo,
  Vars,
  VarValue,
} from './flows/index.js';
export {
  text,
  template,
  image,
  video,
  audio,
  document,
  buttons,
  list,
  location,
  contact,
  buildSendRequest,
  validateSendRequest,
  validateContent,
  checkMediaLink,
  MessageValidationError,
} from './messages/index.js';
export type { Content, SendRequest, MessageIssue, ValidationResult } from './messages/index.js';

// ── Flow language v2: handlers with outcomes, contact memory, versions, diagrams ──
export { defineHandler } from './bot/index.js';
export type { DeclaredHandler } from './bot/index.js';
export { forgetContact, loadContactMemory } from './engine/contact-memory.js';
export type { ForgetResult } from './engine/contact-memory.js';
export type { ReloadResult } from './engine/types.js';
export {
  mermaidStateId,
  stateIdOfMermaid,
  migrateSnapshot,
  parseCondition,
  evaluateCondition,
} from './flows/index.js';

// ── Advanced: the API client, stores, limiters, callbacks, logging ────────────
export {
  MessagingClient,
  PageCursor,
  ApiError,
  AuthError,
  ScopeError,
  NotFoundError,
  AdmissionError,
  ValidationError,
  RateLimitError,
  UnavailableError,
  ServerError,
  isErrorCode,
  MemoryLimiter,
  CallbackEvent,
  signCallback,
  verifyCallback,
  MESSAGING_PRODUCT,
} from './api/index.js';
export type { MessagingClientOptions, Page, SendResult, Limiter, BudgetRule } from './api/index.js';
export { RedisLimiter } from './api/redis-limiter.js';
export type {
  Store,
  StoreRetention,
  ConversationPage,
  ListedConversation,
  AlongWrites,
  ValueWrite,
  TimerWrite,
} from './store/store.js';
export { SqliteStateReader, StateFileReadError } from './store/sqlite-reader.js';
export {
  readConversationView,
  readJournal,
  findConversations,
} from './journal/conversation-view.js';
export type {
  ConversationReader,
  InspectedConversation,
  InspectResult,
  JournalEntryView,
  SendRecordFacts,
} from './journal/conversation-view.js';
export { summarizeConversation, matchesFilter } from './journal/conversation-summary.js';
export { formatConversation, formatEntry } from './journal/format-timeline.js';
export type { ConversationSummary, ConversationFilter } from './journal/conversation-summary.js';
export { JournalEntrySchema } from './journal/journal-entry.js';
export type { JournalEntry, JournalEntryKind } from './journal/journal-entry.js';
export { DEFAULT_JOURNAL, resolveJournalOptions } from './journal/journal.js';
export type { JournalOptions } from './journal/journal.js';
export { MemoryStore } from './store/memory-store.js';
export { RedisStore } from './store/redis-store.js';
export type { RedisStoreOptions } from './store/redis-store.js';
export { connectRedis, createRedisClient } from './store/redis-connection.js';
export type { RedisConnectionOptions } from './store/redis-connection.js';
export { parseRedisUrl, RedisUrlError } from './store/redis-url.js';
export type { RedisTarget, RedisAddress } from './store/redis-url.js';
export { redisReadiness } from './store/redis-readiness.js';
export type { RedisReadiness } from './store/redis-readiness.js';
export { RedisReplicationError } from './store/redis-wait.js';
export type { RedisDurability } from './store/redis-wait.js';
export type { RedisClient } from './store/redis-script.js';
export { SqliteStore } from './store/sqlite-store.js';
export type { SqliteStoreOptions } from './store/sqlite-store.js';
export { StateFileLockedError } from './store/sqlite-schema.js';
export { SqliteBudgetJournal } from './store/sqlite-budget-journal.js';
export { guardStore, StoreUnavailableError } from './store/guarded-store.js';
export type { GuardedStore } from './store/guarded-store.js';
export { JournaledLimiter } from './api/journaled-limiter.js';
export type { BudgetJournal } from './api/journaled-limiter.js';
export { createLogger, silentLogger } from './log/logger.js';
export type { Logger, LoggerOptions } from './log/logger.js';
export { ManualClock, systemClock } from './core/clock.js';
export type { Clock } from './core/clock.js';
export { LIMITS, BUDGETS } from './core/limits.js';
export { broadcast } from './broadcast/broadcast.js';
export type { BroadcastConfig, BroadcastIo, BroadcastResult } from './broadcast/broadcast.js';

// ── Understanding free text: builtin and llm understanders, knowledge, evaluation ──
export {
  createBuiltinUnderstander,
  DEFAULT_UNDERSTAND_THRESHOLD,
  createLlmUnderstander,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_LLM_CALLS_PER_MINUTE,
  llmOptionsFromEnv,
  LlmConfigError,
  buildPrompt,
  redactPersonal,
  MemoryLlmBudget,
  RedisLlmBudget,
  shareLlmBudget,
  isLlmUnderstander,
  modelAnswerSchema,
  KnowledgeBase,
  loadKnowledge,
  readKnowledgeFiles,
  splitMarkdown,
  trimText,
  DEFAULT_KNOWLEDGE_THRESHOLD,
  evaluate,
  formatEvalReport,
  parseLabelledCsv,
  evaluateKnowledge,
  parseKnowledgeCsv,
  LabelledCsvError,
  HANDOFF_LABEL,
  OUT_OF_SCOPE,
} from './understand/index.js';
export type {
  SlotKind,
  SlotChoice,
  SlotSpec,
  IntentSpec,
  OptionSpec,
  Turn,
  UnderstandInput,
  SlotValue,
  ScoredIntent,
  KnowledgeSource,
  KnowledgeAnswer,
  UnderstandingSource,
  Understanding,
  Understander,
  UnderstanderLogger,
  BuiltinUnderstander,
  BuiltinUnderstanderOptions,
  LlmUnderstanderOptions,
  LlmLogger,
  LlmEndpoint,
  ChatMessage,
  PromptOptions,
  LlmBudget,
  RedisLlmBudgetOptions,
  KnowledgeFile,
  KnowledgeHit,
  KnowledgeSection,
  EvalReport,
  KnowledgeReport,
  KnowledgeRow,
  KnowledgeOutcome,
  EvaluateOptions,
  Figures,
  RowOutcome,
  LabelledRow,
} from './understand/index.js';
export type {
  UnderstanderSetup,
  UnderstanderFactory,
  UnderstandSettings,
} from './understand/setup.js';
export { defaultUnderstander } from './understand/default-understander.js';
export type { DefaultUnderstanderOptions } from './understand/default-understander.js';

// ── Local development: the sandbox ──────────────────────────────────────────
export { createSandbox, defaultSandboxConfig, loadSandboxConfig } from './sandbox/index.js';
export type { Sandbox, SandboxOptions, SandboxControl } from './sandbox/index.js';
export type {
  ProvisioningControl,
  MediaHoldControl,
  MediaHoldView,
  ResetScope,
} from './sandbox/index.js';

// ── Operations: traces, backups, layout versions ────────────────────────────
export { startTracing, tracingDecision } from './observe/tracing.js';
export type {
  Tracing,
  TracingDecision,
  StartTracingOptions,
  StartTracingResult,
} from './observe/tracing.js';
export { TRACE_ATTRIBUTES } from './observe/engine-tracing.js';
export { createMetrics } from './metrics/create-metrics.js';
export type { BotMetrics, MetricsOptions } from './metrics/create-metrics.js';
export { oldestWaitingAgeMs } from './metrics/backlog-probe.js';
export {
  backupStateFile,
  restoreStateFile,
  describeStateFile,
  StateBackupError,
} from './store/sqlite-backup.js';
export { readStateIdentity, recordStateIdentity } from './store/sqlite-identity.js';
export type { StateIdentity } from './store/sqlite-identity.js';
export { ensureRedisLayout, RedisLayoutError, REDIS_LAYOUT_VERSION } from './store/redis-layout.js';
