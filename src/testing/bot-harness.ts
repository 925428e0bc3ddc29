import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { MessagingClient } from '../api/client.js';
import type { Limiter } from '../api/limiter.js';
import type { ResolvedBot } from '../bot/resolve-bot.js';
import type { Clock } from '../core/clock.js';
import { createBot } from '../engine/create-bot.js';
import type { Bot, Handler, HandlerContext, PollingOptions } from '../engine/types.js';
import { silentLogger, type Logger } from '../log/logger.js';
import {
  createSandbox,
  defaultSandboxConfig,
  parseSandboxConfig,
  type InboundInput,
  type Sandbox,
  type SandboxConfigInput,
} from '../sandbox/index.js';
import { MemoryStore } from '../store/memory-store.js';

/** An inbound message as the contact sends it (the sandbox's inbound input without `from`). */
export type ContactMessage = InboundInput extends infer T
  ? T extends unknown
    ? Omit<T, 'from'>
    : never
  : never;

/** A clock both the sandbox and the bot read, that `advance` moves for both. */
export interface MovableClock extends Clock {
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
}

/** Options of {@link startBotHarness}. */
export interface BotHarnessOptions {
  /** The bot to run (flows compiled, e.g. by `resolveBot` or `loadBot`). */
  readonly bot: ResolvedBot;
  /** The clock the sandbox and the bot share. */
  readonly clock: MovableClock;
  /** The bot's logger (engine, API client); default: silent. */
  readonly logger?: Logger;
  /** The sandbox's logger (default: `logger`). */
  readonly sandboxLogger?: Logger;
  /** Extra sandbox configuration (merged over the defaults; the bot's templates are added). */
  readonly sandbox?: Partial<SandboxConfigInput>;
  /** Port of the sandbox (default: ephemeral). */
  readonly sandboxPort?: number;
  /** Poll the sandbox too (in addition to callbacks). */
  readonly polling?: PollingOptions;
  /** Interval of the bot's timer loop in ms; 0 = timers fire only through `advance`. */
  readonly tickMs?: number;
  /** Hold the API budgets of spec part 8 in the client (default true). */
  readonly budgets?: boolean;
  /**
   * With a fake clock: `settle` stops waiting for a handler that has not answered for
   * this many real ms (its timeout runs on the fake clock: `advance` fires it).
   * Default: wait for every handler (real timers).
   */
  readonly handlerWaitMs?: number;
  /** How the API client waits (retries, Retry-After); default: real time. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** A bot running against an in-process sandbox, with callbacks on a local server. */
export interface BotHarness {
  /** The in-process sandbox (its `control` injects messages, takes over, moves time…). */
  readonly sandbox: Sandbox;
  /** The engine's running bot (`createBot`). */
  readonly bot: Bot;
  /** The clock the sandbox and the bot share. */
  readonly clock: MovableClock;
  /** The bot's store (a memory store). */
  readonly store: MemoryStore;
  /** Base URL of the sandbox. */
  readonly apiUrl: string;
  /** Waits until the sandbox has no callback in flight and the bot has no work. */
  settle(): Promise<void>;
  /** Moves both clocks, fires due sandbox work and bot timers, and settles. */
  advance(ms: number): Promise<void>;
  /** Stops the bot, the sandbox and the callback server. */
  close(): Promise<void>;
}

/** A limiter that never limits: with a frozen test clock a budget wait would never end. */
const unlimited: Limiter = {
  take: () => Promise.resolve({ ok: true, ticket: 'unlimited' }),
  complete: () => Promise.resolve(),
  block: () => Promise.resolve(),
  acquireSlot: () => Promise.resolve({ release: () => Promise.resolve() }),
};

/**
 * Starts a sandbox and a bot wired to it (callbacks on 127.0.0.1, optionally polling):
 * the common ground of `switchboard dev` and the test kit.
 */
export async function startBotHarness(options: BotHarnessOptions): Promise<BotHarness> {
  const logger = options.logger ?? silentLogger;
  const { clock } = options;
  const extra = options.sandbox ?? {};
  const parsed = parseSandboxConfig({
    ...defaultSandboxConfig,
    ...extra,
    templates: [...(extra.templates ?? defaultSandboxConfig.templates), ...options.bot.templates],
  });
  if (parsed.status === 'invalid') throw new Error(parsed.message);
  const sandbox = createSandbox({
    config: parsed.config,
    clock,
    logger: options.sandboxLogger ?? logger,
  });
  const api = await sandbox.listen(options.sandboxPort ?? 0);
  const apiKey = sandbox.config.keys[0]?.key ?? '';
  const secret = randomBytes(24).toString('hex');
  const client = new MessagingClient({
    baseUrl: api.url,
    apiKey,
    clock,
    logger,
    ...(options.budgets === false ? { limiter: unlimited } : {}),
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
  });
  const calls = new HandlerCalls();
  const store = new MemoryStore({ clock });
  const bot = createBot({
    flows: options.bot.flows,
    handlers: calls.wrap(options.bot.handlers),
    ...(options.bot.entry === undefined ? {} : { entry: options.bot.entry }),
    api: { client },
    store,
    clock,
    logger,
    callbacks: { secret },
    tickMs: options.tickMs ?? 0,
    ...(options.polling === undefined ? {} : { polling: options.polling }),
  });
  const app = express();
  app.use('/callbacks', bot.callbackRouter());
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) =>
      error === undefined ? resolve(s) : reject(error),
    );
  });
  const { port } = server.address() as AddressInfo;
  sandbox.control.setCallback({
    url: `http://127.0.0.1:${port}/callbacks`,
    secret,
    retryBaseMs: 50,
  });
  await bot.start();

  // Idle, or (with handlerWaitMs) waiting only for a handler that does not answer.
  const idleOrStuck = async (): Promise<'idle' | 'stuck'> => {
    const idle = bot.idle().then(() => 'idle' as const);
    const wait = options.handlerWaitMs;
    if (wait === undefined) return idle;
    for (;;) {
      const next = await Promise.race([idle, realDelay(Math.min(50, wait))]);
      if (next === 'idle') return 'idle';
      if (calls.oldestPendingAgeMs() >= wait) return 'stuck';
    }
  };
  const settle = async (): Promise<void> => {
    // Callbacks lead to sends, sends may lead to callbacks: repeat until nothing moves.
    for (let round = 0; round < 100; round++) {
      const before = sandbox.control.callbackAttempts().length + sandbox.control.sent().length;
      await sandbox.control.callbacksIdle();
      if ((await idleOrStuck()) === 'stuck') return;
      const after = sandbox.control.callbackAttempts().length + sandbox.control.sent().length;
      if (before === after) return;
    }
  };

  return {
    sandbox,
    bot,
    clock,
    store,
    apiUrl: api.url,
    settle,
    async advance(ms) {
      sandbox.control.advance(ms);
      await settle();
      for (let round = 0; round < 100 && (await bot.runDueTimers()) > 0; round++) await settle();
      await settle();
    },
    async close() {
      await bot.stop();
      await sandbox.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Counts the handler calls in flight (real time), so `settle` knows what it waits for. */
class HandlerCalls {
  readonly #started = new Set<{ at: number }>();

  wrap(handlers: Readonly<Record<string, Handler>>): Record<string, Handler> {
    return Object.fromEntries(
      Object.entries(handlers).map(([name, handler]) => [
        name,
        async (context: HandlerContext) => {
          const call = { at: Date.now() };
          this.#started.add(call);
          try {
            return await handler(context);
          } finally {
            this.#started.delete(call);
          }
        },
      ]),
    );
  }

  /** Real ms since the oldest unanswered call started; 0 when none is in flight. */
  oldestPendingAgeMs(): number {
    let oldest = Infinity;
    for (const call of this.#started) oldest = Math.min(oldest, call.at);
    return oldest === Infinity ? 0 : Date.now() - oldest;
  }
}

function realDelay(ms: number): Promise<'tick'> {
  return new Promise((resolve) => setTimeout(() => resolve('tick'), ms));
}
