/**
 * The bot of the polling benchmark, in its own process: `switchboard run --poll <interval>`
 * as the CLI starts it (`startWorker`: the SQLite state file, the journaled limiter, the
 * polling leader), without callbacks, against the API at `MESSAGING_API_BASE_URL`.
 * `tsx bench/polling-child.ts <poll interval, e.g. 1s> <state file>`.
 *
 * Prints `{"ready":true}` once polling started, then one line per inbound message fed
 * to a machine: `{"id": <message id>, "at": <wall-clock ms>}`. Exits when stdin closes.
 */
import type { ResolvedBot } from '../src/bot/resolve-bot.js';
import { parseRunConfig } from '../src/cli/run-config.js';
import { startWorker } from '../src/cli/run-worker.js';
import { silentLogger } from '../src/log/logger.js';
import { pollingFlow } from './bench-flow.js';

const [poll = '1s', state = ''] = process.argv.slice(2);
const parsed = parseRunConfig({ poll, state }, process.env);
if (parsed.status !== 'ok') throw new Error(parsed.message);
const resolved: ResolvedBot = {
  flows: [pollingFlow()],
  handlers: {},
  entry: undefined,
  templates: [],
  source: 'bench/polling-child.ts',
};
const worker = await startWorker(resolved, parsed.config, { logger: silentLogger });
worker.bot.on('event', ({ event }) => {
  if (event.type === 'inbound.message')
    process.stdout.write(`${JSON.stringify({ id: event.message.id, at: Date.now() })}\n`);
});
process.stdout.write(`${JSON.stringify({ ready: true, leader: worker.isPollLeader() })}\n`);
const stop = (): void => {
  void worker.stop().then(() => process.exit(0));
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
