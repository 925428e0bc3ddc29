import { afterEach, describe, expect, it } from 'vitest';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { ADA, GRACE, HOUR, START, demoFlow, startHarness, type Harness } from './harness.js';

const closedWindowTemplate = {
  onClosed: 'template' as const,
  template: { name: 'hello_world', language: 'en' },
};

/** Orders: `shipped` says something where the flow is; `cancelled` moves it. */
const ordersFlow = compileFlow(
  defineFlow({
    id: 'orders',
    version: 1,
    start: 'welcome',
    on: {
      shipped: {
        vars: ['trackingUrl'],
        say: { text: 'Your order has shipped: {{trackingUrl}}', window: closedWindowTemplate },
      },
      cancelled: { goto: 'cancelled' },
    },
    states: {
      welcome: {
        menu: {
          body: 'How can I help?',
          options: [{ id: 'stop', title: 'Cancel my order', goto: 'cancelled' }],
        },
      },
      cancelled: { say: 'Your order was cancelled.', final: true },
    },
  }),
);

/** Appointments: a reminder 24 h before `appointmentAt`, cancelled when the flow moves on. */
const appointmentFlow = compileFlow(
  defineFlow({
    id: 'appointment',
    version: 1,
    start: 'booked',
    vars: { appointmentAt: '' },
    states: {
      booked: {
        say: 'You are booked for {{appointmentAt}}.',
        menu: {
          body: 'Anything else?',
          options: [{ id: 'cancel', title: 'Cancel it', goto: 'cancelled' }],
        },
        remind: {
          at: '{{appointmentAt}}',
          before: '24h',
          say: { text: 'Reminder: tomorrow at {{appointmentAt}}.', window: closedWindowTemplate },
        },
      },
      cancelled: { say: 'Cancelled.', final: true },
    },
  }),
);

describe('engine: external events (bot.notify, bot.start)', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('should say the flow message once for an event sent twice with one id, inside the window', async () => {
    h = await startHarness({ flows: [ordersFlow] });
    await h.say(ADA, 'hi');
    await h.bot.idle();
    const data = { trackingUrl: 'https://t.example/1' };
    const first = await h.bot.notify(ADA, 'shipped', data, { id: 'ship-1' });
    const again = await h.bot.notify(ADA, 'shipped', data, { id: 'ship-1' });
    await h.bot.idle();
    expect(first.status).toBe('accepted');
    expect(again).toMatchObject({ status: 'duplicate', conversationId: first.conversationId });
    expect(h.sentTo(ADA)).toEqual([
      'button:How can I help?',
      'text:Your order has shipped: https://t.example/1',
    ]);
    expect((await h.bot.inspect(first.conversationId))?.vars).toMatchObject(data);
  });

  it('should send the template instead when the window is closed', async () => {
    h = await startHarness({ flows: [ordersFlow] });
    await h.say(ADA, 'hi');
    await h.bot.idle();
    h.clock.advance(25 * HOUR);
    await h.bot.notify(ADA, 'shipped', { trackingUrl: 'https://t.example/2' }, { id: 'ship-2' });
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('template:hello_world');
  });

  it('should move the flow with a goto event in any state, and ignore unknown events', async () => {
    h = await startHarness({ flows: [ordersFlow] });
    await h.say(ADA, 'hi');
    await h.bot.idle();
    await h.bot.notify(ADA, 'refunded', {}, { id: 'r-1' });
    await h.bot.notify(ADA, 'cancelled', {}, { id: 'c-1' });
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['button:How can I help?', 'text:Your order was cancelled.']);
  });

  it('should reach a contact who never wrote with the template (no window)', async () => {
    h = await startHarness({ flows: [ordersFlow] });
    const result = await h.bot.notify(
      GRACE,
      'shipped',
      { trackingUrl: 'https://t.example/3' },
      { id: 's-3' },
    );
    await h.bot.idle();
    expect(result.conversationId).toBe(`contact:${GRACE}`);
    expect(h.sentTo(GRACE)).toEqual(['template:hello_world']);
  });

  it('should find the conversation of a contact through the API when the engine never saw it', async () => {
    h = await startHarness({ flows: [ordersFlow] });
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hello' });
    const conversation = h.sandbox.control.conversations().find((c) => c.phoneNumber === ADA);
    const result = await h.bot.notify(ADA, 'shipped', { trackingUrl: 'x' }, { id: 's-4' });
    expect(result.conversationId).toBe(conversation?.id);
  });

  it('should start a flow for a contact with variables, once per id', async () => {
    h = await startHarness({ flows: [demoFlow, appointmentFlow] });
    const at = new Date(START + 48 * HOUR).toISOString();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    const started = await h.bot.start(ADA, 'appointment', { appointmentAt: at }, { id: 'b-1' });
    const again = await h.bot.start(ADA, 'appointment', { appointmentAt: at }, { id: 'b-1' });
    await h.bot.idle();
    expect(again.status).toBe('duplicate');
    const view = await h.bot.inspect(started.conversationId);
    expect(view).toMatchObject({
      flowId: 'appointment',
      state: 'booked',
      vars: { appointmentAt: at },
    });
    expect(h.sentTo(ADA).filter((m) => m.startsWith('text:You are booked'))).toHaveLength(1);
    await expect(h.bot.start(ADA, 'nope', {})).rejects.toThrow(/unknown flow "nope"/);
  });
});

