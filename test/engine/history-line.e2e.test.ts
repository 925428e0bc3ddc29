import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessagingClient } from '../../src/api/client.js';
import type { Message } from '../../src/api/resources.js';
import { ManualClock, type Clock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import type { Bot, EngineClient } from '../../src/engine/types.js';
import { createSandbox, type Sandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { echoFlow } from './echo-machine.js';
import { describeRequest } from './harness.js';
import { receivedCallback } from './signed-callback.js';

const T = Date.parse('2026-06-01T09:00:00.000Z');
const SECRET = 'whsec_history_line';
const OLD = '+15557000001';
const NEW = '+15557000002';
const LATER = '+15557000003';
const MINUTE = 60_000;

describe('history line (API clock, first start)', () => {
  let sandbox: Sandbox;
  let server: SandboxServer;
  let bot: Bot | undefined;
  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
    await server.close();
    await sandbox.close();
  });

  /**
   * A sandbox frozen at T with one message from before the bot ever ran, and a bot whose
   * clock is `skewMs` off the API's. `afterFirstRequest` runs the moment the bot's first
   * API request has its answer (as a probe that writes when it sees that request).
   */
  async function firstStart(skewMs: number, afterFirstRequest: () => void) {
    const apiClock = new ManualClock(T);
    sandbox = createSandbox({ clock: apiClock, tickMs: 0 });
    server = await sandbox.listen(0, '127.0.0.1');
    sandbox.control.injectInbound({ from: OLD, type: 'text', text: 'before the bot' });
    const botClock: Clock = { now: () => apiClock.now() + skewMs };
    const real = new MessagingClient({
      baseUrl: server.url,
      apiKey: sandbox.config.keys[0]?.key ?? '',
      clock: botClock,
    });
    let requests = 0;
    const client: EngineClient = {
      send: (request) => real.send(request),
      listMessages: (id, options) => real.listMessages(id, options),
      getMessage: (id) => real.getMessage(id),
      async listConversations(options) {
        const page = await real.listConversations(options);
        if (requests++ === 0) afterFirstRequest();
        return page;
      },
    };
    bot = createBot({
      flows: [echoFlow],
      handlers: {},
      api: { client },
      store: new MemoryStore({ clock: botClock }),
      clock: botClock,
      tickMs: 0,
      callbacks: { secret: SECRET },
    });
    await bot.start();
    return { apiClock, started: bot };
  }

  /** Delivers `message` as the API's signed `message.received` callback (API time). */
  async function callback(target: Bot, message: Message, apiNow: number): Promise<number> {
    return (await target.handleCallback(receivedCallback(sandbox, message, SECRET, apiNow))).status;
  }

  const sentTo = (to: string): string[] =>
    sandbox.control
      .sent()
      .filter((s) => s.to === to)
      .map((s) => describeRequest(s.request));

  it.each([
    ['a true clock', 0],
    ['a host clock 2 min fast', 2 * MINUTE],
    ['a host clock 2 min slow', -2 * MINUTE],
  ])(
    'should answer a message written right after the first request, in the same ms, and never the one before, with %s',
    async (_clock, skewMs) => {
      let sameMs: Message | undefined;
      const { apiClock, started } = await firstStart(skewMs, () => {
        // The API clock has not moved: this message is in the very ms of the line.
        sameMs = sandbox.control.injectInbound({ from: NEW, type: 'text', text: 'right after' });
      });
      const old = sandbox.control.conversations().find((c) => c.phoneNumber === OLD)?.lastMessage;
      expect(sameMs?.occurredAt).toBe(old?.occurredAt);
      apiClock.advance(1_000);
      const later = sandbox.control.injectInbound({ from: LATER, type: 'text', text: 'later' });
      // Callbacks (a replay of the old one included) and a poll pass, in any order.
      expect(await callback(started, old!, apiClock.now())).toBe(200);
      expect(await callback(started, sameMs!, apiClock.now())).toBe(200);
      expect(await started.pollOnce()).toBeGreaterThanOrEqual(0);
      expect(await callback(started, later, apiClock.now())).toBe(200);
      await started.idle();
      expect(sentTo(NEW)).toEqual(['text:echo: right after']);
      expect(sentTo(LATER)).toEqual(['text:echo: later']);
      expect(sentTo(OLD)).toEqual([]);
      // Another pass changes nothing.
      await started.pollOnce();
      await started.idle();
      expect(sandbox.control.sent()).toHaveLength(2);
    },
  );

  it('should answer nothing before the line is decided, and everything after it', async () => {
    const apiClock = new ManualClock(T);
    sandbox = createSandbox({ clock: apiClock, tickMs: 0 });
    server = await sandbox.listen(0, '127.0.0.1');
    sandbox.control.injectInbound({ from: OLD, type: 'text', text: 'before the bot' });
    const real = new MessagingClient({
      baseUrl: server.url,
      apiKey: sandbox.config.keys[0]?.key ?? '',
      clock: apiClock,
      retry: { maxAttempts: 1 },
    });
    let firstRead: (
      items: Awaited<ReturnType<typeof real.listConversations>>['items'],
    ) => void = () => undefined;
    const store = new MemoryStore({ clock: apiClock });
    const taken = vi.spyOn(store, 'acquireConversation');
    bot = createBot({
      flows: [echoFlow],
      handlers: {},
      api: { client: real },
      store,
      clock: apiClock,
      tickMs: 0,
      callbacks: { secret: SECRET },
      // The CLI's case: the key check could not reach the API; its retry will read.
      firstRead: new Promise((resolve) => (firstRead = resolve)),
    });
    await bot.start();
    // Callbacks are recorded while the line waits; nothing is applied.
    apiClock.advance(500);
    const early = sandbox.control.injectInbound({ from: NEW, type: 'text', text: 'early' });
    expect(await callback(bot, early, apiClock.now())).toBe(200);
    // Drains start on the next turns of the event loop: none may take the conversation.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(taken).not.toHaveBeenCalled();
    expect(await store.conversationsWithInbox(10)).toEqual([early.conversationId]);
    // The API answers: this read decides (it sees "early", so "early" is history too:
    // the first successful read is the line).
    firstRead((await real.listConversations({ limit: 100 })).items);
    apiClock.advance(500);
    const after = sandbox.control.injectInbound({ from: LATER, type: 'text', text: 'after' });
    expect(await callback(bot, after, apiClock.now())).toBe(200);
    await bot.idle();
    expect(sentTo(LATER)).toEqual(['text:echo: after']);
    expect(sentTo(NEW)).toEqual([]);
    expect(sentTo(OLD)).toEqual([]);
  });
});
