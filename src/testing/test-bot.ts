import type { BotFlowSource } from '../bot/define-bot.js';
import { reloadFlowSources } from '../bot/reload-flow-sources.js';
import type { ForgetResult } from '../engine/contact-memory.js';
import type {
  EventTarget,
  ExternalEventOptions,
  ExternalEventResult,
} from '../engine/external-events.js';
import type { Bot, ConversationView, Handler, ReloadResult } from '../engine/types.js';
import type { Vars } from '../flows/contract.js';

/**
 * The running bot of a test conversation (`chat.bot`): the calls an application makes on
 * its bot, each waiting until the bot has nothing left to do, so the next assertion sees
 * what they caused. The engine's `Bot` itself is `chat.harness.bot`.
 */
export interface TestBot {
  /**
   * Replaces the bot's flows while the conversation runs (hot reload), from what
   * `defineBot` takes: flow file paths or URLs (relative paths against the bot's
   * directory), flow definitions or compiled flows. Refused (`status: 'invalid'`, nothing
   * changed) when a file does not validate or the set does not check. A running
   * conversation moves to the new version at its next event (see "Flow versions and hot
   * reload"). `entry`: the entry flow after the reload (default: unchanged).
   * @example
   * const r = await chat.bot.reloadFlows([new URL('./flows/shop-v2.yaml', import.meta.url)]);
   * expect(r.status).toBe('ok');
   */
  reloadFlows(
    flows: readonly BotFlowSource[],
    options?: { readonly entry?: string },
  ): Promise<ReloadResult>;
  /**
   * Proactive messaging: tells a contact's conversation that `event` happened; the flow's
   * `on.<event>` rule handles it with `data` as variables (`bot.notify`). Its messages
   * are the next turn (`chat.turn()`, `expectSent(chat)`).
   * @example
   * await chat.bot.notify(chat.phone, 'shipped', { trackingUrl: 'https://t.example/1' });
   */
  notify(
    contact: EventTarget,
    event: string,
    data?: Vars,
    options?: ExternalEventOptions,
  ): Promise<ExternalEventResult>;
  /**
   * Starts flow `flowId` for a contact with initial variables, replacing what ran in its
   * conversation (`bot.start`). Its messages are the next turn.
   * @example
   * await chat.bot.start(chat.phone, 'appointment-reminder', { when: 'Monday 10:00' });
   */
  start(
    contact: EventTarget,
    flowId: string,
    vars?: Vars,
    options?: ExternalEventOptions,
  ): Promise<ExternalEventResult>;
  /** Erases a contact: its contact memory, conversations and waiting events (`bot.forget`). */
  forget(phone: string): Promise<ForgetResult>;
  /** What the bot stored for a conversation (`bot.inspect`). */
  inspect(conversationId: string): Promise<ConversationView | undefined>;
}

/** What {@link createTestBot} needs from the test conversation. */
export interface TestBotHost {
  readonly bot: Bot;
  readonly handlers: Readonly<Record<string, Handler>>;
  /** Directory relative flow paths resolve against. */
  readonly dir: string;
  /** Starts a new turn in the transcript (a system line). */
  beginTurn(note: string): void;
  /** Waits until the bot and the sandbox are idle, and collects what was sent. */
  settle(): Promise<void>;
}

/** Builds `chat.bot` over a running harness. */
export function createTestBot(host: TestBotHost): TestBot {
  const { bot } = host;
  const settled = async <T>(work: Promise<T>): Promise<T> => {
    const result = await work;
    await host.settle();
    return result;
  };
  return {
    async reloadFlows(flows, options = {}) {
      const result = await reloadFlowSources(bot, flows, {
        handlers: host.handlers,
        dir: host.dir,
        ...(options.entry === undefined ? {} : { entry: options.entry }),
      });
      if (result.status === 'ok')
        host.beginTurn(
          `flows reloaded: ${result.changed.map((c) => `${c.id} v${c.from} → v${c.to}`).join(', ') || result.flows.join(', ')}`,
        );
      return result;
    },
    notify(contact, event, data, options) {
      host.beginTurn(`bot.notify ${event}`);
      return settled(bot.notify(contact, event, data, options));
    },
    start(contact, flowId, vars, options) {
      host.beginTurn(`bot.start ${flowId}`);
      return settled(bot.start(contact, flowId, vars, options));
    },
    forget(phone) {
      host.beginTurn(`bot.forget ${phone}`);
      return settled(bot.forget(phone));
    },
    inspect: (conversationId) => bot.inspect(conversationId),
  };
}
