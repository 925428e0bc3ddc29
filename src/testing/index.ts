/// <reference types="node" preserve="true" />
/**
 * The switchboard test kit (`switchboard/testing`): drive a bot in vitest with no network
 * beyond 127.0.0.1: a real engine, an in-process sandbox, a fake clock, a memory store.
 */
export { createTestConversation } from './test-conversation.js';
export type {
  TestConversation,
  TestConversationOptions,
  TestContact,
  SentMessage,
} from './test-conversation.js';
export type { TestBot } from './test-bot.js';
export type { ContactActions } from './contact-actions.js';
export { captureLogs, LOG_LEVELS } from './log-capture.js';
export type { LogEntry, LogFilter, LogLevel, CapturedLogs } from './log-capture.js';
export { expectSent, ExpectationError } from './expect-sent.js';
export type { SentExpectations, TextMatch } from './expect-sent.js';
export { viewOfRequest, renderView } from './message-view.js';
export type { MessageView, OptionView } from './message-view.js';
export { startBotHarness } from './bot-harness.js';
export { scripted, toUnderstanding } from '../understand/scripted.js';
export type {
  ScriptedAnswer,
  ScriptedEntry,
  ScriptedOptions,
  ScriptedUnderstander,
} from '../understand/scripted.js';
export type { UnderstoodEntry } from './understood-log.js';
export type { BotHarness, BotHarnessOptions, MovableClock } from './bot-harness.js';
export { defineBot, loadBot } from '../bot/index.js';
export type { Handler, HandlerContext, HandlerResult, ReloadResult } from '../engine/types.js';
export type { BotDefinition } from '../bot/index.js';
