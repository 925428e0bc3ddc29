import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeOptionId } from '../../src/flows/index.js';
import { ADA, startHarness, type Harness } from './harness.js';

describe('engine: menus against the sandbox', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  /** The option ids of the last interactive message sent to Ada. */
  function lastOptionIds(): string[] {
    const last = h.sandbox.control
      .sent()
      .filter((s) => s.to === ADA && s.type === 'interactive')
      .at(-1);
    const buttons: unknown = Reflect.get(
      Object(Reflect.get(Object(last?.request.interactive), 'action')),
      'buttons',
    );
    return Array.isArray(buttons) ? buttons.map((b: { reply: { id: string } }) => b.reply.id) : [];
  }

  it('should greet, show the menu and route a tap by optionId', async () => {
    await h.say(ADA, 'hello');
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:Hi Ada Lovelace!', 'button:Pick one']);
    const [order] = lastOptionIds();
    expect(order).toBeDefined();
    await h.say(ADA, {
      type: 'interactive' as const,
      optionId: order ?? '',
      label: 'Order status',
    });
    await h.bot.idle();
    expect(h.sentTo(ADA).slice(2)).toEqual(['text:Your order is shipped.']);
    const view = await h.bot.inspect(h.sandbox.control.conversations()[0]?.id ?? '');
    expect(view?.ended).toBe(true);
  });

  it('should re-show the menu on a stale tap', async () => {
    await h.say(ADA, 'hello');
    await h.bot.idle();
    const stale = encodeOptionId(99, 'welcome', 'order');
    await h.say(ADA, { type: 'interactive' as const, optionId: stale, label: 'Order status' });
    await h.bot.idle();
    const after = h.sentTo(ADA).slice(2);
    expect(after.at(-1)).toBe('button:Pick one');
    expect(after).not.toContain('text:Your order is shipped.');
  });

  it('should match typed text to an option', async () => {
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.say(ADA, 'Order');
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('text:Your order is shipped.');
  });
});
