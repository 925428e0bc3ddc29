import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultUnderstander } from '../../../src/understand/default-understander.js';
import { shareLlmBudget } from '../../../src/understand/llm/share-budget.js';
import { createBuiltinUnderstander } from '../../../src/understand/builtin/index.js';
import type { UnderstandInput } from '../../../src/understand/types.js';
import { startFakeModel, type FakeModel } from './fake-model-server.js';

const intents = [{ id: 'track', examples: { en: ['where is my order'] } }];
const input = (text: string): UnderstandInput => ({
  text,
  locale: 'en',
  timezone: 'UTC',
  now: Date.now(),
  intents,
  slots: [],
});

describe('the llm call budget shared by workers on Redis', () => {
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  const prefix = `sb:test:${randomUUID()}:`;
  let model: FakeModel;
  beforeAll(async () => {
    model = await startFakeModel();
  });
  afterAll(async () => {
    await model.close();
    const keys = await redis.keys(`*${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('should let two workers make LLM_CALLS_PER_MINUTE calls between them, then fall back', async () => {
    model.script({ content: JSON.stringify({ intent: 'track', confidence: 0.9 }) });
    const env = { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'fake-1', LLM_CALLS_PER_MINUTE: '2' };
    const setup = { intents, knowledge: [], timezone: 'UTC' };
    const workers = await Promise.all(
      [1, 2].map(() => defaultUnderstander(setup, { model: true, env })),
    );
    for (const w of workers) expect(shareLlmBudget(w.understander, redis, prefix)).toBe(true);
    const answers = [];
    const minute = (): number => Math.floor(Date.now() / 60_000);
    const first = minute();
    for (let i = 0; i < 6; i++)
      answers.push(await workers[i % 2]!.understander.understand(input('where is my order')));
    const called = answers.filter((a) => a.source === 'llm').length;
    expect(model.calls.length).toBe(called);
    // Two in one clock minute (a run that straddles two minutes may make two more).
    if (minute() === first) expect(called).toBe(2);
    else expect(called).toBeLessThanOrEqual(4);
    expect(answers.filter((a) => a.fallback === 'budget').length).toBe(6 - called);
  });

  it('should leave other understanders alone, and refuse a bad LLM_CALLS_PER_MINUTE', async () => {
    expect(shareLlmBudget(createBuiltinUnderstander(), redis, prefix)).toBe(false);
    const setup = { intents, knowledge: [], timezone: 'UTC' };
    const env = { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'm', LLM_CALLS_PER_MINUTE: 'lots' };
    await expect(defaultUnderstander(setup, { model: true, env })).rejects.toThrow(
      /^LLM_CALLS_PER_MINUTE must be a whole number/,
    );
  });
});
