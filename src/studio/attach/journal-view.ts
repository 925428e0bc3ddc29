import type { ConversationDoc } from '../../engine/conversation-doc.js';
import type { PhoneMessage } from '../phone-view.js';

/** One line of the attached studio's timeline (the sandbox studio's timeline shape). */
export interface AttachTimelineEntry {
  readonly seq: number;
  readonly at: number;
  readonly kind: string;
  readonly text: string;
  readonly outcome?: string;
  readonly ok?: boolean;
}

/** What the page shows from a conversation's journal. */
export interface JournalView {
  readonly timeline: readonly AttachTimelineEntry[];
  readonly messages: readonly PhoneMessage[];
  readonly transitions: readonly {
    readonly flowId: string;
    readonly state: string;
    readonly at: number;
    readonly cause: string | undefined;
    readonly ended: boolean;
  }[];
  readonly lastActivityAt: number | undefined;
  readonly preview: string | undefined;
}

/** ADAPTER until the journal contract is merged: documents carry no journal yet. */
export function journalView(_doc: ConversationDoc): JournalView {
  return {
    timeline: [],
    messages: [],
    transitions: [],
    lastActivityAt: undefined,
    preview: undefined,
  };
}
