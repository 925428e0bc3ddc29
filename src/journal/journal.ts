/**
 * The bound and the privacy switch of a conversation's journal (journal-entry.ts). The
 * journal is a list in the conversation document, newest last, written by the same
 * `putConversation` as the state it describes, so after a crash it never disagrees with
 * that state. It keeps at most {@link JournalOptions.maxEntries} entries, none older than
 * {@link JournalOptions.retentionMs}, and at most {@link JournalOptions.maxBytes} of JSON:
 * the oldest entries go first. The document stores the entries compact (stored-journal.ts):
 * the bound holds for their object form, which is larger.
 */
import type { JournalEntry } from './journal-entry.js';
import { PREVIEW_CHARS } from './journal-entry.js';

/** How a bot keeps its conversations' journals. */
export interface JournalOptions {
  /** Keep a journal at all (default true). */
  readonly enabled: boolean;
  /**
   * Keep message texts (previews of inbound and outbound texts, variable values) in the
   * journal (default true). False: ids, types, names and outcomes only.
   */
  readonly texts: boolean;
  /** Most entries kept per conversation (default 50). */
  readonly maxEntries: number;
  /**
   * Most bytes of the entries' JSON as objects (as `inspect --json` shows them; default
   * 8 KB). The document stores them compact (stored-journal.ts), in fewer bytes.
   */
  readonly maxBytes: number;
  /** Entries older than this are dropped at the next write (default 30 days). */
  readonly retentionMs: number;
}

/** Defaults of {@link JournalOptions}. */
export const DEFAULT_JOURNAL: JournalOptions = {
  enabled: true,
  texts: true,
  maxEntries: 50,
  maxBytes: 8192,
  retentionMs: 30 * 86_400_000,
};

/**
 * Most JSON bytes one entry takes: every text in it is cut (previews, error messages,
 * at most {@link MAX_VARS_PER_ENTRY} variables). Below `maxBytes / MAX_ENTRY_BYTES`
 * entries no measuring is needed.
 */
export const MAX_ENTRY_BYTES = 640;
/** Variables named in one `vars` entry (the rest are counted in `unset`'s neighbour `more`). */
export const MAX_VARS_PER_ENTRY = 8;

/** The environment variable of the privacy switch: `0`/`false`/`off` keeps texts out. */
export const JOURNAL_TEXTS_ENV = 'SWITCHBOARD_JOURNAL_TEXTS';
/** The environment variable that turns the journal off (`0`/`false`/`off`). */
export const JOURNAL_ENV = 'SWITCHBOARD_JOURNAL';

/**
 * The journal options of a bot: its own (`createBot({ journal })`) over the environment
 * ({@link JOURNAL_ENV}, {@link JOURNAL_TEXTS_ENV}) over the defaults.
 * @example
 * resolveJournalOptions({ texts: false }, process.env).texts; // false
 */
export function resolveJournalOptions(
  own: Partial<JournalOptions> | undefined,
  env: Readonly<Record<string, string | undefined>> = {},
): JournalOptions {
  const fromEnv: Partial<{ -readonly [K in keyof JournalOptions]: JournalOptions[K] }> = {};
  const enabled = flag(env[JOURNAL_ENV]);
  if (enabled !== undefined) fromEnv.enabled = enabled;
  const texts = flag(env[JOURNAL_TEXTS_ENV]);
  if (texts !== undefined) fromEnv.texts = texts;
  return { ...DEFAULT_JOURNAL, ...fromEnv, ...own };
}

function flag(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return !['0', 'false', 'off', 'no'].includes(value.trim().toLowerCase());
}

/** A short preview of a text (undefined when texts are kept out, or there is none). */
export function previewText(
  text: string | undefined,
  options: Pick<JournalOptions, 'texts'>,
  chars = PREVIEW_CHARS,
): string | undefined {
  if (!options.texts || text === undefined) return undefined;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars - 1)}…`;
}

/** Cuts a message (an error's) to `chars`; never withheld (errors carry no contact text). */
export function cutText(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/**
 * The journal within its bound at `now`: entries older than the retention dropped, then
 * the oldest beyond `maxEntries`, then the oldest until the JSON fits `maxBytes`.
 * Returns the same array when nothing is dropped.
 */
export function boundJournal(
  entries: JournalEntry[],
  now: number,
  options: Pick<JournalOptions, 'maxEntries' | 'maxBytes' | 'retentionMs'>,
): JournalEntry[] {
  const cutoff = now - options.retentionMs;
  let start = 0;
  while (start < entries.length && !(Number(entries[start]?.at) >= cutoff)) start++;
  start = Math.max(start, entries.length - options.maxEntries);
  let kept = start === 0 ? entries : entries.slice(start);
  if (kept.length * MAX_ENTRY_BYTES > options.maxBytes) {
    let bytes = jsonBytes(kept);
    let drop = 0;
    while (bytes > options.maxBytes && drop < kept.length) {
      bytes -= jsonBytes(kept[drop]) + 1;
      drop++;
    }
    if (drop > 0) kept = kept.slice(drop);
  }
  return kept;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
