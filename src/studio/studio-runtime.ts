import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { MessagingClient } from '../api/client.js';
import type { ResolvedBot } from '../bot/resolve-bot.js';
import { createBot } from '../engine/create-bot.js';
import type { Bot, BotEvents, PollingOptions } from '../engine/types.js';
import { silentLogger, type Logger } from '../log/logger.js';
import {
  createSandbox,
  defaultSandboxConfig,
  parseSandboxConfig,
  type Sandbox,
} from '../sandbox/index.js';
import { MemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import type { MovableClock } from '../testing/bot-harness.js';
import { observeStore } from './observed-store.js';
import { SessionRecorder } from './session-recorder.js';

/** Options of {@link startStudioRuntime}. */
export interface StudioRuntimeOptions {
  readonly bot: ResolvedBot;
  readonly clock: MovableClock;
  readonly logger?: Logger;
  /** Poll the sandbox too (in addition to callbacks). */
  readonly polling?: PollingOptions;
  /** Interval of the bot's timer loop, ms (default 1000). */
  readonly tickMs?: number;
  /** Called whenever something the page shows may have changed (conversation id when known). */
  readonly onChange?: (conversationId: string | undefined) => void;
}

/**
 * The studio's engine room: a sandbox, one store, and the bot running against it through
 * the same engine as `run` (signed callbacks, optionally polling). The bot can be replaced
 * by a reloaded one ({@link StudioRuntime.replaceBot}) while conversations go on: they
 * live in the store, which outlives every bot.
 */
export interface StudioRuntime {
  readonly sandbox: Sandbox;
  readonly clock: MovableClock;
  readonly recorder: SessionRecorder;
  /** The bot running now. */
  bot(): Bot;
  /** The bot definition running now. */
  resolved(): ResolvedBot;
  /**
   * Stops the running bot once its work is done and starts `next` on the same store and
   * sandbox. Callbacks that arrive meanwhile wait for the new bot. Throws (and keeps the
   * running bot) when `next` is not a valid configuration.
   */
  replaceBot(next: ResolvedBot): Promise<Bot>;
  /** Waits until the sandbox has no callback in flight and the bot has no work. */
  settle(): Promise<void>;
  /** Moves the sandbox and bot clocks, fires due sandbox work and bot timers, and settles. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a sandbox and a bot against it (see {@link StudioRuntime}). */
export async function startStudioRuntime(options: StudioRuntimeOptions): Promise<StudioRuntime> {
  const logger = options.logger ?? silentLogger;
  const { clock } = options;
  const onChange = options.onChange ?? (() => undefined);
  const parsed = parseSandboxConfig({
    ...defaultSandboxConfig,
    templates: [...defaultSandboxConfig.templates, ...options.bot.templates],
  });
  if (parsed.status === 'invalid') throw new Error(parsed.message);
  const sandbox = createSandbox({ config: parsed.config, clock, logger });
  const api = await sandbox.listen(0);
  // The key stays in this process: the page talks to the studio server, never to the API.
  const client = new MessagingClient({
    baseUrl: api.url,
    apiKey: sandbox.config.keys[0]?.key ?? '',
    clock,
    logger,
  });
  const secret = randomBytes(24).toString('hex');
  const recorder = new SessionRecorder({ clock, onChange });
  const store: Store = observeStore(new MemoryStore({ clock }), (w) => recorder.onWrite(w));

  const make = (resolved: ResolvedBot): Bot => {
    const bot = createBot({
      flows: resolved.flows,
      handlers: resolved.handlers,
      ...(resolved.entry === undefined ? {} : { entry: resolved.entry }),
      ...(resolved.understanding === undefined ? {} : { understanding: resolved.understanding }),
      api: { client },
      store,
      clock,
      logger,
      callbacks: { secret },
      // One stable owner: a reloaded bot takes the leases of the one it replaces at once.
      workerId: 'studio',
      tickMs: options.tickMs ?? 1000,
      ...(options.polling === undefined ? {} : { polling: options.polling }),
    });
    const listen = <K extends keyof BotEvents>(
      event: K,
      listener: (p: BotEvents[K]) => void,
    ): void => void bot.on(event, listener);
    listen('event', (p) => recorder.onEvent(p.conversationId, p.event));
    listen('effect', (p) => recorder.onEffect(p.conversationId, p.effect, p.outcome));
    listen('error', (p) => recorder.onError(p.conversationId, p.error));
    return bot;
  };

  let resolved = options.bot;
  let bot = make(resolved);
  let router: Router = bot.callbackRouter();
  let swapping: Promise<unknown> = Promise.resolve();

  const app = express();
  app.use('/callbacks', (req: Request, res: Response, next: NextFunction) => {
    // A callback during a reload is handled by the new bot (the sandbox would retry anyway).
    void swapping.then(() => {
      res.once('finish', () => onChange(undefined));
      router(req, res, next);
    });
  });
  const server = await new Promise<Server>((done, fail) => {
    const s = app.listen(0, '127.0.0.1', (e?: Error) => (e === undefined ? done(s) : fail(e)));
  });
  const { port } = server.address() as AddressInfo;
  sandbox.control.setCallback({
    url: `http://127.0.0.1:${port}/callbacks`,
    secret,
    retryBaseMs: 50,
  });
  await bot.start();

  const settle = async (): Promise<void> => {
    // Callbacks lead to sends, sends may lead to callbacks: repeat until nothing moves.
    for (let round = 0; round < 100; round++) {
      const before = sandbox.control.callbackAttempts().length + sandbox.control.sent().length;
      await sandbox.control.callbacksIdle();
      await swapping;
      await bot.idle();
      const after = sandbox.control.callbackAttempts().length + sandbox.control.sent().length;
      if (before === after) return;
    }
  };

  return {
    sandbox,
    clock,
    recorder,
    bot: () => bot,
    resolved: () => resolved,
    async replaceBot(next) {
      const fresh = make(next); // throws BotConfigError before anything is stopped
      const swap = (async () => {
        await bot.stop();
        bot = fresh;
        resolved = next;
        router = fresh.callbackRouter();
        await fresh.start();
      })();
      swapping = swap.catch(() => undefined);
      await swap;
      onChange(undefined);
      return fresh;
    },
    settle,
    async advance(ms) {
      sandbox.control.advance(ms);
      await settle();
      for (let round = 0; round < 100 && (await bot.runDueTimers()) > 0; round++) await settle();
      await settle();
      onChange(undefined);
    },
    async close() {
      await swapping;
      await bot.stop();
      await sandbox.close();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}
