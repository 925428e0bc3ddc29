/**
 * The `llm` understander: asks an OpenAI-compatible model what a message means, checks
 * the reply against this message's intents and slots, and falls back to the builtin
 * understander's answer (marked `fallback: '<reason>'`) when the model is over budget,
 * slow, down, refuses, or answers nonsense. One attempt per message, never a retry.
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { redactString } from '../../log/redact.js';
import { createBuiltinUnderstander } from '../builtin/index.js';
import { extractSlots } from '../builtin/extract-slots.js';
import { baseLanguage } from '../text/fold.js';
import type { KnowledgeBase } from '../knowledge/knowledge-base.js';
import { DEFAULT_KNOWLEDGE_THRESHOLD } from '../knowledge/knowledge-base.js';
import type { SlotValue, UnderstandInput, Understander, Understanding } from '../types.js';
import { MemoryLlmBudget, type LlmBudget } from './budget.js';
import { callChat, ModelCallError } from './chat-client.js';
import { InvalidModelAnswer, readModelAnswer } from './model-answer.js';
import type { LlmEndpoint } from './options-from-env.js';
import { buildPrompt } from './prompt.js';

/** Default deadline of one model call. */
export const DEFAULT_LLM_TIMEOUT_MS = 3000;
/** Default calls per minute when no budget is given. */
export const DEFAULT_LLM_CALLS_PER_MINUTE = 60;

/** Where the llm understander reports why it fell back (the key is redacted). */
export interface LlmLogger {
  warn(message: string, meta?: Record<string, unknown>): void;
}

/** Options of {@link createLlmUnderstander}. */
export interface LlmUnderstanderOptions extends LlmEndpoint {
  /** Deadline of the one call per message (default 3,000 ms). */
  readonly timeoutMs?: number;
  /** Call budget (default: {@link MemoryLlmBudget} of `callsPerMinute`; RedisLlmBudget to share it between workers). */
  readonly budget?: LlmBudget;
  /** Calls a minute (default 60): the default budget's, and the one a shared budget is given. */
  readonly callsPerMinute?: number;
  /** What answers when the model does not (default: the builtin understander with the same knowledge). */
  readonly fallback?: Understander;
  /** Knowledge: sections found for the message are sent, and the model answers only from them. */
  readonly knowledge?: KnowledgeBase;
  /** Sections below this retrieval confidence are not sent (default 0.6). */
  readonly knowledgeThreshold?: number;
  /** Redact emails, phone numbers and `redactValues` from what is sent (default true). */
  readonly redact?: boolean;
  /** Country for national phone formats (`GB`), when the locale has no region. */
  readonly defaultCountry?: string;
  /** Ask for JSON mode (`response_format`), default true. */
  readonly jsonMode?: boolean;
  readonly logger?: LlmLogger;
  /** undici dispatcher (proxy, connection pool), optional. */
  readonly dispatcher?: Dispatcher;
}

const PRIVATE_KINDS = new Set(['phone', 'email']);

/** The llm understander: an {@link Understander} whose call budget can be shared. */
export interface LlmUnderstander extends Understander {
  /** Calls a minute it allows. */
  readonly callsPerMinute: number;
  /** Takes its calls from `budget` from now on (a RedisLlmBudget every worker shares). */
  useBudget(budget: LlmBudget): void;
  /**
   * Logs its fallbacks (model slow, down, nonsensical) to `logger` from now on, unless it
   * was made with a logger of its own: how a bot's logger reaches the default understander.
   */
  useLogger(logger: LlmLogger): void;
}

/** True for an understander made by {@link createLlmUnderstander}. */
export function isLlmUnderstander(u: Understander | undefined): u is LlmUnderstander {
  return u !== undefined && typeof (u as Partial<LlmUnderstander>).useBudget === 'function';
}

/**
 * Creates the llm understander.
 * @example
 * const understander = createLlmUnderstander({ ...llmOptionsFromEnv(process.env), knowledge });
 */
export function createLlmUnderstander(options: LlmUnderstanderOptions): LlmUnderstander {
  const fallback =
    options.fallback ??
    createBuiltinUnderstander({
      ...(options.knowledge === undefined ? {} : { knowledge: options.knowledge }),
      ...(options.defaultCountry === undefined ? {} : { defaultCountry: options.defaultCountry }),
    });
  const callsPerMinute = options.callsPerMinute ?? DEFAULT_LLM_CALLS_PER_MINUTE;
  let budget = options.budget ?? new MemoryLlmBudget(callsPerMinute);
  const redact = options.redact ?? true;
  const secrets = options.apiKey === undefined ? [] : [options.apiKey];
  let logger = options.logger;
  const warn = (message: string, meta: Record<string, unknown>): void =>
    logger?.warn(redactString(message, secrets), meta);

  return {
    name: 'llm',
    callsPerMinute,
    useBudget(shared: LlmBudget): void {
      budget = shared;
    },
    useLogger(given: LlmLogger): void {
      if (options.logger === undefined) logger = given;
    },
    async understand(input: UnderstandInput, signal?: AbortSignal): Promise<Understanding> {
      const started = performance.now();
      // The builtin answer is computed first (local, about a millisecond): it is the
      // fallback, and it reads phone numbers and emails the model never sees.
      const local = await fallback.understand(input, signal);
      const fail = (reason: string, detail: string): Understanding => {
        warn(`llm understander fell back to ${fallback.name}: ${detail}`, { reason });
        return { ...local, fallback: reason, ms: Math.round(performance.now() - started) };
      };
      try {
        if (!(await budget.take())) return fail('budget', 'the per-minute call budget is spent');
      } catch (error) {
        return fail('error', `the call budget could not be read: ${String(error)}`);
      }
      const hits =
        input.knowledge === true && options.knowledge !== undefined
          ? options.knowledge
              .search(input.text, input.locale, 3)
              .filter(
                (h) => h.confidence >= (options.knowledgeThreshold ?? DEFAULT_KNOWLEDGE_THRESHOLD),
              )
          : [];
      let content: string;
      try {
        content = await callChat({
          endpoint: options,
          messages: buildPrompt(input, {
            knowledge: hits,
            redact,
            ...(options.defaultCountry === undefined
              ? {}
              : { defaultCountry: options.defaultCountry }),
          }),
          timeoutMs: options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
          signal,
          jsonMode: options.jsonMode,
          dispatcher: options.dispatcher,
        });
      } catch (error) {
        if (error instanceof ModelCallError) return fail(error.reason, error.message);
        return fail('error', String(error));
      }
      let answer: Understanding;
      try {
        answer = readModelAnswer(content, input, hits, options.defaultCountry);
      } catch (error) {
        if (error instanceof InvalidModelAnswer) return fail('invalid', error.message);
        throw error;
      }
      const slots: Record<string, SlotValue> = { ...(answer.slots ?? {}) };
      if (redact) {
        // The model saw [phone]/[email]: those values are read locally, for the model's
        // intent's slots and the state's.
        const intent = input.intents.find((i) => i.id === answer.intent?.id);
        const specs = [...input.slots, ...(intent?.slots ?? [])].filter((s) =>
          PRIVATE_KINDS.has(s.kind),
        );
        Object.assign(
          slots,
          extractSlots(input.text, specs, {
            language: baseLanguage(input.locale),
            locale: input.locale,
            timezone: input.timezone,
            now: input.now,
            defaultCountry: options.defaultCountry,
          }),
        );
      }
      return {
        ...answer,
        ...(Object.keys(slots).length === 0 ? {} : { slots }),
        ms: Math.round(performance.now() - started),
      };
    },
  };
}
