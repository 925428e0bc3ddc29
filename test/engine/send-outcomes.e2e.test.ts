import { afterEach, describe, expect, it } from 'vitest';
import { echoFlow } from './echo-machine.js';
import { ADA, startHarness, until, type Harness } from './harness.js';
import { sendRecordOf } from './send-record-of.js';

describe('engine: send outcomes against the sandbox', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  function conversationId(): string {
    return h.sandbox.control.conversations().find((c) => c.phoneNumber === ADA)?.id ?? '';
  }

  it('should not send twice when a send times out, and reconcile it from history', async () => {
    // Generous real times: on a loaded machine a 200 ms deadline can pass before the
    // request even reached the sandbox (then nothing is admitted at all).
    h = await startHarness({ flows: [echoFlow], handlers: {} }, { apiTimeoutMs: 1_000 });
    h.sandbox.control.addFault({ route: 'POST /v1/messages', delayMs: 2_500 });
    await h.say(ADA, 'slow');
    await h.bot.idle();
    const id = await sendRecordOf(h.store, conversationId(), 1);
    expect((await h.store.getSend(id))?.state).toBe('unknown');
    // The sandbox admits the message once its delay is over; nothing is replayed.
    await until(() => h.sandbox.control.sent().length === 1, 15_000, 'the delayed send');
    h.clock.advance(5_000);
    expect(await h.bot.runDueTimers()).toBe(1);
    await h.bot.idle();
    const record = await h.store.getSend(id);
    expect(record?.state).toBe('reconciled');
    expect(record?.messageId).toBe(h.sandbox.control.sent()[0]?.messageId);
    expect(h.sentTo(ADA)).toEqual(['text:echo: slow']);
  });

  it('should never send an unknown send again by default: send.unknown after the reads', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} });
    h.sandbox.control.addFault({ route: 'POST /v1/messages', drop: 'before' });
    await h.say(ADA, 'lost');
    await h.bot.idle();
    // Reads at once, 5 s and 35 s later find nothing: the flow is told, nothing is sent.
    for (const ms of [5_000, 30_000]) {
      h.clock.advance(ms);
      expect(await h.bot.runDueTimers()).toBe(1);
      await h.bot.idle();
    }
    const view = await h.bot.inspect(conversationId());
    expect(view?.vars.last).toBe('send.unknown');
    h.clock.advance(600_000);
    expect(await h.bot.runDueTimers()).toBe(0);
    await h.bot.idle();
    expect(h.sandbox.control.sent()).toEqual([]);
    const record = await h.store.getSend(await sendRecordOf(h.store, conversationId(), 1));
    expect(record).toMatchObject({ state: 'unknown' });
    expect(record).not.toHaveProperty('resends');
  });

  it('should send exactly one message when a stalled POST is admitted after every read missed it', async () => {
    // The soak case: the API stalls, the client's deadline passes, the reads (the old
    // "proof of absence") miss it, and the stale POST is admitted after all.
    h = await startHarness({ flows: [echoFlow], handlers: {} }, { apiTimeoutMs: 1_000 });
    h.sandbox.control.addFault({ route: 'POST /v1/messages', delayMs: 8_000 });
    await h.say(ADA, 'stalled');
    await h.bot.idle();
    for (const ms of [5_000, 30_000]) {
      h.clock.advance(ms);
      await h.bot.runDueTimers();
      await h.bot.idle();
    }
    expect((await h.bot.inspect(conversationId()))?.vars.last).toBe('send.unknown');
    expect(h.sandbox.control.sent()).toEqual([]);
    await until(() => h.sandbox.control.sent().length > 0, 20_000, 'the stalled send');
    h.clock.advance(600_000);
    await h.bot.runDueTimers();
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:echo: stalled']);
  });

  it('should resend at most once with sends.resendAfterAbsence, only past the proof of absence', async () => {
    h = await startHarness({
      flows: [echoFlow],
      handlers: {},
      sends: { resendAfterAbsence: true },
    });
    h.sandbox.control.addFault({ route: 'POST /v1/messages', drop: 'before' });
    await h.say(ADA, 'lost');
    await h.bot.idle();
    // Attempts at once and 5 s later find nothing, but the request could still be admitted.
    h.clock.advance(5_000);
    await h.bot.runDueTimers();
    await h.bot.idle();
    expect(h.sandbox.control.sent()).toEqual([]);
    // 35 s after it started, far past its deadline: absent, so sent once more.
    h.clock.advance(30_000);
    await h.bot.runDueTimers();
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:echo: lost']);
    const record = await h.store.getSend(await sendRecordOf(h.store, conversationId(), 1));
    expect(record).toMatchObject({ state: 'accepted', resends: 1 });
    expect(record).not.toHaveProperty('request');
  });

  it('should tell the flow send.unknown when the one resend of the opt-in is lost too', async () => {
    h = await startHarness({
      flows: [echoFlow],
      handlers: {},
      sends: { resendAfterAbsence: true },
    });
    // The POST and its resend are lost; a third POST would be admitted.
    h.sandbox.control.addFault({ route: 'POST /v1/messages', drop: 'before', count: 2 });
    await h.say(ADA, 'lost');
    await h.bot.idle();
    for (const ms of [5_000, 30_000, 5_000, 30_000, 120_000, 120_000, 600_000]) {
      h.clock.advance(ms);
      await h.bot.runDueTimers();
      await h.bot.idle();
    }
    const view = await h.bot.inspect(conversationId());
    expect(view?.vars.last).toBe('send.unknown');
    expect(h.sandbox.control.sent()).toEqual([]);
    const record = await h.store.getSend(await sendRecordOf(h.store, conversationId(), 1));
    expect(record).toMatchObject({ state: 'unknown', resends: 1 });
  });

  it('should report a rejection with its code to the flow', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} });
    h.sandbox.control.addFault({
      route: 'POST /v1/messages',
      status: 409,
      code: 'contact_opted_out',
    });
    await h.say(ADA, 'hi');
    await h.bot.idle();
    const view = await h.bot.inspect(conversationId());
    expect(view?.vars).toMatchObject({ last: 'send.failed', code: 'contact_opted_out' });
  });

  it('should bring a later message.failed callback to the flow', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} });
    await h.withCallbacks('cb_secret_failed', { flows: [echoFlow], handlers: {} });
    await h.say(ADA, 'hi');
    await h.bot.idle();
    const [sent] = h.sandbox.control.sent();
    expect(sent).toBeDefined();
    h.sandbox.control.setStatus(sent?.messageId ?? '', 'failed', 'undeliverable');
    await until(
      async () => (await h.bot.inspect(conversationId()))?.vars.code === 'undeliverable',
      5_000,
      'send.failed to reach the flow',
    );
    await h.bot.idle();
    expect((await h.bot.inspect(conversationId()))?.vars.last).toBe('send.failed');
    expect((await h.store.findSendByMessageId(sent?.messageId ?? ''))?.state).toBe('failed');
  });
});
