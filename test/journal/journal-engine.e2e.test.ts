import { afterEach, describe, expect, it } from 'vitest';
import { signCallback } from '../../src/api/callbacks.js';
import {
  readConversationView,
  type InspectedConversation,
} from '../../src/journal/conversation-view.js';
import { countStoreOperations } from '../../src/store/counted-store.js';
import { echoFlow } from '../engine/echo-machine.js';
import { ADA, GRACE, startHarness, type Harness } from '../engine/harness.js';
import { waitUntil } from '../wait-until.js';

describe('journal: what the engine writes', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  const conversationOf = (phone: string): string =>
    h.sandbox.control.conversations().find((c) => c.phoneNumber === phone)?.id ?? '';

  async function view(phone: string): Promise<InspectedConversation> {
    const result = await readConversationView(h.store, conversationOf(phone));
    if (result.status !== 'found') throw new Error(`no conversation of ${phone}: ${result.status}`);
    return result.view;
  }

  it('should journal the inbound message, the start, the transition and every accepted send with its message id', async () => {
    h = await startHarness();
    const inbound = await h.say(ADA, 'hello there');
    await h.bot.idle();
    const v = await view(ADA);
    const kinds = v.journal.map((e) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['inbound', 'lifecycle', 'transition']);
    expect(v.journal[0]).toMatchObject({
      kind: 'inbound',
      messageId: inbound.id,
      type: 'text',
      text: 'hello there',
    });
    expect(v.journal[2]).toMatchObject({ kind: 'transition', from: '', to: 'welcome' });
    const sent = h.sandbox.control
      .sent()
      .filter((s) => s.to === ADA)
      .map((s) => s.messageId);
    const journaled = v.journal.flatMap((e) =>
      e.kind === 'send' && e.outcome === 'accepted' ? [e.messageId] : [],
    );
    expect(sent.length).toBeGreaterThan(0);
    expect(journaled).toEqual(sent);
    // Joined with the send record at read time.
    const send = v.journal.find((e) => e.kind === 'send');
    expect(send?.record?.state).toBe('accepted');
    expect(v.summary).toMatchObject({ state: 'welcome', humanOwned: false, stuck: undefined });
  });

  it('should journal a handler call with its outcome and duration, and the variables it set', async () => {
    h = await startHarness();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    await h.say(ADA, 'order');
    await h.bot.idle();
    const v = await view(ADA);
    expect(v.journal.find((e) => e.kind === 'handler')).toMatchObject({
      handler: 'lookup',
      status: 'done',
      outcome: 'found',
    });
    expect(v.journal.some((e) => e.kind === 'vars' && e.set['status'] === 'shipped')).toBe(true);
    expect(v.journal.some((e) => e.kind === 'lifecycle' && e.change === 'ended')).toBe(true);
    expect(v.state).toBe('found');
  });

  it('should journal a timer set and fired', async () => {
    h = await startHarness();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    await h.say(ADA, 'remind');
    await h.bot.idle();
    const waiting = await view(ADA);
    const set = waiting.journal.find((e) => e.kind === 'timer');
    expect(set).toMatchObject({ action: 'set' });
    expect(waiting.timers?.map((t) => t.name)).toEqual(set?.kind === 'timer' ? [set.name] : []);
    h.clock.advance(25 * 3_600_000 + 1000);
    await h.bot.runDueTimers();
    await h.bot.idle();
    const fired = await view(ADA);
    expect(fired.journal.some((e) => e.kind === 'timer' && e.action === 'fired')).toBe(true);
    expect(fired.timers).toEqual([]);
  });

  it('should journal an unknown send and how it was reconciled', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} }, { apiTimeoutMs: 1_000 });
    h.sandbox.control.addFault({ route: 'POST /v1/messages', delayMs: 2_500 });
    await h.say(ADA, 'slow');
    await h.bot.idle();
    const before = await view(ADA);
    expect(before.journal.find((e) => e.kind === 'send')).toMatchObject({ outcome: 'unknown' });
    // The delayed POST is admitted late (after the client gave up).
    await waitUntil(() => h.sandbox.control.sent().length > 0, 15_000);
    h.clock.advance(5_000);
    await h.bot.runDueTimers();
    await h.bot.idle();
    const after = await view(ADA);
    const messageId = h.sandbox.control.sent()[0]?.messageId;
    expect(after.journal.filter((e) => e.kind === 'reconcile').at(-1)).toMatchObject({
      result: 'found',
      messageId,
    });
    expect(after.journal.find((e) => e.kind === 'send')?.record).toMatchObject({
      state: 'reconciled',
      messageId,
    });
  });

  it('should journal a handoff, the messages a person got, and the release', async () => {
    h = await startHarness();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    const id = conversationOf(ADA);
    h.sandbox.control.takeOver(id);
    await h.bot.handle({
      kind: 'ownership',
      conversationId: id,
      humanOwned: true,
      occurredAt: new Date(h.clock.now()).toISOString(),
    });
    await h.bot.idle();
    const owned = await h.say(ADA, 'are you human?');
    await h.bot.idle();
    h.sandbox.control.release(id);
    await h.bot.handle({
      kind: 'ownership',
      conversationId: id,
      humanOwned: false,
      occurredAt: new Date(h.clock.now()).toISOString(),
    });
    await h.bot.idle();
    const v = await view(ADA);
    const handoffs = v.journal
      .filter((e) => e.kind === 'handoff')
      .map((e) => e.kind === 'handoff' && e.change);
    expect(handoffs).toEqual(['taken', 'released']);
    expect(v.journal.find((e) => e.kind === 'inbound' && e.messageId === owned.id)).toMatchObject({
      ignored: 'human_owned',
    });
  });

  it('should keep texts and variable values out with the privacy switch', async () => {
    h = await startHarness({ journal: { texts: false } });
    await h.say(ADA, 'hi secret');
    await h.bot.idle();
    await h.say(ADA, 'order');
    await h.bot.idle();
    const v = await view(ADA);
    const json = JSON.stringify(v.journal);
    expect(json).not.toContain('secret');
    expect(json).not.toContain('shipped');
    expect(v.journal.some((e) => 'text' in e)).toBe(false);
    expect(v.journal.find((e) => e.kind === 'vars')).toMatchObject({ set: { status: null } });
  });

  it('should keep a no-op delivery status without a store write and store it with the next write', async () => {
    h = await startHarness();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    const messageId = h.sandbox.control.sent().find((s) => s.to === ADA)?.messageId ?? '';
    const counted = countStoreOperations(h.store);
    await h.restart({ store: counted.store });
    const id = conversationOf(ADA);
    const at = new Date(h.clock.now()).toISOString();
    await h.bot.handle({
      kind: 'status',
      conversationId: id,
      messageId,
      status: 'delivered',
      occurredAt: at,
    });
    await h.bot.handle({
      kind: 'status',
      conversationId: id,
      messageId,
      status: 'read',
      occurredAt: at,
    });
    await h.bot.idle();
    expect(counted.counts.get('putConversation')).toBeUndefined();
    expect(counted.counts.get('putConversationWith')).toBeUndefined();
    await h.say(ADA, 'remind');
    await h.bot.idle();
    const v = await view(ADA);
    expect(v.journal.find((e) => e.kind === 'send' && e.messageId === messageId)).toMatchObject({
      status: 'read',
    });
  });

  it('should keep the latest status of signed status callbacks and store it with the next write', async () => {
    h = await startHarness();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    const messageId = h.sandbox.control.sent().find((s) => s.to === ADA)?.messageId ?? '';
    const counted = countStoreOperations(h.store);
    const secret = 'journal-status-secret';
    await h.restart({ store: counted.store, callbacks: { secret } });
    const signed = (n: number, status: string) => {
      const body = JSON.stringify({
        id: `evt_${n}`,
        type: 'message.status',
        occurredAt: new Date(h.clock.now()).toISOString(),
        data: { messageId, conversationId: conversationOf(ADA), status },
      });
      const ts = Math.floor(h.clock.now() / 1000);
      return {
        body: Buffer.from(body),
        headers: {
          'x-callback-timestamp': String(ts),
          'x-callback-signature': signCallback(secret, ts, body),
        },
      };
    };
    // Out of order, as the API may deliver them: the latest status is kept, not the last.
    for (const [n, status] of ['sent', 'read', 'delivered'].entries()) {
      const answer = await h.bot.handleCallback(signed(n, status));
      expect([answer.status, answer.body]).toEqual([200, { received: 1 }]);
    }
    await h.bot.idle();
    // No write: the start-up sweep's reads only.
    expect(Object.keys(Object.fromEntries(counted.counts)).sort()).toEqual([
      'conversationsWithInbox',
      'getValue',
      'nextTimerDue',
    ]);
    await h.say(ADA, 'remind');
    await h.bot.idle();
    const v = await view(ADA);
    expect(v.journal.find((e) => e.kind === 'send' && e.messageId === messageId)).toMatchObject({
      status: 'read',
    });
  });

  it('should stay within its bound of entries and bytes', async () => {
    h = await startHarness({
      flows: [echoFlow],
      handlers: {},
      journal: { maxEntries: 12, maxBytes: 1500 },
    });
    for (let i = 0; i < 20; i++) {
      await h.say(GRACE, `message number ${i} with some words in it`);
      await h.bot.idle();
    }
    const stored = await h.store.getConversation(conversationOf(GRACE));
    const journal = (stored?.value as { journal: unknown[] }).journal;
    expect(journal.length).toBeLessThanOrEqual(12);
    expect(Buffer.byteLength(JSON.stringify(journal))).toBeLessThanOrEqual(1500);
    expect(JSON.stringify(journal.at(-1))).toContain('echo: message number 19');
  });
});
