import type { Conversation, Message } from '../api/resources.js';
import type { ConversationRecord, MessageRecord } from './model.js';
import type { SandboxState } from './state.js';

/** The API message object (spec 2.2) of a stored message. */
export function toMessage(record: MessageRecord, state: SandboxState): Message {
  const message: Message = {
    id: record.id,
    conversationId: record.conversationId,
    contactId: record.contactId,
    direction: record.direction,
    status: record.status,
    type: record.type,
    occurredAt: new Date(record.occurredAt).toISOString(),
    ...record.content,
  };
  if (record.failureCode !== undefined) message.failureCode = record.failureCode;
  if (record.mediaId !== undefined) {
    const media = state.media.get(record.mediaId);
    if (media !== undefined) {
      // id and downloadPath appear only when ready (spec 2.4).
      const ready = media.availability === 'ready';
      message.media = {
        availability: media.availability,
        mimeType: media.mimeType,
        filename: media.filename,
        ...(ready ? { id: media.id, downloadPath: `/v1/media/${media.id}` } : {}),
      };
      if (ready) message.downloadPath = `/v1/media/${media.id}`;
    }
  }
  return message;
}

/** The conversation list item (spec 2.1) of a stored conversation. */
export function toConversation(record: ConversationRecord, state: SandboxState): Conversation {
  const contact = state.contact(record.phoneNumber);
  const last =
    record.lastMessageId === undefined ? undefined : state.messages.get(record.lastMessageId);
  return {
    id: record.id,
    contactId: record.contactId,
    phoneNumber: record.phoneNumber,
    contactName: contact.name,
    lastMessageAt: new Date(record.lastMessageAt).toISOString(),
    humanOwned: record.humanOwned,
    lastMessage: last === undefined ? null : toMessage(last, state),
  };
}
