/**
 * One normaliser for every source: API messages and conversations (polling), callback
 * events, and direct `handle()` calls all become {@link IngestEvent}s and then inbox
 * items whose ids are the dedup keys (`msg:<messageId>` for inbound messages).
 */
import { z } from 'zod';
import type { CallbackEvent } from '../api/callbacks.js';
import { InteractiveReply, type Conversation, type Message } from '../api/resources.js';
import type { ContactInfo, InboundMessage } from '../flows/contract.js';
import type { InboxItem } from '../store/store.js';
import type { IngestEvent } from '../engine/types.js';

const Location = z.looseObject({
  latitude: z.number(),
  longitude: z.number(),
  name: z.string().optional(),
  address: z.string().optional(),
});

const ContactCards = z.array(
  z.looseObject({
    name: z.string().optional(),
    phones: z.array(z.string()).optional(),
    emails: z.array(z.string()).optional(),
  }),
);

/** The contact of a conversation, as the flow sees it. */
export function contactOf(
  conversation: Pick<Conversation, 'phoneNumber' | 'contactId' | 'contactName'>,
): ContactInfo {
  return {
    phone: conversation.phoneNumber,
    id: conversation.contactId,
    name: conversation.contactName,
  };
}

/** An API message (inbound) as the flow contract's `InboundMessage`. */
export function toInboundMessage(message: Message): InboundMessage {
  const out: { -readonly [K in keyof InboundMessage]: InboundMessage[K] } = {
    id: message.id,
    conversationId: message.conversationId,
    type: message.type,
    occurredAt: message.occurredAt,
  };
  if (message.text?.body !== undefined) out.text = message.text.body;
  // Absent parts are skipped, not parsed: a failed safeParse builds an error (costly).
  const reply =
    message.interactive === undefined ? undefined : InteractiveReply.safeParse(message.interactive);
  if (reply?.success === true) {
    out.optionId = reply.data.optionId;
    if (reply.data.label !== undefined) out.label = reply.data.label;
  }
  if (message.media !== undefined) {
    const { availability, id, downloadPath, mimeType } = message.media;
    const content = message[message.type as 'image'];
    const caption = content?.['caption'];
    out.media = {
      availability,
      ...(id === undefined ? {} : { id }),
      ...(downloadPath === undefined ? {} : { downloadPath }),
      ...(typeof mimeType === 'string' ? { mimeType } : {}),
      ...(typeof caption === 'string' ? { caption } : {}),
    };
  }
  const location =
    message.location === undefined ? undefined : Location.safeParse(message.location);
  if (location?.success === true) {
    const { latitude, longitude, name, address } = location.data;
    out.location = {
      latitude,
      longitude,
      ...(name === undefined ? {} : { name }),
      ...(address === undefined ? {} : { address }),
    };
  }
  const cards =
    message.contacts === undefined ? undefined : ContactCards.safeParse(message.contacts);
  if (cards?.success === true) {
    out.contacts = cards.data.map((c) => ({
      ...(c.name === undefined ? {} : { name: c.name }),
      ...(c.phones === undefined ? {} : { phones: c.phones }),
      ...(c.emails === undefined ? {} : { emails: c.emails }),
    }));
  }
  return out;
}

/** An inbound API message of a conversation; undefined for outbound messages. */
export function fromApiMessage(
  message: Message,
  conversation: Pick<Conversation, 'phoneNumber' | 'contactId' | 'contactName' | 'humanOwned'>,
): IngestEvent | undefined {
  if (message.direction !== 'inbound') return undefined;
  return {
    kind: 'inbound',
    message: toInboundMessage(message),
    contact: contactOf(conversation),
    humanOwned: conversation.humanOwned,
  };
}

/** A callback event as an ingest event (undefined for kinds the engine does not use). */
export function fromCallbackEvent(event: CallbackEvent): IngestEvent | undefined {
  switch (event.type) {
    case 'message.received':
      return fromApiMessage(event.data.message, event.data.conversation);
    case 'message.status':
    case 'message.failed': {
      const { conversationId, messageId, status, failureCode } = event.data;
      return {
        kind: 'status',
        conversationId,
        messageId,
        status,
        occurredAt: event.occurredAt,
        ...(failureCode === undefined ? {} : { failureCode }),
      };
    }
    case 'conversation.ownership':
      return {
        kind: 'ownership',
        conversationId: event.data.conversationId,
        humanOwned: event.data.humanOwned,
        occurredAt: event.occurredAt,
      };
  }
}

/**
 * True for an event the engine would take and do nothing with: a status of an outbound
 * message other than `failed` (sent, delivered, read: only a failure reaches the flow, see
 * `followStatus`). Such an event is acknowledged without an inbox write, a lease or a
 * document read; the poller never emits one.
 */
export function changesNothing(event: IngestEvent): boolean {
  return event.kind === 'status' && event.status !== 'failed';
}

/** The conversation an ingest event belongs to. */
export function conversationOf(event: IngestEvent): string {
  return event.kind === 'inbound' ? event.message.conversationId : event.conversationId;
}

/** The inbox item of an ingest event; its id is the dedup key. */
export function toInboxItem(event: IngestEvent): InboxItem {
  switch (event.kind) {
    case 'inbound':
      return {
        id: `msg:${event.message.id}`,
        sortKey: Date.parse(event.message.occurredAt),
        payload: {
          kind: 'inbound',
          message: event.message,
          contact: event.contact,
          ...(event.humanOwned === undefined ? {} : { humanOwned: event.humanOwned }),
        },
      };
    case 'status':
      return {
        id: `status:${event.messageId}:${event.status}`,
        sortKey: Date.parse(event.occurredAt),
        payload: {
          kind: 'status',
          messageId: event.messageId,
          status: event.status,
          ...(event.failureCode === undefined ? {} : { failureCode: event.failureCode }),
        },
      };
    case 'ownership':
      return {
        id: `own:${event.conversationId}:${event.humanOwned}:${event.occurredAt}`,
        sortKey: Date.parse(event.occurredAt),
        payload: {
          kind: 'ownership',
          humanOwned: event.humanOwned,
          ...(event.contact === undefined ? {} : { contact: event.contact }),
        },
      };
  }
}
