import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadStudioBot } from '../../src/studio/studio-bot.js';

const example = resolve(import.meta.dirname, '../../examples/pizza-order');

describe('loadStudioBot (understanding)', () => {
  it('should watch the knowledge files, so an edit re-indexes them', async () => {
    vi.stubEnv('LLM_BASE_URL', '');
    const r = await loadStudioBot(example);
    vi.unstubAllEnvs();
    if (r.status !== 'ok') throw new Error(r.message);
    expect(r.bot.files).toEqual(
      expect.arrayContaining([
        resolve(example, 'knowledge/delivery.md'),
        resolve(example, 'knowledge/allergens.md'),
      ]),
    );
    expect(r.bot.resolved.understanding?.understander.name).toBe('builtin');
  });

  it('should give a lone flow file with intents the default understander', async () => {
    vi.stubEnv('LLM_BASE_URL', '');
    const r = await loadStudioBot(resolve(example, 'pizza-order.yaml'));
    vi.unstubAllEnvs();
    if (r.status !== 'ok') throw new Error(r.message);
    expect(r.bot.resolved.understanding?.understander.name).toBe('builtin');
  });
});
