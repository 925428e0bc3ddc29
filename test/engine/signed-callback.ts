import { signCallback, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../src/api/callbacks.js';
import type { Message } from '../../src/api/resources.js';
import type { RawCallbackRequest } from '../../src/engine/types.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/**
 * The API's `message.received` callback of a sandbox message, signed with `secret` at
 * `nowMs` (the API's time): what the sandbox would deliver, to post by hand.
 * @example
 * await bot.handleCallback(receivedCallback(sandbox, message, SECRET, Date.now()));
 */
export function receivedCallback(
  sandbox: Sandbox,
  message: Message,
  secret: string,
  nowMs: number,
): RawCallbackRequest & { body: Buffer; headers: Record<string, string> } {
  const conversation = sandbox.control.conversations().find((c) => c.id === message.conversationId);
  if (conversation === undefined) throw new Error(`no conversation ${message.conversationId}`);
  const body = JSON.stringify({
    id: `evt_${message.id}`,
    type: 'message.received',
    occurredAt: message.occurredAt,
    data: {
      message,
      conversation: {
        id: conversation.id,
        contactId: conversation.contactId,
        phoneNumber: conversation.phoneNumber,
        contactName: conversation.contactName,
        lastMessageAt: conversation.lastMessageAt,
        humanOwned: conversation.humanOwned,
      },
    },
  });
  const ts = Math.floor(nowMs / 1000);
  return {
    body: Buffer.from(body),
    headers: {
      'content-type': 'application/json',
      [TIMESTAMP_HEADER]: String(ts),
      [SIGNATURE_HEADER]: signCallback(secret, ts, body),
    },
  };
}
