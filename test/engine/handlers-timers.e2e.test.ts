import { afterEach, describe, expect, it } from 'vitest';
import { ADA, HOUR, startHarness, type Harness } from './harness.js';

describe('engine: handlers and durable timers against the sandbox', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('should route a handler error to its target', async () => {
    h = await startHarness({
      handlers: {
        lookup: () => {
          throw new Error('order database is down');
        },
      },
    });
    const errors: unknown[] = [];
    h.bot.on('error', (e) => errors.push(e));
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.say(ADA, 'order');
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('text:Something went wrong.');
    expect(errors).toEqual([]);
  });

  it('should route a handler timeout to its target', async () => {
    h = await startHarness({
      handlers: {
        lookup: ({ signal }) =>
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(new Error('aborted'))),
          ),
      },
    });
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.say(ADA, 'order');
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('text:Something went wrong.');
  });

  it('should give handlers a typed context and merge the variables they set', async () => {
    const seen: string[] = [];
    h = await startHarness({
      handlers: {
        lookup: async ({ contact, conversationId, api }) => {
          const history = await api.listMessages(conversationId, { limit: 5 });
          seen.push(contact.name, String(history.items.length > 0));
          return { outcome: 'found', vars: { status: 'on its way' } };
        },
      },
    });
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.say(ADA, 'order');
    await h.bot.idle();
    expect(seen).toEqual(['Ada Lovelace', 'true']);
    expect(h.sentTo(ADA).at(-1)).toBe('text:Your order is on its way.');
  });

  it('should feed a handler result before a message that arrived while the handler ran', async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    h = await startHarness({
      handlers: {
        lookup: async () => {
          entered();
          await gate;
          return { outcome: 'found', vars: { status: 'shipped' } };
        },
      },
    });
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.say(ADA, 'order');
    await inHandler;
    await h.say(ADA, 'hello again'); // queued while the call is pending
    release();
    await h.bot.idle();
    const sent = h.sentTo(ADA);
    // The call's outcome ends the flow; the queued message then starts a new conversation.
    expect(sent.indexOf('text:Your order is shipped.')).toBeGreaterThan(0);
    expect(sent.at(-1)).toBe('button:Pick one');
    expect(sent.filter((t) => t === 'text:Hi Ada Lovelace!')).toHaveLength(2);
  });

  it('should fire a timer after the engine is stopped and started again', async () => {
    h = await startHarness();
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.say(ADA, 'remind');
    await h.bot.idle();
    await h.bot.stop();
    h.clock.advance(30 * HOUR); // late: the engine was down when it was due
    await h.restart();
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('template:hello_world');
    expect(await h.bot.runDueTimers()).toBe(0);
  });

  it('should not fire a timer the flow cancelled', async () => {
    h = await startHarness();
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.say(ADA, 'remind');
    await h.bot.idle();
    await h.say(ADA, 'menu'); // leaves the waiting state: its timer is cancelled
    await h.bot.idle();
    h.clock.advance(26 * HOUR);
    expect(await h.bot.runDueTimers()).toBe(0);
  });
});
