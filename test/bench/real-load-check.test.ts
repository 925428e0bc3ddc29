import { describe, expect, it } from 'vitest';
import { checkReplies, type Injected, type SentItem } from '../../bench/real-load-check.js';

const GREETING = /^Hi/;
const GOODBYE = /^Bye for now/;
const at = Date.parse('2026-11-28T08:00:00Z');
const inbound = (phone: string, ms: number): Injected => ({ phone, at: at + ms, inWindow: true });
const send = (to: string, text: string, ms: number): SentItem => ({
  to,
  type: 'text',
  text,
  acceptedAt: new Date(at + ms).toISOString(),
});

describe('the real-load reply check', () => {
  const injected = [inbound('+1', 0), inbound('+2', 10)];
  const replies = [
    send('+1', 'Hi!', 20),
    send('+1', 'How can I help?', 30),
    send('+2', 'Hi!', 40),
    send('+2', 'How can I help?', 50),
  ];

  it('should count a flow timer send as an extra unless it is named as one', () => {
    const sent = [...replies, send('+1', 'Bye for now', 1_800_000)];
    expect(checkReplies(injected, sent, 2, GREETING)).toMatchObject({ extra: 1, wrongCount: 1 });
    expect(checkReplies(injected, sent, 2, GREETING, { timerSend: GOODBYE })).toMatchObject({
      extra: 0,
      missing: 0,
      wrongCount: 0,
      timerSends: 1,
    });
  });

  it('should still see a doubled reply and a missing one with timer sends left out', () => {
    const sent = [...replies.slice(0, 3), send('+1', 'How can I help?', 60)];
    expect(checkReplies(injected, sent, 2, GREETING, { timerSend: GOODBYE })).toMatchObject({
      extra: 1,
      missing: 1,
      wrongCount: 2,
      timerSends: 0,
    });
  });
});
