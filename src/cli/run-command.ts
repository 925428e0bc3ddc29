import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import express from 'express';
import { Redis } from 'ioredis';
import { MessagingClient } from '../api/client.js';
import { RedisLimiter } from '../api/redis-limiter.js';
import { loadBot } from '../bot/load-bot.js';
import { createBot } from '../engine/create-bot.js';
import { BotConfigError, type Bot } from '../engine/types.js';
import { createLogger, type Logger } from '../log/logger.js';
import { MemoryStore } from '../store/memory-store.js';
import { RedisStore } from '../store/redis-store.js';
import type { Store } from '../store/store.js';
import { parseRunConfig, type RunConfig, type RunFlags } from './run-config.js';

/** A CLI failure reported on one line with an exit code (no stack trace). */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Adds `switchboard run <bot>`: runs a bot in production mode against
 * `MESSAGING_API_BASE_URL`, polling and/or receiving callbacks.
 */
export function registerRunCommand(program: Command): Command {
  return program
    .command('run')
    .description('Run a bot against the Messaging API (production mode)')
    .argument(
      '<bot>',
      'a flow file (.yaml/.json) or a module exporting `bot` (or a directory with bot.ts)',
    )
    .option('--poll <interval>', 'poll the API for new messages at this interval, e.g. 2s')
    .option('--port <n>', 'receive signed callbacks on this port (needs CALLBACK_SECRET)')
    .option('--host <host>', 'interface for the callback server', '0.0.0.0')
    .option('--path <path>', 'path of the callback endpoint', '/callbacks')
    .addHelpText(
      'after',
      `
Environment:
  MESSAGING_API_BASE_URL  API base URL (required), e.g. https://api.example.com
  MESSAGING_API_KEY       API key of the business number (required)
  CALLBACK_SECRET         signing secret of callbacks (required with --port)
  REDIS_URL               use Redis for state, timers and rate budgets (memory otherwise)
  REDIS_PREFIX            key prefix in Redis (default switchboard:)
  LOG_LEVEL               error | warn | info | debug | silent (default info)
  LOG_FORMAT              json | pretty (default: pretty on a terminal, else json)

Examples:
  $ MESSAGING_API_BASE_URL=https://api.example.com MESSAGING_API_KEY=... switchboard run examples/order-status --poll 2s
  $ CALLBACK_SECRET=... switchboard run flows/support-desk.yaml --port 8080
  $ REDIS_URL=redis://127.0.0.1:6379 switchboard run examples/support-desk --port 8080 --poll 5s

Configuration problems print one line and exit with code 2. SIGINT/SIGTERM stop gracefully.`,
    )
    .action(async (botPath: string, flags: RunFlags) => {
      const parsed = parseRunConfig(flags, process.env);
      if (parsed.status === 'invalid') throw new CliError(`switchboard run: ${parsed.message}`, 2);
      await runBot(botPath, parsed.config);
    });
}

async function runBot(botPath: string, config: RunConfig): Promise<void> {
  const loaded = await loadBot(botPath);
  if (loaded.status === 'error') throw new CliError(`switchboard run: ${loaded.message}`, 2);
  const logger = createLogger({
    level: config.logLevel,
    secrets: [
      config.apiKey,
      ...(config.callbackSecret === undefined ? [] : [config.callbackSecret]),
    ],
    ...(config.logFormat === undefined ? {} : { format: config.logFormat }),
  });
  const redis =
    config.redisUrl === undefined
      ? undefined
      : new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  if (redis !== undefined) {
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      throw new CliError(
        `switchboard run: cannot connect to REDIS_URL: ${error instanceof Error ? error.message : String(error)}`,
        2,
      );
    }
  }
  const store: Store =
    redis === undefined ? new MemoryStore() : new RedisStore({ redis, prefix: config.redisPrefix });
  const client = new MessagingClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    logger,
    ...(redis === undefined
      ? {}
      : { limiter: new RedisLimiter({ redis, prefix: config.redisPrefix }) }),
  });
  let bot: Bot;
  try {
    bot = createBot({
      flows: loaded.bot.flows,
      handlers: loaded.bot.handlers,
      ...(loaded.bot.entry === undefined ? {} : { entry: loaded.bot.entry }),
      api: { client },
      store,
      logger: logger.child({ worker: randomUUID().slice(0, 8) }),
      ...(config.callbackSecret === undefined || config.port === undefined
        ? {}
        : { callbacks: { secret: config.callbackSecret } }),
      ...(config.pollMs === undefined
        ? {}
        : {
            polling: {
              minIntervalMs: config.pollMs,
              maxIntervalMs: Math.max(config.pollMs, 30_000),
            },
          }),
    });
    await bot.start();
  } catch (error) {
    redis?.disconnect();
    if (error instanceof BotConfigError)
      throw new CliError(`switchboard run: ${error.message.replace(/\n/g, ' ')}`, 2, {
        cause: error,
      });
    throw error;
  }
  const server = config.port === undefined ? undefined : await listen(bot, config, config.port);
  logger.info('switchboard running', {
    bot: botPath,
    store: redis === undefined ? 'memory' : 'redis',
    polling: config.pollMs === undefined ? 'off' : `${config.pollMs}ms`,
    callbacks:
      server === undefined ? 'off' : `http://${config.host}:${config.port}${config.callbackPath}`,
  });
  // The bot's loops do not hold the process open (they are unref'd): this does, until a signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  onSignals(async () => {
    clearInterval(keepAlive);
    logger.info('stopping');
    await new Promise<void>((resolve) =>
      server === undefined ? resolve() : server.close(() => resolve()),
    );
    await bot.stop();
    await redis?.quit();
  }, logger);
}

function listen(bot: Bot, config: RunConfig, port: number): Promise<Server> {
  const app = express();
  app.disable('x-powered-by');
  app.use(config.callbackPath, bot.callbackRouter());
  app.get('/healthz', (_req, res) => void res.json({ ok: true }));
  return new Promise((resolve, reject) => {
    const server = app.listen(port, config.host, (error?: Error) => {
      if (error === undefined) resolve(server);
      else
        reject(
          new CliError(
            `switchboard run: cannot listen on ${config.host}:${port}: ${error.message}`,
            2,
          ),
        );
    });
  });
}

/** Runs `stop` once on SIGINT or SIGTERM, then exits 0 (1 when stopping failed). */
export function onSignals(stop: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  const handler = (): void => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('stop failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}
