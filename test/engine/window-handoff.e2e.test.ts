import { afterEach, describe, expect, it } from 'vitest';
import { echoFlow } from './echo-machine.js';
import { ADA, HOUR, startHarness, type Harness } from './harness.js';

describe('engine: 24-hour window and handoff against the sandbox', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  function conversationId(): string {
    const id = h.sandbox.control.conversations().find((c) => c.phoneNumber === ADA)?.id;
    if (id === undefined) throw new Error('no conversation');
    return id;
  }

  it('should send the template fallback once the window has closed', async () => {
    h = await startHarness();
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.say(ADA, 'remind');
    await h.bot.idle();
    expect(h.sentTo(ADA).slice(2)).toEqual(['text:I will remind you tomorrow.', 'button:Or pick']);
    h.clock.advance(25 * HOUR);
    expect(await h.bot.runDueTimers()).toBe(1);
    await h.bot.idle();
    expect(h.sentTo(ADA).slice(4)).toEqual(['template:hello_world']);
    expect(h.sentTo(ADA)).not.toContain('text:Reminder: your order ships today.');
  });

  it('should never send a non-template outside the window, and send it once the contact writes', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} });
    await h.say(ADA, 'timer nudge');
    await h.bot.idle();
    h.clock.advance(25 * HOUR);
    await h.bot.runDueTimers();
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual([]);
    const view = await h.bot.inspect(conversationId());
    expect(view?.heldSends).toBe(1);
    await h.say(ADA, 'back');
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:fired: nudge', 'text:echo: back']);
  });

  it('should stay silent while a person owns the conversation and resume on release', async () => {
    h = await startHarness();
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.say(ADA, 'human');
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('text:Asking a teammate.');
    const id = conversationId();
    h.sandbox.control.takeOver(id);
    await h.bot.pollOnce();
    await h.bot.idle();
    expect((await h.bot.inspect(id))?.humanOwned).toBe(true);
    const before = h.sandbox.control.sent().length;
    await h.say(ADA, 'order');
    await h.say(ADA, 'menu');
    await h.bot.idle();
    expect(h.sandbox.control.sent().length).toBe(before);
    h.sandbox.control.release(id);
    await h.bot.pollOnce();
    await h.bot.idle();
    expect(h.sentTo(ADA).slice(before)).toEqual(['text:I am back.']);
  });

  it('should pause on a 409 conversation_owned_by_human without retrying around it', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} });
    await h.say(ADA, 'one');
    await h.bot.idle();
    const id = conversationId();
    h.sandbox.control.takeOver(id); // the bot has not heard of it yet
    await h.say(ADA, 'two');
    await h.say(ADA, 'three');
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:echo: one']);
    expect((await h.bot.inspect(id))?.humanOwned).toBe(true);
    h.sandbox.control.release(id);
    await h.bot.pollOnce();
    await h.bot.idle();
    await h.say(ADA, 'four');
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:echo: one', 'text:echo: four']);
  });
});
