import type { InspectedConversation } from '../../journal/conversation-view.js';
import { readJournal } from '../../journal/conversation-view.js';
import { windowView, type PhoneMessage } from '../phone-view.js';
import type { StateTrail } from './attach-analytics.js';
import type { AttachedConversation } from './attach-source.js';
import { journalView, type AttachTimelineEntry } from './journal-view.js';

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
  /** ISO time of the newest journal entry (or inbound message), for order and display. */
  readonly lastMessageAt: string | null;
  readonly preview: string | null;
}

/** The inbox row of a listed conversation at `now`. */
export function inboxRow(conversation: ValidConversation, now: number): InboxRow {
  const { doc } = conversation;
  const journal = journalView(readJournal(doc.journal).entries);
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

/** Where a listed conversation went (its journal's transitions), ending where it is now. */
export function stateTrail(conversation: ValidConversation): StateTrail {
  const { doc } = conversation;
  const journal = journalView(readJournal(doc.journal).entries);
  const at = journal.lastActivityAt ?? doc.lastInboundAt ?? 0;
  return {
    conversationId: conversation.id,
    steps: [
      ...journal.transitions,
      { flowId: doc.flowId, state: doc.state, at, cause: undefined, ended: doc.ended },
    ],
  };
}

/** Everything the page shows of one conversation: chat, timeline, variables, timers. */
export interface ConversationDetail {
  readonly customer: { readonly phone: string; readonly name: string };
  readonly conversationId: string;
  readonly humanOwned: boolean;
  readonly window: ReturnType<typeof windowView>;
  readonly messages: readonly PhoneMessage[];
  /** What the flow panel's variables box shows (the engine's `inspect` fields). */
  readonly doc: {
    readonly conversationId: string;
    readonly flowId: string;
    readonly flowVersion: number;
    readonly state: string;
    readonly vars: InspectedConversation['vars'];
    readonly humanOwned: boolean;
    readonly lastInboundAt: number | undefined;
    readonly ended: boolean;
    readonly heldSends: number;
    readonly callers: readonly string[];
  };
  readonly timeline: readonly AttachTimelineEntry[];
  readonly timers: readonly { readonly name: string; readonly dueAt: number }[];
  /** Journal entries that did not read back (newer or damaged). */
  readonly unreadableEntries: number;
}

/** The detail of a conversation read with `readConversationView`, at `now`. */
export function conversationDetail(view: InspectedConversation, now: number): ConversationDetail {
  const journal = journalView(view.journal);
  return {
    customer: { phone: view.contact.phone, name: view.contact.name },
    conversationId: view.id,
    humanOwned: view.humanOwned,
    window: windowView(view.lastInboundAt, now),
    messages: journal.messages,
    doc: {
      conversationId: view.id,
      flowId: view.flowId,
      flowVersion: view.flowVersion,
      state: view.state,
      vars: view.vars,
      humanOwned: view.humanOwned,
      lastInboundAt: view.lastInboundAt,
      ended: view.ended,
      heldSends: view.heldSends,
      callers: view.callers,
    },
    timeline: journal.timeline,
    timers: (view.timers ?? []).map((t) => ({ name: t.name, dueAt: t.dueAt })),
    unreadableEntries: view.unreadableEntries,
  };
}
