import { describe, expect, it } from 'vitest';
import * as switchboard from 'switchboard';
import * as testing from 'switchboard/testing';

describe('package entry points', () => {
  it('should expose the bot-building API from "switchboard"', () => {
    for (const name of [
      'createBot',
      'defineBot',
      'defineFlow',
      'compileFlow',
      'text',
      'buttons',
      'MessagingClient',
      'MemoryStore',
      'RedisStore',
      'createSandbox',
      'createLogger',
    ] as const) {
      expect(typeof switchboard[name], name).toBe('function');
    }
    expect(switchboard.LIMITS.buttonTitle).toBe(20);
  });

  it('should expose the understanding API from "switchboard"', () => {
    for (const name of [
      'createBuiltinUnderstander',
      'createLlmUnderstander',
      'llmOptionsFromEnv',
      'defaultUnderstander',
      'loadKnowledge',
      'readKnowledgeFiles',
      'splitMarkdown',
      'evaluate',
      'parseLabelledCsv',
      'formatEvalReport',
      'intentsOf',
    ] as const) {
      expect(typeof switchboard[name], name).toBe('function');
    }
    expect(switchboard.DEFAULT_UNDERSTAND_THRESHOLD).toBe(0.6);
    expect(typeof switchboard.KnowledgeBase).toBe('function');
  });

  it('should expose the test kit from "switchboard/testing"', () => {
    expect(Object.keys(testing).length).toBeGreaterThan(0);
  });
});
