import { BotConfigError } from '../engine/types.js';
import type { Logger } from '../log/logger.js';
import { CliError } from './run-command.js';
import { defaultStatePath } from './run-command.js';
import { catchSignals, stopOnce } from './signals.js';

/** Flags of `switchboard studio --attach`. */
export interface StudioAttachFlags {
  readonly port: number;
  readonly host?: string;
  readonly token?: string;
  readonly state?: string;
  readonly limit?: string;
}

/**
 * `switchboard studio <bot> --attach`: the studio page on the real conversations of the
 * store `switchboard run` uses (REDIS_URL, else --state / STATE_PATH / the bot's
 * `.switchboard/state.db`), read-only. The token is never printed or logged.
 */
export async function runStudioAttach(
  botPath: string,
  flags: StudioAttachFlags,
  logger: Logger,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<void> {
  const fail = (message: string): never => {
    throw new CliError(`switchboard studio --attach: ${message}`, 2);
  };
  // Loaded on use: the other commands do not pay for the studio.
  const access = await import('../studio/attach/studio-access.js');
  const stores = await import('../studio/attach/attach-store.js');
  const { startAttachedStudio, AttachStartError } =
    await import('../studio/attach/attached-studio.js');
  const resolved = access.resolveStudioAccess({ host: flags.host, token: flags.token }, env);
  if (resolved.status === 'invalid') return fail(resolved.message);
  let limit: number | undefined;
  if (flags.limit !== undefined) {
    limit = Number(flags.limit);
    if (!/^\d+$/.test(flags.limit) || limit < 1 || limit > 100_000)
      return fail(`--limit must be an integer 1..100000 (got "${flags.limit}")`);
  }
  const target = stores.resolveAttachTarget(
    { state: flags.state },
    env,
    await defaultStatePath(botPath),
  );
  if (target.status === 'invalid') return fail(target.message);
  let store;
  try {
    store = await stores.openAttachedStore(target.target);
  } catch (error) {
    if (error instanceof stores.AttachStoreError) return fail(error.message);
    throw error;
  }
  const signals = catchSignals();
  let studio;
  try {
    studio = await startAttachedStudio({
      bot: botPath,
      store,
      access: resolved.access,
      port: flags.port,
      logger,
      ...(limit === undefined ? {} : { limit }),
    });
  } catch (error) {
    await store.close();
    if (error instanceof AttachStartError || error instanceof BotConfigError)
      return fail(error.message);
    if ((error as { code?: unknown }).code === 'EADDRINUSE')
      return fail(`port ${flags.port} is in use; pick another with --port (0 = any free port)`);
    if ((error as { code?: unknown }).code === 'EADDRNOTAVAIL')
      return fail(`--host ${resolved.access.host} is not an address of this machine`);
    throw error;
  }
  signals.handle(stopOnce(() => studio.close()));
  process.stdout.write(
    [
      `switchboard studio --attach: ${store.description} (read-only: nothing is sent or changed)`,
      `Open ${studio.url}${resolved.access.token === undefined ? '' : '?token=<your token>'} in your browser. Ctrl+C stops.`,
      '',
    ].join('\n'),
  );
}
