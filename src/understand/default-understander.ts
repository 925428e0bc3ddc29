import { createBuiltinUnderstander } from './builtin/index.js';
import { loadKnowledge } from './knowledge/knowledge-base.js';
import { createLlmUnderstander } from './llm/index.js';
import { llmCallsPerMinute, llmOptionsFromEnv } from './llm/options-from-env.js';
import type { UnderstanderSetup } from './setup.js';
import type { Understander } from './types.js';

/** Options of {@link defaultUnderstander}. */
export interface DefaultUnderstanderOptions {
  /** false: never a model, even when `LLM_BASE_URL` is set (`understand.model: false`). */
  readonly model: boolean;
  /** Where `LLM_*` are read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The understander a bot gets when it names none: the offline builtin with the bot's
 * knowledge indexed, or, when `model` is true and `LLM_BASE_URL` is set, an
 * OpenAI-compatible model with that builtin as its fallback (the model's own fallback for
 * a slow, down or nonsensical answer, and the engine's for steps that opt out of the
 * model). Called at start and on each reload, so the knowledge is re-indexed each time.
 * Throws `LlmConfigError` when `LLM_BASE_URL` is set but the rest (`LLM_MODEL`) is wrong.
 * @example
 * const made = await defaultUnderstander(setup, { model: true });
 */
export async function defaultUnderstander(
  setup: UnderstanderSetup,
  options: DefaultUnderstanderOptions,
): Promise<{ understander: Understander; fallback?: Understander }> {
  await Promise.resolve();
  const knowledge =
    setup.knowledge.length === 0
      ? undefined
      : loadKnowledge(setup.knowledge.map((k) => ({ path: k.file, content: k.text })));
  const builtin = createBuiltinUnderstander(knowledge === undefined ? {} : { knowledge });
  const env = options.env ?? process.env;
  const baseUrl = env['LLM_BASE_URL'];
  if (!options.model || baseUrl === undefined || baseUrl === '') return { understander: builtin };
  const llm = createLlmUnderstander({
    ...llmOptionsFromEnv(env),
    ...llmCallsPerMinute(env),
    fallback: builtin,
    ...(knowledge === undefined ? {} : { knowledge }),
  });
  return { understander: llm, fallback: builtin };
}
