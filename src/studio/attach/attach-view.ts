import type { ConversationDoc } from '../../engine/conversation-doc.js';
import type { TimerRecord } from '../../store/store.js';
import { windowView, type PhoneMessage } from '../phone-view.js';
import type { AttachedConversation } from './attach-source.js';
import type { StateTrail } from './attach-analytics.js';
import { journalView } from './journal-view.js';

type ValidConversation = Extract<AttachedConversation, { status: 'valid' }>;

/** One row of the attached studio's inbox (the same fields as the sandbox studio's). */
export interface InboxRow {
  readonly phone: string;
  readonly name: string;
  readonly conversationId: string;
  readonly humanOwned: boolean;
  readonly window: ReturnType<typeof windowView>;
  readonly flowId: string;
  readonly state: string;
  readonly ended: boolean;
  /** ISO time of the newest thing that happened, for ordering and the row's time. */
  readonly lastMessageAt: string | null;
  readonly preview: string | null;
}

/** The inbox row of a conversation at `now`. */
export function inboxRow(conversation: ValidConversation, now: number): InboxRow {
  const { doc } = conversation;
  const journal = journalView(doc);
  const last = journal.lastActivityAt ?? doc.lastInboundAt;
  return {
    phone: doc.contact.phone,
    name: doc.contact.name,
    conversationId: conversation.id,
    humanOwned: doc.humanOwned,
    window: windowView(doc.lastInboundAt, now),
    flowId: doc.flowId,
    state: doc.state,
    ended: doc.ended,
    lastMessageAt: last === undefined ? null : new Date(last).toISOString(),
    preview: journal.preview ?? null,
  };
}

/** The document as the flow panel's variables box shows it (the engine's `inspect` view). */
export function docView(id: string, doc: ConversationDoc) {
  return {
    conversationId: id,
    flowId: doc.flowId,
    flowVersion: doc.flowVersion,
    state: doc.state,
    vars: doc.vars,
    humanOwned: doc.humanOwned,
    lastInboundAt: doc.lastInboundAt,
    ended: doc.ended,
    heldSends: doc.heldSends.length,
    callers: (doc.stack ?? []).map((f) => `${f.flowId}.${f.state}`),
  };
}

/** Everything the page shows of one conversation: chat, timeline, variables, timers. */
export function conversationDetail(
  conversation: ValidConversation,
  timers: readonly TimerRecord[],
  now: number,
): {
  readonly customer: { readonly phone: string; readonly name: string };
  readonly conversationId: string;
  readonly humanOwned: boolean;
  readonly window: ReturnType<typeof windowView>;
  readonly messages: readonly PhoneMessage[];
  readonly doc: ReturnType<typeof docView>;
  readonly timeline: ReturnType<typeof journalView>['timeline'];
  readonly timers: readonly { readonly name: string; readonly dueAt: number }[];
} {
  const { doc } = conversation;
  const journal = journalView(doc);
  return {
    customer: { phone: doc.contact.phone, name: doc.contact.name },
    conversationId: conversation.id,
    humanOwned: doc.humanOwned,
    window: windowView(doc.lastInboundAt, now),
    messages: journal.messages,
    doc: docView(conversation.id, doc),
    timeline: journal.timeline,
    timers: timers.map((t) => ({ name: t.name, dueAt: t.dueAt })),
  };
}

/** Where a conversation went (its journal's transitions), ending where its document is. */
export function stateTrail(conversation: ValidConversation): StateTrail {
  const { doc } = conversation;
  const journal = journalView(doc);
  const steps = [...journal.transitions];
  const lastAt = journal.lastActivityAt ?? doc.lastInboundAt ?? 0;
  steps.push({
    flowId: doc.flowId,
    state: doc.state,
    at: lastAt,
    cause: undefined,
    ended: doc.ended,
  });
  return { conversationId: conversation.id, steps };
}
