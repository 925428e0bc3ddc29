import { isBotDefinition, type BotDefinition } from '../bot/define-bot.js';
import { loadBot } from '../bot/load-bot.js';
import { resolveBot, type ResolvedBot } from '../bot/resolve-bot.js';
import { TestClock } from './test-clock.js';
import { parseDuration } from '../core/duration.js';
import type { ContactState, SandboxConfigInput } from '../sandbox/index.js';
import { startBotHarness, type BotHarness, type ContactMessage } from './bot-harness.js';
import { viewOfRequest, type MessageView, type OptionView } from './message-view.js';
import { Transcript } from './transcript.js';
import { loadContactMemory } from '../engine/contact-memory.js';
import type { Understander } from '../understand/types.js';
import { recordUnderstood, withUnderstander, type UnderstoodEntry } from './understood-log.js';

/** One message the bot sent to the contact. */
export type SentMessage = MessageView & { readonly messageId: string };

/** Options of {@link createTestConversation}. */
export interface TestConversationOptions {
  /** The contact you play (default: Ada Lovelace, +15551230001, a default sandbox contact). */
  readonly contact?: { readonly phone: string; readonly name?: string };
  /** Start time of the fake clock (default 2026-03-02T09:00:00Z). */
  readonly start?: number | string | Date;
  /** Extra sandbox configuration (contacts, templates, delivery...). */
  readonly sandbox?: Partial<SandboxConfigInput>;
  /**
   * How long (real ms) `say`, `tap`… wait for a handler that has not answered before they
   * return with the call still running (default 1,000). Its timeout runs on the fake
   * clock: `advance('10s')` then times it out and the flow takes `onTimeout`.
   */
  readonly handlerWaitMs?: number;
  /** Understands free text instead of the bot's understander (e.g. `scripted({...})`). */
  readonly understander?: Understander;
}

/** A scripted conversation with a bot, over a real engine and an in-process sandbox. */
export interface TestConversation {
  /** The contact's phone number. */
  readonly phone: string;
  readonly harness: BotHarness;
  say(text: string): Promise<void>;
  /** Taps a button or list row of the last menu the bot sent, by title or option id. */
  tap(idOrTitle: string): Promise<void>;
  sendImage(caption?: string): Promise<void>;
  sendVideo(caption?: string): Promise<void>;
  sendAudio(): Promise<void>;
  sendDocument(filename?: string): Promise<void>;
  sendLocation(latitude: number, longitude: number, name?: string): Promise<void>;
  sendContact(name?: string, phone?: string): Promise<void>;
  sendUnsupported(): Promise<void>;
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
  lastSent(): SentMessage | undefined;
  /** The conversation's state path (e.g. `welcome`), or undefined before it starts. */
  state(): Promise<string | undefined>;
  vars(): Promise<Record<string, unknown>>;
  /** The contact's memory (`contact.<name>` values kept across conversations). */
  contactMemory(): Promise<Record<string, unknown>>;
  /** Erases the contact (`bot.forget`): its memory and conversations. */
  forget(): Promise<void>;
  humanOwned(): Promise<boolean>;
  /** Sends rejected by the API, with their codes (e.g. `contact_opted_out`). */
  rejections(): readonly string[];
  /** A readable transcript of the conversation. */
  transcript(): string;
  /** What the bot understood of your texts, oldest first (see docs/understanding.md). */
  understood(): UnderstoodEntry[];
  close(): Promise<void>;
}

/**
 * Starts a test conversation with a bot: its module (`defineBot`), a resolved bot, or
 * a path (`examples/support-desk`, `flows/x.yaml`). No network beyond 127.0.0.1, a
 * fake clock, an in-memory store. Call `close()` in `afterEach`.
 * @example
 * const chat = await createTestConversation(bot);
 * await chat.say('hi');
 * expectSent(chat).buttons(['Common questions', 'Talk to a person', 'Nothing, thanks']);
 * await chat.tap('Common questions');
 */
