import type { BotHarness } from './bot-harness.js';
import type { UnderstoodEntry } from './understood-log.js';
import type { ContactActions } from './contact-actions.js';
import type { LogEntry, LogFilter } from './log-capture.js';
import type { MessageView } from './message-view.js';
import type { ContactState } from '../sandbox/index.js';
import type { TestBot } from './test-bot.js';

/** One message the bot sent to the contact. */
export type SentMessage = MessageView & { readonly messageId: string };

/** A scripted conversation with a bot, over a real engine and an in-process sandbox. */
export interface TestConversation extends ContactActions {
  /** The contact's phone number. */
  readonly phone: string;
  /**
   * The running bot: `reloadFlows` (from flow files, definitions or compiled flows),
   * `notify`, `start`, `forget`, `inspect`; each waits until the bot is idle.
   */
  readonly bot: TestBot;
  /** The sandbox, the engine's `Bot`, the clock and the store underneath (advanced use). */
  readonly harness: BotHarness;
  /**
   * Taps a button or list row of the last menu the bot sent, by its title as sent (so in
   * the contact's language after a switch: `tap('Rojo')`), its flow option id or its
   * wire option id.
   */
  tap(idOrTitle: string): Promise<void>;
  /** Moves the clock (`'25h'`, `'30m'`, ms), runs due sandbox work and bot timers. */
  advance(duration: string | number): Promise<void>;
  /** A person takes the conversation over in the dashboard. */
  takeOver(): Promise<void>;
  /** A teammate selects "Release to API". */
  release(): Promise<void>;
  /** Sets the contact's state in the sandbox (e.g. `opted_out`). */
  setContactState(state: ContactState): void;
  /** Makes a sent message (default: the last one) fail later with `code`, and settles. */
  failMessage(code: string, messageId?: string): Promise<void>;
  /** Every message the bot sent to this contact, oldest first. */
  sent(): SentMessage[];
  /** Messages sent since your last action. */
  turn(): SentMessage[];
  /** The last message the bot sent to this contact. */
  lastSent(): SentMessage | undefined;
  /** The conversation's state path (e.g. `welcome`), or undefined before it starts. */
  state(): Promise<string | undefined>;
  /** The id of the flow the conversation is in, or undefined before it starts. */
  flow(): Promise<string | undefined>;
  /** The conversation's flow variables. */
  vars(): Promise<Record<string, unknown>>;
  /** The contact's memory (`contact.<name>` values kept across conversations). */
  contactMemory(): Promise<Record<string, unknown>>;
  /** Erases the contact (`bot.forget`): its memory and conversations. */
  forget(): Promise<void>;
  /** Whether a person owns the conversation. */
  humanOwned(): Promise<boolean>;
  /** Sends rejected by the API, with their codes (e.g. `contact_opted_out`). */
  rejections(): readonly string[];
  /**
   * The bot's log lines so far (engine and API client, not the sandbox), structured
   * `{ level, message, ...meta }`, optionally filtered by level and message.
   * @example
   * expect(chat.logs({ level: 'error' })).toEqual([
   *   expect.objectContaining({ message: 'flow took its error path', code: 'error' }),
   * ]);
   */
  logs(filter?: LogFilter): LogEntry[];
  /** A readable transcript of the conversation. */
  transcript(): string;
  /** What the bot understood of your texts, oldest first (see docs/understanding.md). */
  understood(): UnderstoodEntry[];
  /** Stops the bot and the sandbox (call it in `afterEach`). */
  close(): Promise<void>;
}
