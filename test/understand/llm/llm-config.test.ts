import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { llmOptionsFromEnv, LlmConfigError } from '../../../src/understand/llm/options-from-env.js';
import { buildPrompt } from '../../../src/understand/llm/prompt.js';
import { RedisLlmBudget } from '../../../src/understand/llm/redis-budget.js';

describe('llmOptionsFromEnv', () => {
  it('should read the endpoint and name a missing or wrong variable without its value', () => {
    expect(
      llmOptionsFromEnv({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_MODEL: 'llama3.1' }),
    ).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1',
    });
    expect(
      llmOptionsFromEnv({
        LLM_BASE_URL: 'https://x.test/v1',
        LLM_MODEL: 'm',
        LLM_API_KEY: 'k',
        LLM_API_KEY_HEADER: 'api-key',
      }).apiKeyHeader,
    ).toBe('api-key');
    expect(() => llmOptionsFromEnv({ LLM_MODEL: 'm' })).toThrow(LlmConfigError);
    expect(() => llmOptionsFromEnv({ LLM_MODEL: 'm' })).toThrow(/LLM_BASE_URL is not set/);
    expect(() => llmOptionsFromEnv({ LLM_BASE_URL: 'ftp://secret-host', LLM_MODEL: 'm' })).toThrow(
      /LLM_BASE_URL must be an http/,
    );
    expect(() => llmOptionsFromEnv({ LLM_BASE_URL: 'https://x.test/v1', LLM_MODEL: ' ' })).toThrow(
      /LLM_MODEL/,
    );
  });
});

describe('buildPrompt', () => {
  it('should describe intents, slots, the question and values given, in the contact language first', () => {
    const [system, user] = buildPrompt({
      text: 'no, make it 3',
      locale: 'es',
      timezone: 'Europe/Madrid',
      now: Date.parse('2026-03-04T10:00:00Z'),
      intents: [
        {
          id: 'order',
          description: 'Order pizzas',
          examples: { en: ['I want a pizza'], es: ['quiero una pizza', 'dos grandes'] },
          slots: [
            { name: 'size', kind: 'oneOf', choices: [{ value: 'small' }, { value: 'large' }] },
          ],
        },
      ],
      slots: [{ name: 'quantity', kind: 'integer', description: 'How many' }],
      question: 'How many pizzas?',
      filled: { quantity: 2 },
    });
    expect(system?.content).toContain(
      '- order: Order pizzas. Examples: "quiero una pizza", "dos grandes", "I want a pizza"',
    );
    expect(system?.content).toContain('slots: size (one of: small, large)');
    expect(system?.content).toContain('quantity (whole number; How many)');
    expect(system?.content).toContain('The bot just asked: "How many pizzas?"');
    expect(system?.content).toContain(
      'Values already given (a correction changes one): quantity=2',
    );
    expect(system?.content).toContain('Wednesday, 04/03/2026, 11:00 (Europe/Madrid)');
    expect(system?.content).toContain('"answer" is null');
    expect(user?.content).toBe('Customer (es): no, make it 3');
  });
});

describe('RedisLlmBudget', () => {
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  const prefix = `sb:test:${randomUUID()}:`;
  afterAll(async () => {
    const keys = await redis.keys(`*${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('should share one per-minute budget between workers, atomically', async () => {
    const clock = new ManualClock(Date.parse('2026-03-04T10:00:00Z'));
    const a = new RedisLlmBudget({ redis, prefix, perMinute: 5, clock });
    const b = new RedisLlmBudget({ redis, prefix, perMinute: 5, clock });
    const taken = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).take()),
    );
    expect(taken.filter(Boolean)).toHaveLength(5);
    clock.advance(60_000);
    expect(await a.take()).toBe(true);
    const keys = await redis.keys(`*${prefix}*`);
    expect(keys.every((k) => k.startsWith(`{${prefix}llm-budget}:`))).toBe(true);
    expect(await redis.pttl(keys[0] ?? '')).toBeGreaterThan(0);
  });
});
