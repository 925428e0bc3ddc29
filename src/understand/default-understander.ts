import type { UnderstanderSetup } from './setup.js';
import type { Understander } from './types.js';

/**
 * The understander a bot gets when it names none: the offline builtin, or an
 * OpenAI-compatible model when `LLM_BASE_URL` is set (with the builtin standing in when
 * the model cannot answer). Undefined while no built-in understander is available in this
 * build: such a bot's flows behave as without intents (nothing is understood).
 */
export function defaultUnderstander(
  _setup: UnderstanderSetup,
  _options: { readonly model: boolean },
): Promise<{ understander: Understander; fallback?: Understander } | undefined> {
  // The builtin (src/understand/builtin) and llm (src/understand/llm) understanders are
  // wired here once they are part of the build.
  return Promise.resolve(undefined);
}
