/** Bot modules: flows plus handlers, loaded by the CLI and the test kit. */
export { defineBot, isBotDefinition } from './define-bot.js';
export type {
  BotDefinition,
  BotDefinitionInput,
  BotFlowSource,
  SandboxTemplate,
} from './define-bot.js';
export { resolveBot, compileFlowFile } from './resolve-bot.js';
export type { ResolvedBot, BotLoadResult } from './resolve-bot.js';
export { loadBot } from './load-bot.js';
export { defineHandler, handlerInfo } from './define-handler.js';
export type { DeclaredHandler } from './define-handler.js';
export { reloadFlowSources } from './reload-flow-sources.js';
export { intentsOf } from './resolve-understanding.js';
export type { ReloadSourcesOptions } from './reload-flow-sources.js';
