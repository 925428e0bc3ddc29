import { listenOn } from '../core/listen.js';
import express from 'express';
import { DevClock } from '../cli/dev-clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { MovableClock } from '../testing/bot-harness.js';
import { CustomerBook } from './customers.js';
import { watchFiles, type FileWatcher } from './file-watcher.js';
import { LiveEvents } from './live-events.js';
import { reloadBot, type ReloadPolicy, type ReloadReport } from './reload-bot.js';
import { studioAssets } from './studio-assets.js';
import { studioApi } from './studio-api.js';
import { loadStudioBot, sourceDirsOf, type StudioBot } from './studio-bot.js';
import { startStudioRuntime, type StudioRuntime } from './studio-runtime.js';

/** Options of {@link startStudio}. */
export interface StudioOptions {
  /** A flow file, a bot module, or a directory with bot.ts / index.ts. */
  readonly bot: string;
  /** Port of the web page on 127.0.0.1 (default: a free port). */
  readonly port?: number;
  readonly host?: string;
  readonly clock?: MovableClock;
  readonly logger?: Logger;
  /** Poll the sandbox too, in addition to callbacks (default true). */
  readonly poll?: boolean;
  /** Reload when a flow or handler file changes (default true). */
  readonly watch?: boolean;
  /** Quiet time after a file change before reloading, ms (default 200). */
  readonly debounceMs?: number;
  /** What a reload does to running conversations (default: keep, or restart if the state is gone). */
  readonly reloadPolicy?: ReloadPolicy;
}

/** The state of the bot as the flow panel shows it. */
export interface StudioBotState {
  readonly bot: StudioBot;
  /** The latest load failed (the previous bot keeps running): what and where. */
  readonly error: string | undefined;
  readonly lastReload: (ReloadReport & { readonly at: number }) | undefined;
  /** Reloads so far. */
  readonly generation: number;
}

/** A running studio. */
export interface Studio {
  /** The page's URL, e.g. `http://127.0.0.1:4321/`. */
  readonly url: string;
  readonly runtime: StudioRuntime;
  readonly customers: CustomerBook;
  botState(): StudioBotState;
  /** Loads the bot again now (what a file change does). */
  reload(): Promise<StudioBotState>;
  close(): Promise<void>;
}

/** Thrown when the bot cannot be loaded at start (the message says what and where). */
export class StudioStartError extends Error {
  override readonly name = 'StudioStartError';
}

/**
 * Starts `switchboard studio`: the sandbox, the bot against it, the web page and its API
 * on one local port, and the file watcher that hot-reloads the bot.
 */
export async function startStudio(options: StudioOptions): Promise<Studio> {
  const logger = options.logger ?? silentLogger;
  const first = await loadStudioBot(options.bot);
  if (first.status === 'error') throw new StudioStartError(first.message);
  const live = new LiveEvents();
  const clock = options.clock ?? new DevClock();
  const runtime = await startStudioRuntime({
    bot: first.bot.resolved,
    clock,
    logger,
    tickMs: 1000,
    ...(options.poll === false ? {} : { polling: { minIntervalMs: 1000, maxIntervalMs: 5000 } }),
    onChange: (id) => live.changed(id),
  });
  const customers = new CustomerBook(
    runtime.sandbox.config.contacts.map((c) => ({ phone: c.phoneNumber, name: c.name })),
  );
  let state: StudioBotState = {
    bot: first.bot,
    error: undefined,
    lastReload: undefined,
    generation: 0,
  };

  let queue: Promise<unknown> = Promise.resolve();
  let watcher: FileWatcher | undefined;
  const reloadNow = async (): Promise<StudioBotState> => {
    const loaded = await loadStudioBot(options.bot);
    if (loaded.status === 'error') {
      state = { ...state, error: loaded.message };
      runtime.recorder.note(
        undefined,
        `reload failed: ${loaded.message.split('\n')[0] ?? ''}`,
        false,
      );
      logger.warn('studio: reload failed; the previous bot keeps running', {
        error: loaded.message,
      });
      watcher?.update({
        files: [...new Set([...state.bot.files, ...loaded.files])],
        sourceDirs: sourceDirsOf(state.bot.files),
      });
    } else {
      try {
        const report = await reloadBot(runtime, loaded.bot.resolved, options.reloadPolicy);
        state = {
          bot: loaded.bot,
          error: undefined,
          lastReload: { ...report, at: clock.now() },
          generation: state.generation + 1,
        };
        runtime.recorder.note(
          undefined,
          `reloaded ${report.flows.map((f) => `${f.id} v${f.version}`).join(', ')}: ${report.kept} kept, ${report.restarted.length} restarted, ${report.versionRule} by version rule`,
        );
        watcher?.update({ files: loaded.bot.files, sourceDirs: sourceDirsOf(loaded.bot.files) });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        state = { ...state, error: message };
        runtime.recorder.note(undefined, `reload failed: ${message.split('\n')[0] ?? ''}`, false);
      }
    }
    live.changed();
    return state;
  };
  const reload = (): Promise<StudioBotState> => {
    const next = queue.then(reloadNow, reloadNow);
    queue = next.catch(() => undefined);
    return next;
  };
  if (options.watch !== false) {
    watcher = watchFiles(
      { files: first.bot.files, sourceDirs: sourceDirsOf(first.bot.files) },
      () => void reload(),
      options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs },
    );
  }

  const app = express();
  app.disable('x-powered-by');
  app.use('/api', studioApi({ runtime, customers, live, botState: () => state, reload }));
  app.use(studioAssets());
  const host = options.host ?? '127.0.0.1';
  const { server, url } = await listenOn(app, options.port ?? 0, host);

  return {
    url,
    runtime,
    customers,
    botState: () => state,
    reload,
    async close() {
      watcher?.close();
      await queue;
      live.close();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await runtime.close();
    },
  };
}
