import type { Bot } from '../engine/types.js';
import type { ResolvedBot } from '../bot/resolve-bot.js';
import { DEFAULT_THRESHOLD } from '../flows/understand-runtime.js';
import type { Understander, Understanding } from '../understand/types.js';

/** One text the bot understood, as the test kit shows it (`chat.understood()`). */
export interface UnderstoodEntry {
  readonly text: string;
  /** The state it was understood in (null: before the flow started). */
  readonly state: string | null;
  /** The best intent's id, if any. */
  readonly intent?: string;
  readonly confidence?: number;
  /** Slot values by name. */
  readonly slots: Readonly<Record<string, string | number | boolean>>;
  /** Who answered: builtin, llm or scripted. */
  readonly source: Understanding['source'];
  readonly threshold: number;
  /** The whole proposal. */
  readonly understanding: Understanding;
}

/** Collects what a bot understood (in every conversation, oldest first). */
export function recordUnderstood(bot: Bot): () => UnderstoodEntry[] {
  const entries: UnderstoodEntry[] = [];
  bot.on('understood', (e) => {
    const u = e.understanding;
    entries.push({
      text: e.text,
      state: e.state,
      ...(u.intent === undefined ? {} : { intent: u.intent.id, confidence: u.intent.confidence }),
      slots: Object.fromEntries(Object.entries(u.slots ?? {}).map(([k, v]) => [k, v.value])),
      source: u.source,
      threshold: e.threshold,
      understanding: u,
    });
  });
  return () => [...entries];
}

/** The bot with `understander` in place of its own (its other settings kept). */
export function withUnderstander(
  bot: ResolvedBot,
  understander: Understander | undefined,
): ResolvedBot {
  if (understander === undefined) return bot;
  const base = bot.understanding ?? {
    threshold: DEFAULT_THRESHOLD,
    timezone: 'UTC',
    knowledge: false,
  };
  return { ...bot, understanding: { ...base, understander } };
}
