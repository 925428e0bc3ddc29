import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBot } from '../../src/bot/load-bot.js';
import type { ResolvedBot } from '../../src/bot/resolve-bot.js';
import { parseRunConfig } from '../../src/cli/run-config.js';
import { startWorker } from '../../src/cli/run-worker.js';
import { createLogger } from '../../src/log/logger.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { waitUntil } from '../wait-until.js';

const TOKEN = 'events-token-0123456789-abcdef';
const SECRET = 'run-events-callback-secret';

describe('switchboard run: POST /events', () => {
  let sandbox: Sandbox;
  let apiUrl: string;
  let bot: ResolvedBot;
  const env = (): Record<string, string> => ({
    MESSAGING_API_BASE_URL: apiUrl,
    MESSAGING_API_KEY: sandbox.config.keys[0]?.key ?? '',
    CALLBACK_SECRET: SECRET,
  });

  beforeAll(async () => {
    sandbox = createSandbox();
    apiUrl = (await sandbox.listen()).url;
    const loaded = await loadBot('examples/appointment-booking');
    if (loaded.status !== 'ok') throw new Error(loaded.message);
    bot = loaded.bot;
  });
  afterAll(() => sandbox.close());

  it('should read EVENTS_TOKEN only with a port and a long enough token', () => {
    expect(parseRunConfig({ poll: '1s' }, { ...env(), EVENTS_TOKEN: TOKEN })).toMatchObject({
      status: 'invalid',
      message: 'EVENTS_TOKEN is set but there is no --port to serve POST /events on',
    });
    expect(parseRunConfig({ port: '0' }, { ...env(), EVENTS_TOKEN: 'short' })).toMatchObject({
      status: 'invalid',
    });
    expect(parseRunConfig({ port: '0' }, { ...env(), EVENTS_TOKEN: TOKEN })).toMatchObject({
      status: 'ok',
      config: { eventsToken: TOKEN },
    });
  });

  it('should start a flow from POST /events once, and never log the token', async () => {
    const parsed = parseRunConfig(
      { port: '0', host: '127.0.0.1', memory: true },
      { ...env(), EVENTS_TOKEN: TOKEN },
    );
    if (parsed.status !== 'ok') throw new Error(parsed.message);
    let logs = '';
    const stream = new PassThrough();
    stream.on('data', (c: Buffer) => (logs += c.toString()));
    const logger = createLogger({ level: 'debug', format: 'json', stream, secrets: [TOKEN] });
    const worker = await startWorker(bot, parsed.config, { stdout: new PassThrough(), logger });
    try {
      const toGrace = (): number =>
        sandbox.control.sent().filter((s) => s.to === '+15551230002').length;
      // Grace writes; the callback brings it in and the bot answers (welcome text and menu).
      sandbox.control.setCallback({ url: `${worker.url ?? ''}/callbacks`, secret: SECRET });
      sandbox.control.injectInbound({ type: 'text', from: '+15551230002', text: 'hello' });
      expect(await waitUntil(() => toGrace() >= 2, 15_000)).toBe(true);
      const body = JSON.stringify({
        id: 'start-grace-1',
        contact: '+15551230002',
        start: { flow: 'appointment-booking' },
      });
      const post = (): Promise<Response> =>
        fetch(`${worker.url ?? ''}/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body,
        });
      expect((await post()).status).toBe(202);
      expect((await post()).status).toBe(200);
      // The event restarts the flow: its welcome text and menu again, once.
      expect(await waitUntil(() => toGrace() >= 4, 15_000)).toBe(true);
      await worker.bot.idle();
      expect(toGrace()).toBe(4);
      expect(logs).not.toContain(TOKEN);
    } finally {
      sandbox.control.setCallback(undefined);
      await worker.stop();
    }
  });
});
