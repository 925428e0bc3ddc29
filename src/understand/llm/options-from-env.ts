/** The `llm` understander's endpoint from environment variables. */
import { z } from 'zod';

/** Where the model is: any OpenAI-compatible `/chat/completions` endpoint. */
export interface LlmEndpoint {
  /** Base URL up to and including the API version (`https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`). */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …` (or `api-key:` for Azure); never logged. Local servers need none. */
  readonly apiKey?: string;
  readonly model: string;
  /** `authorization` (default: OpenAI, Ollama, vLLM, llama.cpp) or `api-key` (Azure OpenAI). */
  readonly apiKeyHeader?: 'authorization' | 'api-key';
}

const schema = z.object({
  LLM_BASE_URL: z.url({
    protocol: /^https?$/,
    error: 'must be an http(s) URL such as https://api.openai.com/v1',
  }),
  LLM_MODEL: z.string().trim().min(1, 'must name the model, e.g. gpt-4o-mini or llama3.1'),
  LLM_API_KEY: z.string().optional(),
  LLM_API_KEY_HEADER: z.enum(['authorization', 'api-key']).optional(),
});

/** An LLM setting that is missing or wrong; the message names the variable. */
export class LlmConfigError extends Error {
  override readonly name = 'LlmConfigError';
}

/**
 * Reads `LLM_BASE_URL`, `LLM_MODEL`, `LLM_API_KEY` (optional) and `LLM_API_KEY_HEADER`
 * (optional: `api-key` for Azure). Throws {@link LlmConfigError} naming the variable (never
 * its value).
 * @example
 * const endpoint = llmOptionsFromEnv(process.env);
 * const understander = createLlmUnderstander({ ...endpoint });
 */
export function llmOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): LlmEndpoint {
  const parsed = schema.safeParse({
    LLM_BASE_URL: env['LLM_BASE_URL'],
    LLM_MODEL: env['LLM_MODEL'],
    LLM_API_KEY: env['LLM_API_KEY'] === '' ? undefined : env['LLM_API_KEY'],
    LLM_API_KEY_HEADER: env['LLM_API_KEY_HEADER'] === '' ? undefined : env['LLM_API_KEY_HEADER'],
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'LLM_*');
    const what = issue?.code === 'invalid_type' ? 'is not set' : (issue?.message ?? 'is invalid');
    throw new LlmConfigError(`${name} ${what}`);
  }
  const e = parsed.data;
  return {
    baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''),
    model: e.LLM_MODEL,
    ...(e.LLM_API_KEY === undefined ? {} : { apiKey: e.LLM_API_KEY }),
    ...(e.LLM_API_KEY_HEADER === undefined ? {} : { apiKeyHeader: e.LLM_API_KEY_HEADER }),
  };
}

/**
 * `LLM_CALLS_PER_MINUTE` (optional, a whole number ≥ 0; default 60): the model's call
 * budget, shared by every worker on Redis. Throws {@link LlmConfigError} naming it.
 */
export function llmCallsPerMinute(env: Readonly<Record<string, string | undefined>>): {
  callsPerMinute?: number;
} {
  const raw = env['LLM_CALLS_PER_MINUTE'];
  if (raw === undefined || raw.trim() === '') return {};
  if (!/^\d+$/.test(raw.trim()))
    throw new LlmConfigError('LLM_CALLS_PER_MINUTE must be a whole number ≥ 0, e.g. 60');
  return { callsPerMinute: Number(raw.trim()) };
}
