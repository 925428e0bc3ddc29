import { fingerprintContent } from '../api/fingerprint.js';
import type { Message } from '../api/resources.js';
import type { SendRecord } from '../store/store.js';
import type { EngineDeps } from './engine-deps.js';

/** How far before `startedAt` a matching message may be stamped (clock skew between hosts). */
const SKEW_MS = 60_000;
/** History pages read per attempt. */
const MAX_PAGES = 3;

/** The result of one reconciliation attempt. */
export type ReconcileResult =
  | { readonly status: 'found'; readonly messageId: string }
  | { readonly status: 'not_found' }
  | { readonly status: 'error'; readonly error: unknown };

/**
 * Looks for the message of an unknown send in the conversation history (spec 4.5.6):
 * an outbound message of the same type and content fingerprint, stamped at or after
 * the send started, and not already matched to another send record. Never sends.
 */
export async function reconcileSend(
  deps: EngineDeps,
  record: SendRecord,
): Promise<ReconcileResult> {
  const fingerprint = recordFingerprint(record);
  // Nothing to recognise it by (no request kept, no stored fingerprint): never matched.
  if (fingerprint === undefined) return { status: 'not_found' };
  try {
    let before: Parameters<typeof deps.client.listMessages>[1] = { limit: 50 };
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await deps.client.listMessages(record.conversationId, before);
      for (const message of result.items) {
        if (Date.parse(message.occurredAt) < record.startedAt - SKEW_MS)
          return { status: 'not_found' };
        if (!matches(message, record, fingerprint)) continue;
        const owner = await deps.store.findSendByMessageId(message.id);
        if (owner !== undefined && owner.id !== record.id) continue;
        return { status: 'found', messageId: message.id };
      }
      if (result.nextCursor === null) break;
      before = { limit: 50, before: result.nextCursor };
    }
    return { status: 'not_found' };
  } catch (error) {
    return { status: 'error', error };
  }
}

function matches(message: Message, record: SendRecord, fingerprint: string): boolean {
  if (message.direction !== 'outbound' || message.type !== record.contentType) return false;
  const content: unknown = Reflect.get(message, message.type);
  return fingerprintContent({ type: message.type, [message.type]: content }) === fingerprint;
}

/**
 * The fingerprint of a record's content: derived from the request it keeps while its
 * outcome is open, or the one stored by earlier versions; undefined when neither is there.
 */
export function recordFingerprint(record: SendRecord): string | undefined {
  if (record.fingerprint !== undefined) return record.fingerprint;
  const request: unknown = record.request;
  if (typeof request !== 'object' || request === null) return undefined;
  const type: unknown = Reflect.get(request, 'type');
  if (typeof type !== 'string') return undefined;
  const content: unknown = Reflect.get(request, type);
  return fingerprintContent({ type, [type]: content });
}
