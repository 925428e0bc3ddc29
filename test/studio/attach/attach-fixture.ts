import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { loadBot } from '../../../src/bot/load-bot.js';
import { DEFAULT_DEV_BOT } from '../../../src/cli/dev-command.js';
import type { Store } from '../../../src/store/store.js';
import { ADA, GRACE, START, startHarness, type Harness } from '../../engine/harness.js';

export { ADA, GRACE };

/**
 * The support-desk example run against the sandbox on `store` (a state file or Redis), as
 * `switchboard run` would: Ada says hi and picks an option, Grace says hi. The bot is
 * stopped afterwards; the sandbox stays up so a test can see that attaching sends nothing.
 * The clock starts at the wall clock, so the documents are live for a wall-clock reader.
 */
export async function runSupportDesk(store: () => Store): Promise<Harness> {
  const loaded = await loadBot(DEFAULT_DEV_BOT);
  if (loaded.status !== 'ok') throw new Error(loaded.message);
  const h = await startHarness({
    flows: loaded.bot.flows,
    handlers: loaded.bot.handlers,
    ...(loaded.bot.entry === undefined ? {} : { entry: loaded.bot.entry }),
  });
  // Three minutes before the wall clock: the turns below move it a minute at a time.
  h.clock.advance(Date.now() - START - 3 * 60_000);
  const opened = store();
  await h.restart({ store: opened });
  await h.say(ADA, 'hi');
  await h.bot.idle();
  h.clock.advance(60_000);
  await h.say(ADA, 'where is my order');
  await h.bot.idle();
  h.clock.advance(60_000);
  await h.say(GRACE, 'hello');
  await h.bot.idle();
  await h.bot.stop();
  await opened.close();
  return h;
}

/** A file's bytes (hash) and modification time: equal before and after means untouched. */
export function fingerprint(path: string): string {
  const hash = createHash('sha256').update(readFileSync(path)).digest('hex');
  return `${hash} ${statSync(path).mtimeMs}`;
}
