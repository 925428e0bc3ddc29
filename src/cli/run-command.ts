import type { Command } from 'commander';
import { loadBot } from '../bot/load-bot.js';
import { BotConfigError } from '../engine/types.js';
import type { Logger } from '../log/logger.js';
import { parseRunConfig, type RunFlags } from './run-config.js';
import {
  checkApiAtStart,
  startWorker,
  WorkerStartError,
  type RunningWorker,
} from './run-worker.js';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { StateFileLockedError } from '../store/sqlite-schema.js';
import { catchSignals, type SignalHandler } from './signals.js';
import { isDeploymentFileName } from '../deploy/load-deployment-file.js';
import { runDeploymentCommand } from './run-deployment-command.js';

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
 * `MESSAGING_API_BASE_URL`, polling (one leader among the workers) and/or receiving
 * callbacks, with `/healthz`, `/readyz` and `/metrics`.
 */
export function registerRunCommand(program: Command): Command {
  return program
    .command('run')
    .description('Run a bot against the Messaging API (production mode)')
    .argument(
      '[bot]',
      'a flow file (.yaml/.json) or a module exporting `bot` (or a directory with bot.ts); a *.deploy.yaml file runs a deployment',
    )
    .option(
      '--deployment <file>',
      'run every number of a deployment file (see docs/deployments.md); --state is then a directory',
    )
    .option(
      '--poll <interval>',
      'poll the API for new messages at this interval, e.g. 2s (one worker polls at a time)',
    )
    .option('--port <n>', 'receive signed callbacks on this port (needs CALLBACK_SECRET; 0 = any)')
    .option(
      '--metrics-port <n>',
      'serve /healthz, /readyz and /metrics on this port (then not on --port)',
    )
    .option('--host <host>', 'interface of the HTTP servers', '0.0.0.0')
    .option('--path <path>', 'path of the callback endpoint', '/callbacks')
    .option(
      '--state <file>',
      'the embedded state file (default .switchboard/state.db beside the bot; or STATE_PATH)',
    )
    .option('--memory', 'keep state in memory only (lost on exit: for experiments)')
    .option(
      '--backfill <duration>',
      'on the first start, also answer unanswered messages up to this old, e.g. 2h (default: none)',
    )
    .addHelpText(
      'after',
      `
Environment:
  MESSAGING_API_BASE_URL  API base URL (required), e.g. https://api.example.com
  MESSAGING_API_KEY       API key of the business number (required)
  CALLBACK_SECRET         signing secret of callbacks (required with --port)
  EVENTS_TOKEN            bearer token of POST /events on --port (enables it; 16+ characters)
  REDIS_URL               use Redis for state, timers, leases and rate budgets (several workers)
  STATE_PATH              the embedded state file when REDIS_URL is not set (like --state)
  SWITCHBOARD_WORKER_ID   a stable name for this worker's leases (a restart takes them back at once)
  REDIS_PREFIX            key prefix in Redis, the same for every worker of a bot (default switchboard:)
  LOG_LEVEL               error | warn | info | debug | silent (default info)
  LOG_FORMAT              json | pretty (default: pretty on a terminal, else json)
  OTEL_EXPORTER_OTLP_ENDPOINT  turns traces on: OTLP/HTTP (JSON) to this collector, e.g. http://collector:4318
  OTEL_TRACES_EXPORTER    otlp | console | none (OTEL_SDK_DISABLED=true turns traces off whatever is set)
  SWITCHBOARD_BUSINESS_NUMBER  the business number, as an attribute of every span

Endpoints (on --port, or on --metrics-port when given):
  GET /healthz   200 while running, 503 while draining on shutdown
  GET /readyz    200 when the bot started and the store answers, else 503
  GET /metrics   Prometheus metrics (switchboard_* and process metrics)
  POST /events   events and flow starts for contacts (with EVENTS_TOKEN; on --port only)

Each server prints one JSON line on stdout: {"message":"listening","role":...,"url":...}.

Examples:
  $ MESSAGING_API_BASE_URL=https://api.example.com MESSAGING_API_KEY=... switchboard run examples/order-status --poll 2s --metrics-port 9464
  $ CALLBACK_SECRET=... switchboard run flows/support-desk.yaml --port 8080
  $ REDIS_URL=redis://127.0.0.1:6379 switchboard run examples/support-desk --port 8080 --poll 5s

Configuration problems print one line and exit with code 2. SIGINT/SIGTERM stop gracefully.`,
    )
    .action(async (botPath: string | undefined, flags: RunFlags & { deployment?: string }) => {
      const deploymentFile =
        flags.deployment ??
        (botPath !== undefined && isDeploymentFileName(botPath) ? botPath : undefined);
      if (deploymentFile !== undefined) {
        if (flags.deployment !== undefined && botPath !== undefined)
          throw new CliError('switchboard run: give a bot or --deployment <file>, not both', 2);
        return runDeploymentCommand(deploymentFile, flags);
      }
      if (botPath === undefined)
        throw new CliError(
          'switchboard run: name a bot, or a deployment with --deployment <file>',
          2,
        );
      const parsed = parseRunConfig(flags, process.env);
      if (parsed.status === 'invalid') throw new CliError(`switchboard run: ${parsed.message}`, 2);
      // The key first: a wrong key or URL exits before the bot is even loaded.
      const firstCheck = await checkApiAtStart(parsed.config);
      if (firstCheck.status === 'refused')
        throw new CliError(`switchboard run: ${firstCheck.message}`, 2);
      const loaded = await loadBot(botPath);
      if (loaded.status === 'error') throw new CliError(`switchboard run: ${loaded.message}`, 2);
      // Caught from here: the `listening` line is printed during start, and a signal sent
      // on reading it must stop the worker gracefully once it runs.
      const signals = catchSignals();
      let worker: RunningWorker | undefined;
      // The API was unreachable at start and now refuses the key: one line, exit 2.
      const onFatal = (message: string): void => {
        process.stderr.write(`switchboard run: ${message}\n`);
        void (worker?.stop() ?? Promise.resolve()).finally(() => process.exit(2));
      };
      try {
        const statePath = parsed.config.statePath ?? (await defaultStatePath(botPath));
        worker = await startWorker(
          loaded.bot,
          { ...parsed.config, statePath },
          { onFatal, firstCheck },
        );
      } catch (error) {
        if (
          error instanceof BotConfigError ||
          error instanceof WorkerStartError ||
          error instanceof StateFileLockedError
        )
          throw new CliError(`switchboard run: ${error.message.replace(/\n/g, ' ')}`, 2, {
            cause: error,
          });
        throw error;
      }
      // The bot's loops do not hold the process open (they are unref'd): this does, until a signal.
      const keepAlive = setInterval(() => undefined, 1 << 30);
      const running = worker;
      signals.handle(
        gracefulStop(async () => {
          clearInterval(keepAlive);
          await running.stop();
        }, running.logger),
      );
    });
}

