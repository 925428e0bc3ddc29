import { listenOn } from '../../core/listen.js';
import express from 'express';
import { systemClock, type Clock } from '../../core/clock.js';
import { silentLogger, type Logger } from '../../log/logger.js';
import { LiveEvents } from '../live-events.js';
import type { StudioBotState } from '../studio.js';
import { studioAssets } from '../studio-assets.js';
import { loadStudioBot } from '../studio-bot.js';
import { attachApi } from './attach-api.js';
import { AttachSource } from './attach-source.js';
import type { AttachedStore } from './attach-store.js';
import { requireToken, type StudioAccess } from './studio-access.js';

/** Options of {@link startAttachedStudio}. */
export interface AttachedStudioOptions {
  /** The bot's flow file or directory: its flows draw the diagram. */
  readonly bot: string;
  /** The production store, opened read-only (see `openAttachedStore`). */
  readonly store: AttachedStore;
  /** Bind address and token (see `resolveStudioAccess`). */
  readonly access: StudioAccess;
  /** Port (default: a free one). */
  readonly port?: number;
  /** How often the store is looked at for changes, ms (default 2000). */
  readonly pollMs?: number;
  /** Conversations read per look (default: `DEFAULT_ATTACH_LIMIT`). */
  readonly limit?: number;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/** The bot given for the diagram cannot be loaded (the message says what and where). */
export class AttachStartError extends Error {
  override readonly name = 'AttachStartError';
}

/** A running attached studio. */
export interface AttachedStudio {
  /** The page's address (without the token). */
  readonly url: string;
  /** Looks at the store now and tells the page what changed (what the poller does). */
  poll(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `switchboard studio --attach`: the studio page on real conversations of a
 * production store, read-only. No sandbox, no bot, no API client: the page's data comes
 * from {@link AttachSource}; changes reach it as live events found by polling the store's
 * document versions. With a token, every request (page, modules, API, event stream) must
 * present it.
 */
export async function startAttachedStudio(options: AttachedStudioOptions): Promise<AttachedStudio> {
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const loaded = await loadStudioBot(options.bot);
  if (loaded.status === 'error') throw new AttachStartError(loaded.message);
  const state: StudioBotState = {
    bot: loaded.bot,
    error: undefined,
    lastReload: undefined,
    generation: 0,
  };
  const source = new AttachSource(
    options.store.reader,
    options.limit === undefined ? {} : { limit: options.limit },
  );
  const live = new LiveEvents();

  let versions: Map<string, number> | undefined;
  let failing = false;
  const poll = async (): Promise<void> => {
    try {
      const snapshot = await source.snapshot();
      const next = new Map(snapshot.conversations.map((c) => [c.id, c.version]));
      if (versions !== undefined) {
        for (const [id, version] of next) if (versions.get(id) !== version) live.changed(id);
        for (const id of versions.keys()) if (!next.has(id)) live.changed(id);
      }
      versions = next;
      if (failing) logger.info('studio --attach: the store answers again');
      failing = false;
    } catch (error) {
      if (!failing)
        logger.warn('studio --attach: cannot read the store; trying again', {
          error: error instanceof Error ? error.message : String(error),
        });
      failing = true;
    }
  };
  await poll();
  let polling: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    polling = polling.then(poll);
  }, options.pollMs ?? 2000);
  timer.unref();

  const app = express();
  app.disable('x-powered-by');
  if (options.access.token !== undefined) app.use(requireToken(options.access.token));
  app.use(
    '/api',
    attachApi({
      source,
      live,
      clock,
      storeDescription: options.store.description,
      botState: () => state,
    }),
  );
  app.use(studioAssets());
  const { host } = options.access;
  const { server, url } = await listenOn(app, options.port ?? 0, host);
  return {
    url,
    poll: () => (polling = polling.then(poll)),
    async close() {
      clearInterval(timer);
      await polling;
      live.close();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await options.store.close();
    },
  };
}
