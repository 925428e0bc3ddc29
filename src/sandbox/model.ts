import type { MediaAvailability, MessageType, OutboundStatus } from '../api/resources.js';
import type { ContactState } from './config.js';

/** A contact known to the sandbox (workspace-wide, keyed by phone number). */
export interface ContactRecord {
  readonly id: string;
  readonly phoneNumber: string;
  name: string;
  state: ContactState;
  reads: boolean;
  failureCode: string | undefined;
}

/** One conversation between a business number and a contact. */
export interface ConversationRecord {
  readonly id: string;
  /** Creation order, a tie-breaker for equal timestamps. */
  readonly seq: number;
  readonly numberId: string;
  readonly contactId: string;
  readonly phoneNumber: string;
  humanOwned: boolean;
  /** Epoch ms of the contact's last inbound message (opens the 24-hour window). */
  lastInboundAt: number | undefined;
  lastMessageAt: number;
  lastMessageId: string | undefined;
}

/** Planned status changes of an accepted outbound message (sandbox-clock epoch ms). */
export interface DeliveryPlan {
  sentAt?: number;
  deliveredAt?: number;
  readAt?: number;
  failAt?: number;
  failureCode?: string;
}

/** A message, inbound or outbound. `content` holds the type-named content fields. */
export interface MessageRecord {
  readonly id: string;
  readonly seq: number;
  readonly numberId: string;
  readonly conversationId: string;
  readonly contactId: string;
  readonly direction: 'inbound' | 'outbound';
  status: 'received' | OutboundStatus;
  failureCode: string | undefined;
  readonly type: MessageType;
  readonly occurredAt: number;
  readonly content: Record<string, unknown>;
  /** Inbound media id, if the message carries an attachment. */
  readonly mediaId: string | undefined;
  plan: DeliveryPlan;
}

/** An inbound attachment and its availability. */
export interface MediaRecord {
  readonly id: string;
  readonly numberId: string;
  readonly messageId: string;
  availability: MediaAvailability;
  /** When pending: the time it becomes `final`. */
  readyAt: number | undefined;
  final: MediaAvailability;
  readonly mimeType: string;
  readonly filename: string;
  readonly bytes: Buffer;
}

/** A send accepted by POST /v1/messages, as listed by the control API. */
export interface SentRecord {
  readonly messageId: string;
  readonly conversationId: string;
  readonly numberId: string;
  /** The key's position in the configuration (never the key itself). */
  readonly keyIndex: number;
  readonly requestId: string;
  readonly acceptedAt: string;
  readonly to: string;
  readonly type: string;
  /** The validated request body as submitted. */
  readonly request: Record<string, unknown>;
}

/** A state change the callback dispatcher turns into a signed callback. */
export type SandboxEvent =
  | { readonly type: 'message.received'; readonly message: MessageRecord }
  | { readonly type: 'message.status'; readonly message: MessageRecord }
  | { readonly type: 'conversation.ownership'; readonly conversation: ConversationRecord };
