import { randomBytes } from 'node:crypto';
import type { ContactConfig, SandboxConfig } from './config.js';
import type {
  ContactRecord,
  ConversationRecord,
  MediaRecord,
  MessageRecord,
  SandboxEvent,
  SentRecord,
} from './model.js';

/** A fresh random identifier with a readable prefix. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}

/**
 * The sandbox's in-memory data: contacts, conversations, messages, media and the log of
 * accepted sends. Plain data and lookups; rules live in the route and admission files.
 */
export class SandboxState {
  readonly contacts = new Map<string, ContactRecord>();
  readonly conversations = new Map<string, ConversationRecord>();
  readonly messages = new Map<string, MessageRecord>();
  readonly media = new Map<string, MediaRecord>();
  readonly sentLog: SentRecord[] = [];
  readonly #listeners: ((event: SandboxEvent) => void)[] = [];
  #seq = 0;

  constructor(private readonly config: SandboxConfig) {
    this.reset();
  }

  /** Clears every conversation and message and reloads the configured contacts. */
  reset(): void {
    this.contacts.clear();
    this.conversations.clear();
    this.messages.clear();
    this.media.clear();
    this.sentLog.length = 0;
    for (const c of this.config.contacts) this.provisionContact(c);
  }

  /** Creates or updates a contact from its provisioned configuration (keeping its id). */
  provisionContact(c: ContactConfig): ContactRecord {
    const record = this.contact(c.phoneNumber);
    record.name = c.name;
    record.state = c.state;
    record.reads = c.reads;
    record.failureCode = c.failureCode;
    return record;
  }

  /** Subscribes to state changes (used by the callback dispatcher). */
  onEvent(listener: (event: SandboxEvent) => void): void {
    this.#listeners.push(listener);
  }

  emit(event: SandboxEvent): void {
    for (const l of this.#listeners) l(event);
  }

  nextSeq(): number {
    return ++this.#seq;
  }

  /** The contact with this phone number, created (active, unnamed) if unknown. */
  contact(phoneNumber: string): ContactRecord {
    let contact = this.contacts.get(phoneNumber);
    if (contact === undefined) {
      // A contact forgotten by the control API keeps the id its conversations carry.
      const known = [...this.conversations.values()].find((c) => c.phoneNumber === phoneNumber);
      contact = {
        id: known?.contactId ?? newId('ct'),
        phoneNumber,
        name: phoneNumber,
        state: 'active',
        reads: true,
        failureCode: undefined,
      };
      this.contacts.set(phoneNumber, contact);
    }
    return contact;
  }

  findConversation(numberId: string, phoneNumber: string): ConversationRecord | undefined {
    for (const c of this.conversations.values()) {
      if (c.numberId === numberId && c.phoneNumber === phoneNumber) return c;
    }
    return undefined;
  }

  /** The conversation of a number with a contact, created if needed. */
  conversation(numberId: string, phoneNumber: string, now: number): ConversationRecord {
    const existing = this.findConversation(numberId, phoneNumber);
    if (existing !== undefined) return existing;
    const contact = this.contact(phoneNumber);
    const created: ConversationRecord = {
      id: newId('conv'),
      seq: this.nextSeq(),
      numberId,
      contactId: contact.id,
      phoneNumber,
      humanOwned: false,
      lastInboundAt: undefined,
      lastMessageAt: now,
      lastMessageId: undefined,
    };
    this.conversations.set(created.id, created);
    return created;
  }

  /**
   * Stores a message; it becomes the conversation's latest unless a newer one exists (a
   * message recorded in the past slots into history without moving the conversation).
   */
  addMessage(message: MessageRecord): void {
    this.messages.set(message.id, message);
    const conversation = this.conversations.get(message.conversationId);
    if (conversation === undefined) return;
    if (
      conversation.lastMessageId === undefined ||
      message.occurredAt >= conversation.lastMessageAt
    ) {
      conversation.lastMessageAt = message.occurredAt;
      conversation.lastMessageId = message.id;
    }
    if (
      message.direction === 'inbound' &&
      (conversation.lastInboundAt === undefined || message.occurredAt > conversation.lastInboundAt)
    )
      conversation.lastInboundAt = message.occurredAt;
  }

  /** Messages of one conversation, newest first. */
  history(conversationId: string): MessageRecord[] {
    return [...this.messages.values()]
      .filter((m) => m.conversationId === conversationId)
      .sort(newestMessageFirst);
  }

  /** Conversations of one number that have at least one message, latest message first. */
  listConversations(numberId: string): ConversationRecord[] {
    return [...this.conversations.values()]
      .filter((c) => c.numberId === numberId && c.lastMessageId !== undefined)
      .sort((a, b) => b.lastMessageAt - a.lastMessageAt || b.seq - a.seq);
  }
}

/** Sort order of history: occurredAt descending, then creation order descending. */
export function newestMessageFirst(a: MessageRecord, b: MessageRecord): number {
  return b.occurredAt - a.occurredAt || b.seq - a.seq;
}
