import { ManualClock } from '../../src/core/clock.js';
import { createBot } from '../../src/engine/create-bot.js';
import type { Bot, BotOptions, Handler } from '../../src/engine/types.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import type { RunnableFlow } from '../../src/flows/contract.js';
import { fromApiMessage } from '../../src/ingest/normalize.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import {
  createSandbox,
  type InboundInput,
  type Sandbox,
  type SandboxServer,
} from '../../src/sandbox/index.js';
import type { Message } from '../../src/api/resources.js';
import express from 'express';
import type { Server } from 'node:http';

export const START = Date.parse('2026-03-01T12:00:00.000Z');
export const ADA = '+15551230001';
export const GRACE = '+15551230002';
export const ALAN = '+15551230003';
export const HOUR = 3_600_000;

/** The flow most e2e scenarios run: a menu, a handler, a timer, a window rule, a handoff. */
export const demoDefinition = defineFlow({
  id: 'e2e-demo',
  version: 1,
  start: 'welcome',
  onError: 'trouble',
  onSendFailed: { goto: 'sendTrouble' },
  states: {
    welcome: {
      say: 'Hi {{contact.name}}!',
      menu: {
        body: 'Pick one',
        options: [
          { id: 'order', title: 'Order status', keywords: ['order'], goto: 'lookup' },
          { id: 'human', title: 'Talk to a person', keywords: ['human'], goto: 'handoff' },
          { id: 'remind', title: 'Remind me', keywords: ['remind'], goto: 'waiting' },
        ],
      },
    },
    lookup: {
      call: { handler: 'lookup', outcomes: { found: 'found' }, onError: 'trouble', timeout: '1s' },
    },
    found: { say: 'Your order is {{status}}.', final: true },
    waiting: {
      say: 'I will remind you tomorrow.',
      menu: { body: 'Or pick', options: [{ id: 'menu', title: 'Menu', goto: 'welcome' }] },
      timeout: { after: '25h', goto: 'reminder' },
    },
    reminder: {
      say: [
        {
          text: 'Reminder: your order ships today.',
          window: { onClosed: 'template', template: { name: 'hello_world', language: 'en' } },
        },
      ],
      final: true,
    },
    handoff: { say: 'Asking a teammate.', handoff: { resume: 'back' } },
    back: { say: 'I am back.', final: true },
    trouble: { say: 'Something went wrong.', final: true },
    sendTrouble: { say: 'A message could not be delivered.', final: true },
  },
});

export const demoFlow: RunnableFlow = compileFlow(demoDefinition);

/** An inbound message spec without its sender. */
export type WithoutFrom = InboundInput extends infer T
  ? T extends unknown
    ? Omit<T, 'from'>
    : never
  : never;

/** A sandbox on 127.0.0.1:0, a bot talking to it, a shared manual clock. */
export interface Harness {
  readonly clock: ManualClock;
  readonly sandbox: Sandbox;
  readonly server: SandboxServer;
  readonly store: MemoryStore;
  bot: Bot;
  readonly apiKey: string;
  /** Injects an inbound message in the sandbox and hands it to the bot (as a callback would). */
  say(from: string, input: WithoutFrom | string): Promise<Message>;
  /** Bodies (or types) of what the sandbox accepted for `to`, in order. */
  sentTo(to: string): string[];
  /**
   * Restarts the bot with callbacks, serves its router on 127.0.0.1:0 and points the
   * sandbox's callbacks at it. Returns the callback URL.
   */
  withCallbacks(secret: string, more?: Partial<BotOptions>): Promise<string>;
  /** A new bot on the same store (a restart). */
  restart(overrides?: Partial<BotOptions>): Promise<Bot>;
  close(): Promise<void>;
}

export function defaultHandlers(): Record<string, Handler> {
  return { lookup: () => ({ outcome: 'found', vars: { status: 'shipped' } }) };
}

export async function startHarness(
  overrides: Partial<BotOptions> = {},
  setup: { apiTimeoutMs?: number } = {},
): Promise<Harness> {
  const clock = new ManualClock(START);
  const sandbox = createSandbox({ clock, tickMs: 0 });
  const server = await sandbox.listen(0, '127.0.0.1');
  const store = new MemoryStore({ clock });
  const apiKey = sandbox.config.keys[0]?.key ?? '';
  const options = (more: Partial<BotOptions>): BotOptions => ({
    flows: [demoFlow],
    handlers: defaultHandlers(),
    api: { baseUrl: server.url, apiKey, timeoutMs: setup.apiTimeoutMs ?? 10_000 },
    store,
    clock,
    tickMs: 0,
    ...overrides,
    ...more,
  });
  const closers: Array<() => Promise<void>> = [];
  const h: Harness = {
    clock,
    sandbox,
    server,
    store,
    apiKey,
    bot: createBot(options({})),
    async say(from, input) {
      const spec = typeof input === 'string' ? { type: 'text' as const, text: input } : input;
      const message = sandbox.control.injectInbound({ ...spec, from });
      const conversation = sandbox.control
        .conversations()
        .find((c) => c.id === message.conversationId);
      if (conversation === undefined) throw new Error('sandbox lost the conversation');
      const event = fromApiMessage(message, conversation);
      if (event !== undefined) await h.bot.handle(event);
      return message;
    },
    sentTo(to) {
      return sandbox.control
        .sent()
        .filter((s) => s.to === to)
        .map((s) => describeRequest(s.request));
    },
    async withCallbacks(secret, more = {}) {
      await h.restart({ callbacks: { secret }, ...more });
      const app = express();
      app.use('/callbacks', (req, res, next) => h.bot.callbackRouter()(req, res, next));
      const http = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      closers.push(() => new Promise((resolve) => http.close(() => resolve())));
      const address = http.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const url = `http://127.0.0.1:${port}/callbacks`;
      sandbox.control.setCallback({ url, secret });
      return url;
    },
    async restart(more = {}) {
      await h.bot.stop();
      h.bot = createBot(options(more));
      await h.bot.start();
      return h.bot;
    },
    async close() {
      sandbox.control.setCallback(undefined);
      await h.bot.stop();
      for (const close of closers) await close();
      await server.close();
      await sandbox.close();
    },
  };
  await h.bot.start();
  return h;
}

/** `text:<body>`, `buttons:<body>`, `list:<body>` or `template:<name>`. */
export function describeRequest(request: Record<string, unknown>): string {
  const type = String(request.type);
  const content: unknown = request[type];
  const get = (v: unknown, ...path: string[]): string => {
    let cur = v;
    for (const p of path)
      cur = typeof cur === 'object' && cur !== null ? Reflect.get(cur, p) : undefined;
    return String(cur);
  };
  if (type === 'text') return `text:${get(content, 'body')}`;
  if (type === 'template') return `template:${get(content, 'name')}`;
  if (type === 'interactive') return `${get(content, 'type')}:${get(content, 'body', 'text')}`;
  return type;
}

/** Waits until `check` is true, polling (no fixed sleeps), or fails after `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 5_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
