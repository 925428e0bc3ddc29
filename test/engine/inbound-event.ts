import type { IngestEvent } from '../../src/engine/types.js';

/** A "hi" from `phone` in conversation `conversationId`, as a callback brings it. */
export const inboundHi = (
  conversationId: string,
  id: string,
  phone: string,
  contactId = `ct-${conversationId}`,
): IngestEvent => ({
  kind: 'inbound',
  contact: { phone, id: contactId, name: 'Ada' },
  message: {
    id,
    conversationId,
    type: 'text',
    text: 'hi',
    occurredAt: new Date().toISOString(),
  },
});
