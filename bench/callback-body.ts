import { signCallback } from '../src/api/callbacks.js';

/** The secret the benchmark targets verify callbacks with. */
export const BENCH_SECRET = 'bench-callback-secret';

/**
 * A signed `message.received` callback for inbound message `n` of conversation
 * `n % conversations`: a unique message id each time, so dedup never short-cuts it.
 */
export function signedInboundCallback(
  n: number,
  conversations: number,
  nowMs = Date.now(),
  prefix = 'b',
): { body: string; headers: Record<string, string> } {
  const c = n % conversations;
  const phone = `+1555${String(1_000_000 + c).padStart(7, '0')}`;
  const occurredAt = new Date(nowMs).toISOString();
  const conversationId = `conv_${prefix}_${c}`;
  const body = JSON.stringify({
    id: `evt_${prefix}_${n}`,
    type: 'message.received',
    occurredAt,
    data: {
      message: {
        id: `msg_${prefix}_${n}`,
        conversationId,
        contactId: `ct_${prefix}_${c}`,
        direction: 'inbound',
        status: 'received',
        type: 'text',
        text: { body: `hello ${n}` },
        occurredAt,
      },
      conversation: {
        id: conversationId,
        contactId: `ct_${prefix}_${c}`,
        phoneNumber: phone,
        contactName: `Contact ${c}`,
        lastMessageAt: occurredAt,
        humanOwned: false,
      },
    },
  });
  const ts = Math.floor(nowMs / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-callback-timestamp': String(ts),
      'x-callback-signature': signCallback(BENCH_SECRET, ts, body),
    },
  };
}
