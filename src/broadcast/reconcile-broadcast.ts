import { fingerprintContent } from '../api/fingerprint.js';
import type { Conversation, Message } from '../api/resources.js';

/** The reads reconciliation needs (the project's `MessagingClient` fits). */
export interface HistoryReader {
  conversations(options?: { pageSize?: number }): AsyncGenerator<Conversation>;
  history(conversationId: string, options?: { pageSize?: number }): AsyncGenerator<Message>;
}

/** How far before the intent a matching message may be stamped (clock skew between hosts). */
const SKEW_MS = 60_000;

/**
 * Looks for the messages of sends whose outcome is unknown (spec 4.5.6) in the
 * conversations' history: an outbound template with the same content fingerprint,
 * stamped at or after the intent (minus clock skew). Walks the conversation list newest
 * first and stops once conversations are older than every intent. Never sends.
 * Returns the message id found for each phone (null: not found).
 * @example
 * const found = await findSentMessages(client, new Map([['+15551230001', since]]), () => fingerprint);
 */
export async function findSentMessages(
  reader: HistoryReader,
  doubts: ReadonlyMap<string, number>,
  fingerprintOf: (phone: string) => string,
): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  if (doubts.size === 0) return found;
  const oldest = Math.min(...doubts.values()) - SKEW_MS;
  for await (const conversation of reader.conversations({ pageSize: 100 })) {
    if (Date.parse(conversation.lastMessageAt) < oldest) break;
    const since = doubts.get(conversation.phoneNumber);
    if (since === undefined || found.has(conversation.phoneNumber)) continue;
    found.set(
      conversation.phoneNumber,
      await findInHistory(reader, conversation.id, since, fingerprintOf(conversation.phoneNumber)),
    );
    if (found.size === doubts.size) break;
  }
  for (const phone of doubts.keys()) if (!found.has(phone)) found.set(phone, null);
  return found;
}

async function findInHistory(
  reader: HistoryReader,
  conversationId: string,
  since: number,
  fingerprint: string,
): Promise<string | null> {
  for await (const message of reader.history(conversationId, { pageSize: 100 })) {
    if (Date.parse(message.occurredAt) < since - SKEW_MS) return null;
    if (message.direction !== 'outbound' || message.type !== 'template') continue;
    const sent = fingerprintContent({ type: 'template', template: message.template });
    if (sent === fingerprint) return message.id;
  }
  return null;
}
