import type { AddressInfo } from 'node:net';
import express from 'express';
import { createBot, createLogger, resolveBot, type Bot } from 'switchboard';
import { bot as supportDesk } from '../support-desk/bot.js';

/** A bot mounted on an express app of your own, next to your other routes. */
export interface OwnServer {
  readonly url: string;
  readonly bot: Bot;
  close(): Promise<void>;
}

export async function startOwnServer(config: {
  baseUrl: string;
  apiKey: string;
  callbackSecret: string;
  port?: number;
}): Promise<OwnServer> {
  const resolved = await resolveBot(supportDesk);
  if (resolved.status === 'error') throw new Error(resolved.message);
  const bot = createBot({
    flows: resolved.bot.flows,
    handlers: resolved.bot.handlers,
    api: { baseUrl: config.baseUrl, apiKey: config.apiKey },
    callbacks: { secret: config.callbackSecret },
    logger: createLogger({ level: 'warn', secrets: [config.apiKey, config.callbackSecret] }),
  });
  await bot.start();

  const app = express();
  app.use('/callbacks', bot.callbackRouter()); // raw body, signature check, 200 right away
  app.get('/orders/:id', (req, res) => {
    res.json({ id: req.params.id }); // ...your own routes live beside it
  });
  const server = app.listen(config.port ?? 0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    bot,
    async close() {
      await bot.stop(); // drains in-flight work first
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
