import type { Message } from '../api/resources.js';
import { z } from 'zod';
import type { SandboxContext } from './context.js';
import { planDelivery } from './delivery.js';
import type { ConversationRecord, MessageRecord } from './model.js';
import { toMessage } from './projection.js';
import { newId } from './state.js';

/** The bytes of an inbound attachment, as the dashboard shows them. */
export interface MediaBytes {
  readonly mimeType: string;
  readonly filename: string;
  readonly bytes: Buffer;
}

/**
 * Dashboard-inbox operations of the control API (used by `switchboard studio`): read a
 * conversation's messages and attachments, and reply as a teammate while a person owns
 * the conversation.
 */
export interface InboxControl {
  /** Every message of a conversation (by id, or by the contact's phone number), oldest first. */
  messages(conversation: string): Message[];
  /** An inbound attachment's bytes (whatever its availability), or undefined if unknown. */
  media(mediaId: string): MediaBytes | undefined;
  /**
   * A teammate writes to the contact from the dashboard inbox. Allowed only while a person
   * owns the conversation (humanOwned), as in the dashboard; it is an outbound message of
   * the history, with the usual status progression.
   */
  teammateReply(conversation: string, text: string): Message;
}

/** Limit of a text body (spec 4.5.1), also for a teammate's reply. */
const TEXT_LIMIT = 4096;
const ReplyText = z.string().trim().min(1, 'a reply needs some text').max(TEXT_LIMIT);

/** Builds the inbox operations over a sandbox context; errors are thrown by `fail`. */
export function createInboxControl(
  ctx: SandboxContext,
  fail: (code: 'not_found' | 'invalid_request', message: string) => never,
): InboxControl {
  const conversationOf = (ref: string): ConversationRecord => {
    const found = ref.startsWith('+')
      ? ctx.state.findConversation(ctx.config.numbers[0]?.id ?? '', ref)
      : ctx.state.conversations.get(ref);
    return found ?? fail('not_found', `no conversation "${ref}"`);
  };
  return {
    messages(ref) {
      ctx.runDue();
      const conversation = conversationOf(ref);
      return ctx.state
        .history(conversation.id)
        .reverse()
        .map((m) => toMessage(m, ctx.state));
    },
    media(mediaId) {
      const media = ctx.state.media.get(mediaId);
      if (media === undefined) return undefined;
      return { mimeType: media.mimeType, filename: media.filename, bytes: media.bytes };
    },
    teammateReply(ref, text) {
      ctx.runDue();
      const conversation = conversationOf(ref);
      if (!conversation.humanOwned)
        fail('invalid_request', 'take the conversation over before replying as a teammate');
      const body = ReplyText.safeParse(text);
      if (!body.success)
        fail('invalid_request', `reply text: ${body.error.issues[0]?.message ?? 'invalid'}`);
      const now = ctx.clock.now();
      const contact = ctx.state.contact(conversation.phoneNumber);
      const message: MessageRecord = {
        id: newId('msg'),
        seq: ctx.state.nextSeq(),
        numberId: conversation.numberId,
        conversationId: conversation.id,
        contactId: contact.id,
        direction: 'outbound',
        status: 'queued',
        failureCode: undefined,
        type: 'text',
        occurredAt: now,
        content: { text: { body: body.data ?? '' } },
        mediaId: undefined,
        plan: planDelivery(ctx.config, contact, now),
      };
      ctx.state.addMessage(message);
      return toMessage(message, ctx.state);
    },
  };
}
