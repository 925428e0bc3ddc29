import type { Bot, Handler, ReloadResult } from '../engine/types.js';
import { defineBot, type BotFlowSource } from './define-bot.js';
import { resolveBot } from './resolve-bot.js';

/** Options of {@link reloadFlowSources}. */
export interface ReloadSourcesOptions {
  /** Id of the entry flow after the reload (default: the entry the bot was created with). */
  readonly entry?: string;
  /**
   * The bot's handlers, to check the new flows' calls against their declared outcomes
   * (the running bot keeps its own handlers; a flow calling one it lacks is refused).
   */
  readonly handlers?: Readonly<Record<string, Handler>>;
  /** Directory relative flow paths are resolved against (default: the working directory). */
  readonly dir?: string;
}

/**
 * Hot reload from what `defineBot` takes: flow file paths or URLs, flow definitions or
 * compiled flows. The files are read, linted and compiled (an error names the file,
 * line and column), then given to the running bot's `reloadFlows`. Nothing changes
 * when the answer is `invalid`; running conversations move to the new versions at their
 * next event (see "Flow versions and hot reload").
 * @example
 * const r = await reloadFlowSources(bot, [new URL('./flows/orders.yaml', import.meta.url)]);
 * if (r.status === 'invalid') console.error(r.message);
 */
export async function reloadFlowSources(
  bot: Pick<Bot, 'reloadFlows'>,
  flows: readonly BotFlowSource[],
  options: ReloadSourcesOptions = {},
): Promise<ReloadResult> {
  if (flows.length === 0)
    return { status: 'invalid', message: 'reloadFlows: pass at least one flow' };
  const definition = defineBot({
    flows,
    handlers: { ...options.handlers },
    ...(options.entry === undefined ? {} : { entry: options.entry }),
    ...(options.dir === undefined ? {} : { dir: options.dir }),
  });
  const resolved = await resolveBot(definition, {
    source: 'reloadFlows',
    // The running bot checks the calls against its own handlers (checkBotOptions).
    checkHandlers: false,
  });
  if (resolved.status === 'error') return { status: 'invalid', message: resolved.message };
  return bot.reloadFlows(resolved.bot.flows, {
    ...(options.entry === undefined ? {} : { entry: options.entry }),
  });
}