export async function createTestConversation(
  bot: BotDefinition | ResolvedBot | string,
  options: TestConversationOptions = {},
): Promise<TestConversation> {
  const resolved = withUnderstander(await toResolved(bot), options.understander);
  const start =
    options.start === undefined
      ? Date.parse('2026-03-02T09:00:00.000Z')
      : new Date(options.start).getTime();
  const clock = new TestClock(start);
  const harness = await startBotHarness({
    bot: resolved,
    clock,
    budgets: false,
    // Every delay on the fake clock: handler timeouts fire on `advance`, and a client wait
    // (Retry-After, backoff) moves the clock instead of blocking the test.
    handlerWaitMs: options.handlerWaitMs ?? 1_000,
    sleep: (ms) => {
      clock.advance(ms);
      return Promise.resolve();
    },
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
  });
  const { control } = harness.sandbox;
  const understood = recordUnderstood(harness.bot);
  const phone = options.contact?.phone ?? '+15551230001';
  const transcript = new Transcript(clock);
  const rejected: string[] = [];
  harness.bot.on('effect', ({ outcome }) => {
    if (outcome.startsWith('rejected:')) {
      rejected.push(outcome.slice('rejected:'.length));
      transcript.system(`send rejected: ${outcome.slice('rejected:'.length)}`);
    }
  });
  let seen = 0;
  let turnStart = 0;
  const all: SentMessage[] = [];

  const collect = (): void => {
    const records = control.sent();
    for (const r of records.slice(seen)) {
      if (r.to !== phone) continue;
      const view = { ...viewOfRequest(r.request), messageId: r.messageId };
      all.push(view);
      transcript.bot(view);
    }
    seen = records.length;
  };
  const settle = async (): Promise<void> => {
    await harness.settle();
    collect();
  };
  const inbound = async (spec: ContactMessage, shown: string): Promise<void> => {
    collect();
    turnStart = all.length;
    transcript.you(shown);
    control.injectInbound({
      ...spec,
      from: phone,
      ...(options.contact?.name === undefined ? {} : { contactName: options.contact.name }),
    });
    await settle();
  };
  const conversationId = (): string | undefined =>
    control.conversations().find((c) => c.phoneNumber === phone)?.id;
  const view = async () => {
    const id = conversationId();
    return id === undefined ? undefined : harness.bot.inspect(id);
  };
  const fail = (message: string): never => {
    throw new Error(`${message}\n\nTranscript:\n${transcript.text()}`);
  };

  const conversation: TestConversation = {
    phone,
    harness,
    say: (text) => inbound({ type: 'text', text }, text),
    async tap(idOrTitle) {
      collect();
      const menu = [...all].reverse().find((m) => m.type === 'buttons' || m.type === 'list');
      if (menu === undefined || (menu.type !== 'buttons' && menu.type !== 'list'))
        return fail(`tap("${idOrTitle}"): the bot has not sent a menu`);
      const option = findOption(menu.options, idOrTitle);
      if (option === undefined) {
        return fail(
          `tap("${idOrTitle}"): no option with that title or id in the last menu (${menu.options.map((o) => `"${o.title}"`).join(', ')})`,
        );
      }
      await inbound(
        {
          type: 'interactive',
          optionId: option.optionId,
          label: option.title,
          mode: menu.type === 'list' ? 'LIST' : 'BUTTON',
        },
        `[tap] ${option.title}`,
      );
    },
    sendImage: (caption) =>
      inbound(
        {
          type: 'image',
          ...(caption === undefined ? {} : { caption }),
          media: { outcome: 'ready', readyAfterMs: 0 },
        },
        `[image]${caption === undefined ? '' : ` ${caption}`}`,
      ),
    sendVideo: (caption) =>
      inbound(
        {
          type: 'video',
          ...(caption === undefined ? {} : { caption }),
          media: { outcome: 'ready', readyAfterMs: 0 },
        },
        `[video]${caption === undefined ? '' : ` ${caption}`}`,
      ),
    sendAudio: () =>
      inbound({ type: 'audio', media: { outcome: 'ready', readyAfterMs: 0 } }, '[audio]'),
    sendDocument: (filename = 'document.pdf') =>
      inbound(
        { type: 'document', media: { outcome: 'ready', readyAfterMs: 0, filename } },
        `[document] ${filename}`,
      ),
    sendLocation: (latitude, longitude, name) =>
      inbound(
        {
          type: 'location',
          location: { latitude, longitude, ...(name === undefined ? {} : { name }) },
        },
        `[location] (${latitude}, ${longitude})`,
      ),
    sendContact: (name = 'Grace Hopper', contactPhone = '+15551230002') =>
      inbound(
        { type: 'contacts', contacts: [{ name, phones: [contactPhone] }] },
        `[contact card] ${name} ${contactPhone}`,
      ),
    sendUnsupported: () => inbound({ type: 'unsupported' }, '[unsupported message]'),
    async advance(duration) {
      const d = parseDuration(duration);
      if (d.status === 'invalid') return fail(`advance: ${d.message}`);
      collect();
      turnStart = all.length;
      transcript.system(`clock advanced by ${String(duration)}`);
      await harness.advance(d.ms);
      collect();
    },
    async takeOver() {
      const id = conversationId() ?? fail('takeOver: the conversation has not started');
      collect();
      turnStart = all.length;
      transcript.system('a person took the conversation over');
      control.takeOver(id);
      await settle();
    },
    async release() {
      const id = conversationId() ?? fail('release: the conversation has not started');
      collect();
      turnStart = all.length;
      transcript.system('released to the API');
      control.release(id);
      await settle();
    },
    setContactState(state) {
      control.setContactState(phone, state);
    },
    async failMessage(code, messageId) {
      collect();
      const id =
        messageId ?? all.at(-1)?.messageId ?? fail('failMessage: the bot has sent nothing');
      transcript.system(`message ${id} failed later: ${code}`);
      control.setStatus(id, 'failed', code);
      await settle();
    },
    sent: () => (collect(), [...all]),
    turn: () => (collect(), all.slice(turnStart)),
    lastSent: () => (collect(), all.at(-1)),
    state: async () => (await view())?.state,
    vars: async () => ({ ...(await view())?.vars }),
    humanOwned: async () => (await view())?.humanOwned ?? false,
    contactMemory: async () => ({ ...(await loadContactMemory(harness.store, phone)) }),
    async forget() {
      transcript.system('the contact was forgotten (erasure)');
      await harness.bot.forget(phone);
    },
    rejections: () => [...rejected],
    transcript: () => (collect(), transcript.text()),
    understood,
    close: () => harness.close(),
  };
  return conversation;
}

function findOption(options: readonly OptionView[], idOrTitle: string): OptionView | undefined {
  const wanted = idOrTitle.trim().toLowerCase();
  return (
    options.find((o) => o.title.toLowerCase() === wanted) ??
    options.find((o) => o.id === idOrTitle) ??
    options.find((o) => o.optionId === idOrTitle)
  );
}

async function toResolved(bot: BotDefinition | ResolvedBot | string): Promise<ResolvedBot> {
  const r =
    typeof bot === 'string'
      ? await loadBot(bot)
      : isBotDefinition(bot)
        ? await resolveBot(bot)
        : { status: 'ok' as const, bot };
  if (r.status === 'error') throw new Error(r.message);
  return r.bot;
}
