import type { BotDefinition } from '../bot/define-bot.js';
import { recordUnderstood, withUnderstander } from './understood-log.js';
import type { ResolvedBot } from '../bot/resolve-bot.js';
import { TestClock } from './test-clock.js';
import { parseDuration } from '../core/duration.js';
import { silentLogger } from '../log/logger.js';
import { startBotHarness, type ContactMessage } from './bot-harness.js';
import { viewOfRequest, type OptionView } from './message-view.js';
import { Transcript } from './transcript.js';
import {
  latestConversation,
  loadContactMemory,
  saveContactMemory,
} from '../engine/contact-memory.js';
import { captureLogs } from './log-capture.js';
import { contactActions } from './contact-actions.js';
import { createTestBot } from './test-bot.js';
import { parseTestOptions, type TestConversationOptions } from './test-options.js';
import { toResolved, withContact } from './resolve-test-bot.js';
import type { SentMessage, TestConversation } from './test-conversation-types.js';

export type { SentMessage, TestConversation } from './test-conversation-types.js';
export type { TestConversationOptions, TestContact } from './test-options.js';

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
  const o = parseTestOptions(options);
  const { resolved: own, dir } = await toResolved(bot);
  const resolved = withUnderstander(own, o.understander);
  const flowIds = resolved.flows.map((f) => f.id);
  if (o.flow !== undefined && !flowIds.includes(o.flow)) {
    throw new TypeError(
      `createTestConversation: invalid options\n- options.flow: the bot has no flow "${o.flow}" (its flows: ${flowIds.join(', ')})`,
    );
  }
  const { phone, name, memory } = o.contact;
  const clock = new TestClock(o.startMs);
  const logs = captureLogs({
    level: o.logLevel,
    ...(o.logger === undefined ? {} : { also: o.logger }),
  });
  const harness = await startBotHarness({
    bot: o.flow === undefined ? resolved : { ...resolved, entry: o.flow },
    clock,
    budgets: false,
    logger: logs.logger,
    sandboxLogger: silentLogger,
    // Every delay on the fake clock: handler timeouts fire on `advance`, and a client wait
    // (Retry-After, backoff) moves the clock instead of blocking the test.
    handlerWaitMs: o.handlerWaitMs,
    sleep: (ms) => {
      clock.advance(ms);
      return Promise.resolve();
    },
    sandbox: withContact(o.sandbox, phone, name),
  });
  if (Object.keys(memory).length > 0) await saveContactMemory(harness.store, phone, memory);
  const { control } = harness.sandbox;
  const understood = recordUnderstood(harness.bot);
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
  const beginTurn = (note?: string): void => {
    collect();
    turnStart = all.length;
    if (note !== undefined) transcript.system(note);
  };
  const inbound = async (spec: ContactMessage, shown: string): Promise<void> => {
    beginTurn();
    transcript.you(shown);
    control.injectInbound({
      ...spec,
      from: phone,
      ...(name === undefined ? {} : { contactName: name }),
    });
    await settle();
  };
  const conversationId = (): string | undefined =>
    control.conversations().find((c) => c.phoneNumber === phone)?.id;
  const view = async () => {
    // The API's conversation, else the one the engine knows the contact by (a proactive
    // start before the contact ever wrote).
    const id = conversationId() ?? (await latestConversation(harness.store, phone));
    return id === undefined ? undefined : harness.bot.inspect(id);
  };
  const fail = (message: string): never => {
    throw new Error(`${message}\n\nTranscript:\n${transcript.text()}`);
  };
  const actions = contactActions(inbound);

  const conversation: TestConversation = {
    ...actions,
    phone,
    harness,
    bot: createTestBot({
      bot: harness.bot,
      handlers: resolved.handlers,
      dir,
      beginTurn,
      settle,
    }),
    async tap(idOrTitle) {
      collect();
      const menu = [...all].reverse().find((m) => m.type === 'buttons' || m.type === 'list');
      if (menu === undefined || (menu.type !== 'buttons' && menu.type !== 'list'))
        return fail(`tap("${idOrTitle}"): the bot has not sent a menu`);
      const option = findOption(menu.options, idOrTitle);
      if (option === undefined) {
        return fail(
          `tap("${idOrTitle}"): no option with that title or id in the last menu; its titles are ${menu.options.map((o) => `"${o.title}"`).join(', ')} (as sent: in the contact's language after a switch) and its ids ${menu.options.map((o) => `"${o.id}"`).join(', ')}`,
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
    async advance(duration) {
      const d = parseDuration(duration);
      if (d.status === 'invalid') return fail(`advance: ${d.message}`);
      beginTurn(`clock advanced by ${String(duration)}`);
      await harness.advance(d.ms);
      collect();
    },
    async takeOver() {
      const id = conversationId() ?? fail('takeOver: the conversation has not started');
      beginTurn('a person took the conversation over');
      control.takeOver(id);
      await settle();
    },
    async release() {
      const id = conversationId() ?? fail('release: the conversation has not started');
      beginTurn('released to the API');
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
    flow: async () => (await view())?.flowId,
    vars: async () => ({ ...(await view())?.vars }),
    humanOwned: async () => (await view())?.humanOwned ?? false,
    contactMemory: async () => ({ ...(await loadContactMemory(harness.store, phone)) }),
    async forget() {
      transcript.system('the contact was forgotten (erasure)');
      await harness.bot.forget(phone);
    },
    rejections: () => [...rejected],
    logs: (filter) => logs.entries(filter),
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