describe('flows: remind (durable reminders)', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('should remind 24 h before the time, through the template once the window closed', async () => {
    h = await startHarness({ flows: [demoFlow, appointmentFlow] });
    const at = new Date(START + 72 * HOUR).toISOString();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    await h.bot.start(ADA, 'appointment', { appointmentAt: at }, { id: 'b-2' });
    await h.bot.idle();
    h.clock.advance(47 * HOUR);
    expect(await h.bot.runDueTimers()).toBe(0);
    h.clock.advance(1 * HOUR);
    expect(await h.bot.runDueTimers()).toBe(1);
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('template:hello_world');
    h.clock.advance(48 * HOUR);
    expect(await h.bot.runDueTimers()).toBe(0);
  });

  it('should say the reminder as text inside the window, and survive a restart', async () => {
    h = await startHarness({ flows: [demoFlow, appointmentFlow] });
    const at = new Date(START + 30 * HOUR).toISOString();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    await h.bot.start(ADA, 'appointment', { appointmentAt: at }, { id: 'b-3' });
    await h.bot.idle();
    await h.restart({ flows: [demoFlow, appointmentFlow] });
    h.clock.advance(6 * HOUR);
    await h.say(ADA, 'still there');
    await h.bot.idle();
    expect(await h.bot.runDueTimers()).toBe(1);
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe(`text:Reminder: tomorrow at ${at}.`);
  });

  it('should cancel the reminder when the flow moves on', async () => {
    h = await startHarness({ flows: [demoFlow, appointmentFlow] });
    const at = new Date(START + 72 * HOUR).toISOString();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    await h.bot.start(ADA, 'appointment', { appointmentAt: at }, { id: 'b-4' });
    await h.bot.idle();
    await h.say(ADA, 'Cancel it');
    await h.bot.idle();
    expect(h.sentTo(ADA).at(-1)).toBe('text:Cancelled.');
    h.clock.advance(72 * HOUR);
    expect(await h.bot.runDueTimers()).toBe(0);
    expect(await h.store.nextTimerDue()).toBeUndefined();
  });

  it('should record invalid_reminder_time when the variable is not a time', async () => {
    h = await startHarness({ flows: [demoFlow, appointmentFlow] });
    await h.say(ADA, 'hi');
    await h.bot.idle();
    await h.bot.start(ADA, 'appointment', { appointmentAt: 'next tuesday' }, { id: 'b-5' });
    await h.bot.idle();
    expect(await h.store.nextTimerDue()).toBeUndefined();
  });
});
