import { afterEach, describe, expect, it } from 'vitest';
import { MessagingClient } from '../../src/api/client.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { echoFlow } from '../engine/echo-machine.js';
import { HOUR, startHarness, type Harness } from '../engine/harness.js';

const phone = (i: number): string => `+1555900${String(i).padStart(4, '0')}`;

describe('polling: history is never answered', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  /** Messages written before the bot's first start: half answered by "an earlier deployment". */
  async function history(contacts: number): Promise<void> {
    const client = new MessagingClient({ baseUrl: h.server.url, apiKey: h.apiKey, clock: h.clock });
    for (let i = 0; i < contacts; i++) {
      h.sandbox.control.injectInbound({ from: phone(i), type: 'text', text: `old ${i}` });
      if (i % 2 === 0) {
        const sent = await client.send({
          messaging_product: 'whatsapp',
          to: phone(i),
          type: 'text',
          text: { body: 'answered earlier' },
        });
        expect(sent.status).toBe('accepted');
      }
    }
  }

  /** The bot starts for the first time now: a store that has never seen this number. */
  async function firstStart(backfillMs?: number): Promise<void> {
    await h.restart({
      flows: [echoFlow],
      handlers: {},
      store: new MemoryStore({ clock: h.clock }),
      ...(backfillMs === undefined ? {} : { backfillMs }),
    });
  }

  const botSends = (): number =>
    h.sandbox.control.sent().filter((s) => JSON.stringify(s.request).includes('echo')).length;

  it('should send nothing to 25 contacts whose messages predate the first start', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} });
    await h.bot.stop();
    await history(25);
    h.clock.advance(HOUR);
    await firstStart();
    expect(await h.bot.pollOnce()).toBe(0);
    await h.bot.idle();
    expect(botSends()).toBe(0);
    // A new message after the start is answered, once.
    h.sandbox.control.injectInbound({ from: phone(3), type: 'text', text: 'new' });
    h.clock.advance(1000);
    expect(await h.bot.pollOnce()).toBe(1);
    await h.bot.idle();
    expect(h.sentTo(phone(3)).filter((s) => s.startsWith('text:echo'))).toEqual(['text:echo: new']);
    expect(await h.bot.pollOnce()).toBe(0);
  });

  it('should answer with --backfill only the unanswered messages younger than it', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} });
    await h.bot.stop();
    await history(4); // contacts 0 and 2 answered, 1 and 3 not
    h.clock.advance(10 * 60_000);
    await firstStart(HOUR);
    expect(await h.bot.pollOnce()).toBe(2);
    await h.bot.idle();
    expect(h.sentTo(phone(1))).toEqual(['text:echo: old 1']);
    expect(h.sentTo(phone(3))).toEqual(['text:echo: old 3']);
    expect(h.sentTo(phone(0))).toEqual(['text:answered earlier']);
  });

  it('should walk every page of conversations that changed since the last pass', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {}, polling: { pageSize: 5 } });
    await h.bot.stopPolling(); // passes are driven by the test
    await h.bot.pollOnce();
    for (let i = 0; i < 15; i++) {
      h.sandbox.control.injectInbound({ from: phone(i), type: 'text', text: `hi ${i}` });
      h.clock.advance(10);
    }
    expect(await h.bot.pollOnce()).toBe(15);
    await h.bot.idle();
    expect(botSends()).toBe(15);
    expect(await h.bot.pollOnce()).toBe(0);
  });
});