/**
 * How long a stop may wait for work in flight (25 s: under the 30 s a container platform
 * gives before SIGKILL). Work left unfinished stays in the store and is resumed, exactly
 * once, by the next start.
 */
export const STOP_DEADLINE_MS = 25_000;

/**
 * A signal handler that runs `stop` once, saying what it waits for and for how long at
 * most; exits 0 when stopped, 1 when stopping failed or the deadline passed.
 */
export function gracefulStop(
  stop: () => Promise<void>,
  logger: Logger,
  deadlineMs = STOP_DEADLINE_MS,
): SignalHandler {
  let stopping = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    logger.info(
      `${signal}: stopping; callbacks and /readyz answer 503 now; waiting for handler calls and sends in flight, at most ${deadlineMs / 1000} s`,
      { signal, deadlineMs },
    );
    const deadline = setTimeout(() => {
      logger.warn(
        `stop deadline of ${deadlineMs / 1000} s passed; exiting with work in flight (it stays in the store and resumes on the next start)`,
      );
      process.exit(1);
    }, deadlineMs);
    deadline.unref();
    stop().then(
      () => {
        logger.info(`stopped in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        process.exit(0);
      },
      (error: unknown) => {
        logger.error('stop failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  return handler;
}

/** `.switchboard/state.db` inside the bot's directory (or beside its file). */
export async function defaultStatePath(botPath: string): Promise<string> {
  const isDir = await stat(botPath).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return join(isDir ? botPath : dirname(botPath), '.switchboard', 'state.db');
}
