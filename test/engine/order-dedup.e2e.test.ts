import express from 'express';
import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { echoFlow } from './echo-machine.js';
import { ADA, ALAN, GRACE, startHarness, until, type Harness } from './harness.js';

describe('engine: ordering and dedup against the sandbox', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {}, concurrency: 4 });
  });
  afterEach(async () => {
    await h.close();
  });

  it('should handle 50 inbound messages of one conversation in order while others run alongside', async () => {
    // The send budget is 20/s (spec part 8): move the shared clock while the bot works.
    const pump = setInterval(() => h.clock.advance(200), 5);
    try {
      for (let i = 1; i <= 50; i++) {
        await h.say(ADA, `a${i}`);
        if (i % 5 === 0) {
          await h.say(GRACE, `g${i / 5}`);
          await h.say(ALAN, `t${i / 5}`);
        }
      }
      await h.bot.idle();
    } finally {
      clearInterval(pump);
    }
    expect(h.sentTo(ADA)).toEqual(Array.from({ length: 50 }, (_, i) => `text:echo: a${i + 1}`));
    expect(h.sentTo(GRACE)).toEqual(Array.from({ length: 10 }, (_, i) => `text:echo: g${i + 1}`));
    expect(h.sentTo(ALAN)).toEqual(Array.from({ length: 10 }, (_, i) => `text:echo: t${i + 1}`));
  });

  it('should handle the same inbound delivered by callback and by polling once', async () => {
    const app = express();
    const secret = 'cb_secret_for_tests';
    await h.restart({ flows: [echoFlow], handlers: {}, callbacks: { secret } });
    app.use('/callbacks', h.bot.callbackRouter());
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      h.sandbox.control.setCallback({ url: `http://127.0.0.1:${port}/callbacks`, secret });
      const message = h.sandbox.control.injectInbound({ type: 'text', text: 'twice', from: ADA });
      await h.sandbox.control.callbacksIdle();
      await until(
        () =>
          h.sandbox.control.callbackAttempts().some((a) => a.type === 'message.received' && a.ok),
        5_000,
        'callback delivery',
      );
      await h.bot.idle();
      const polled = await h.bot.pollOnce();
      await h.bot.idle();
      expect(message.text?.body).toBe('twice');
      expect(polled).toBe(0);
      expect(h.sentTo(ADA)).toEqual(['text:echo: twice']);
    } finally {
      h.sandbox.control.setCallback(undefined);
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('should pick up inbound messages by polling, oldest first, and not again', async () => {
    h.sandbox.control.injectInbound({ type: 'text', text: 'one', from: ADA });
    h.clock.advance(10);
    h.sandbox.control.injectInbound({ type: 'text', text: 'two', from: ADA });
    h.clock.advance(10);
    h.sandbox.control.injectInbound({ type: 'text', text: 'hi', from: GRACE });
    expect(await h.bot.pollOnce()).toBe(3);
    await h.bot.idle();
    expect(await h.bot.pollOnce()).toBe(0);
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:echo: one', 'text:echo: two']);
    expect(h.sentTo(GRACE)).toEqual(['text:echo: hi']);
  });
});
