/**
 * One call to an OpenAI-compatible `POST {baseUrl}/chat/completions` over undici (already
 * a dependency of the project; Node 20 compatible), with a deadline: one attempt, never a
 * retry, the reply's first choice's text or a {@link ModelCallError} saying why not.
 */
import { request, type Dispatcher } from 'undici';
import { z } from 'zod';
import type { ChatMessage } from './prompt.js';
import type { LlmEndpoint } from './options-from-env.js';

/** Why a model call gave no reply: the `fallback` reason of the understanding. */
export type ModelFailure = 'timeout' | 'rate_limited' | 'error' | 'aborted';

/** A model call that gave no usable reply. */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  constructor(
    readonly reason: ModelFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/** Options of one call. */
export interface ChatCallOptions {
  readonly endpoint: LlmEndpoint;
  readonly messages: readonly ChatMessage[];
  readonly timeoutMs: number;
  /** Ask for `response_format: {type: "json_object"}` (default true; some servers refuse it). */
  readonly jsonMode?: boolean | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly dispatcher?: Dispatcher | undefined;
}

/** Calls the model once; resolves to its reply text or rejects with {@link ModelCallError}. */
export async function callChat(o: ChatCallOptions): Promise<string> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, o.timeoutMs);
  const onAbort = (): void => controller.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.endpoint.apiKey !== undefined) {
    if (o.endpoint.apiKeyHeader === 'api-key') headers['api-key'] = o.endpoint.apiKey;
    else headers['authorization'] = `Bearer ${o.endpoint.apiKey}`;
  }
  try {
    const res = await request(`${o.endpoint.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: o.endpoint.model,
        messages: o.messages,
        temperature: 0,
        ...(o.jsonMode === false ? {} : { response_format: { type: 'json_object' } }),
      }),
      signal: controller.signal,
      ...(o.dispatcher === undefined ? {} : { dispatcher: o.dispatcher }),
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      const reason = res.statusCode === 429 ? 'rate_limited' : 'error';
      throw new ModelCallError(reason, `the model answered HTTP ${res.statusCode}`, res.statusCode);
    }
    const parsed = completion.safeParse(await res.body.json().catch(() => undefined));
    if (!parsed.success) throw new ModelCallError('error', 'the reply is not a chat completion');
    return parsed.data.choices[0]?.message.content ?? '';
  } catch (error) {
    if (error instanceof ModelCallError) throw error;
    if (timedOut) throw new ModelCallError('timeout', `no reply within ${o.timeoutMs} ms`);
    if (o.signal?.aborted === true) throw new ModelCallError('aborted', 'the call was aborted');
    throw new ModelCallError('error', error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}
