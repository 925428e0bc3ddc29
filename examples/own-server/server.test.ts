import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from 'switchboard';
import { startOwnServer, type OwnServer } from './server.js';

const ADA = '+15551230001';

describe('examples/own-server', () => {
  let sandbox: Sandbox;
  let api: { url: string; close(): Promise<void> };
  let own: OwnServer;

  beforeAll(async () => {
    sandbox = createSandbox();
    api = await sandbox.listen();
    own = await startOwnServer({
      baseUrl: api.url,
      apiKey: sandbox.config.keys[0]!.key,
      callbackSecret: 'whsec_own_server_example',
    });
    sandbox.control.setCallback({
      url: `${own.url}/callbacks`,
      secret: 'whsec_own_server_example',
    });
  });

  afterAll(async () => {
    await own.close();
    await api.close();
    await sandbox.close();
  });

  it('should answer a customer through callbacks on its own express app', async () => {
    sandbox.control.injectInbound({ from: ADA, type: 'text', text: 'hi' });
    await sandbox.control.callbacksIdle();
    await own.bot.idle();
    const sent = sandbox.control.sent().filter((s) => s.to === ADA);
    expect(sent.map((s) => s.type)).toEqual(['text', 'interactive']);
    const orders = await fetch(`${own.url}/orders/42`);
    expect(await orders.json()).toEqual({ id: '42' });
  });
});
