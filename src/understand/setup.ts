import { z } from 'zod';
import type { IntentSpec, Understander } from './types.js';

/**
 * The bot-level settings of understanding (`defineBot({ understand })`) and what an
 * understander factory is given to build itself: every intent of the bot's flows, the
 * knowledge files' text and the timezone.
 */

/** One knowledge file of the bot, read at start (and on a hot reload). */
export interface KnowledgeFile {
  /** Path as the bot declares it (relative to the bot's directory). */
  readonly file: string;
  /** Its Markdown text. */
  readonly text: string;
}

/** What an understander factory is given. */
export interface UnderstanderSetup {
  /** Every intent of every flow of the bot (flows may share ids: the first one is kept). */
  readonly intents: readonly IntentSpec[];
  readonly knowledge: readonly KnowledgeFile[];
  /** IANA timezone of the bot. */
  readonly timezone: string;
}

/** Builds an understander for a bot (called at start and on each hot reload). */
export type UnderstanderFactory = (
  setup: UnderstanderSetup,
) => Understander | Promise<Understander>;

/** Whether `zone` is an IANA timezone this Node knows (`Europe/Madrid`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    // RangeError: not an IANA zone this Node knows.
    return false;
  }
}

/** The bot-level settings, validated (`defineBot({ understand })`). */
export const UnderstandSettingsSchema = z.strictObject({
  threshold: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('Lowest confidence acted on (default 0.6); flows and states may set their own.'),
  timezone: z
    .string()
    .refine(isTimeZone, { error: 'must be an IANA timezone such as UTC or Europe/London' })
    .optional()
    .describe('Timezone dates and times are resolved in (default UTC).'),
  knowledge: z
    .array(z.string().min(1))
    .optional()
    .describe("Markdown files the bot answers questions from, relative to the bot's directory."),
  model: z
    .boolean()
    .optional()
    .describe('false: never call a model, even when LLM_BASE_URL is set.'),
  timeoutMs: z
    .int()
    .min(1)
    .max(120_000)
    .optional()
    .describe('Longest an understander call may take, ms (default 10,000).'),
});
/** The bot-level settings of understanding. */
export type UnderstandSettings = z.infer<typeof UnderstandSettingsSchema>;
