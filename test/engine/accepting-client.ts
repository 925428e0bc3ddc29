import type { EngineClient } from '../../src/engine/types.js';
import type { SendRequest } from '../../src/messages/index.js';

/**
 * A fake API client for engine tests: accepts every send at once (`wamid_<n>`), records
 * it in `sent`, and has an empty history.
 */
export function acceptingClient(): EngineClient & { readonly sent: SendRequest[] } {
  const sent: SendRequest[] = [];
  return {
    sent,
    send(request) {
      sent.push(request);
      return Promise.resolve({ status: 'accepted', messageId: `wamid_${sent.length}` });
    },
    listConversations: () => Promise.resolve({ items: [], nextCursor: null }),
    listMessages: () => Promise.resolve({ items: [], nextCursor: null }),
    getMessage: () => Promise.reject(new Error('not in this fake')),
  };
}

/** The text bodies (or the type, for other content) of the sends, in order. */
export function sentTexts(client: { readonly sent: readonly SendRequest[] }): string[] {
  return client.sent.map((r) => (r.type === 'text' ? r.text.body : r.type));
}
