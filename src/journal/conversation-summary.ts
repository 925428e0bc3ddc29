/**
 * One line about a conversation, for listing and filtering (`switchboard conversations`,
 * the attached studio's inbox): where it is, whether it waits on a handler, whether it is
 * stuck, its last error and when it last moved. Derived from the document alone.
 */
import type { ConversationDoc } from '../engine/conversation-doc.js';
import type { JournalEntry } from './journal-entry.js';

/** Default age after which a handler call still not answered makes a conversation stuck. */
export const HANDLER_STUCK_MS = 10 * 60_000;

/** What a conversation looks like in a list. */
export interface ConversationSummary {
  readonly id: string;
  readonly phone: string;
  readonly name: string;
  readonly flowId: string;
  /** The machine's state (dotted path). */
  readonly state: string;
  readonly humanOwned: boolean;
  readonly ended: boolean;
  /** The handler whose call has not run to its end yet (a crash or a hang), if any. */
  readonly waitingOn: string | undefined;
  /**
   * Why it is stuck, if it is: `error_path` (the flow took its error path and has not
   * moved since), `machine_error` (the machine failed on an event; its state is
   * unchanged), `handler` (a handler call unanswered for longer than the threshold).
   */
  readonly stuck: 'error_path' | 'machine_error' | 'handler' | undefined;
  /** The newest error of the journal. */
  readonly lastError:
    { readonly at: number; readonly message: string; readonly code?: string } | undefined;
  /** Epoch ms of the newest journal entry (or the last inbound message). */
  readonly lastActivityAt: number | undefined;
  /** Entries in the journal. */
  readonly entries: number;
}

/**
 * The summary of one conversation document at `now`.
 * @example
 * const s = summarizeConversation('conv_1', doc, Date.now());
 * if (s.stuck !== undefined) console.log(`${s.id} is stuck (${s.stuck}) in ${s.state}`);
 */
export function summarizeConversation(
  id: string,
  doc: ConversationDoc,
  now: number,
  handlerStuckMs = HANDLER_STUCK_MS,
): ConversationSummary {
  const journal: readonly JournalEntry[] = doc.journal ?? [];
  const last = journal.at(-1);
  const lastActivityAt = Math.max(last?.at ?? -Infinity, doc.lastInboundAt ?? -Infinity);
  const call = doc.pending.find((e) => e.kind === 'call' && e.seq > doc.lastEffectSeq);
  const waitingOn = call?.kind === 'call' ? call.handler : undefined;
  let lastError: ConversationSummary['lastError'];
  let stuck: ConversationSummary['stuck'];
  for (let i = journal.length - 1; i >= 0; i--) {
    const entry = journal[i];
    if (entry?.kind === 'transition' || entry?.kind === 'lifecycle') break;
    if (entry?.kind === 'error' && (entry.source === 'flow' || entry.source === 'machine')) {
      stuck = entry.source === 'flow' ? 'error_path' : 'machine_error';
      break;
    }
  }
  for (let i = journal.length - 1; i >= 0 && lastError === undefined; i--) {
    const entry = journal[i];
    if (entry?.kind === 'error')
      lastError = {
        at: entry.at,
        message: entry.message,
        ...(entry.code === undefined ? {} : { code: entry.code }),
      };
  }
  if (stuck === undefined && waitingOn !== undefined && !doc.ended) {
    const since = Number.isFinite(lastActivityAt) ? lastActivityAt : now;
    if (now - since > handlerStuckMs) stuck = 'handler';
  }
  return {
    id,
    phone: doc.contact.phone,
    name: doc.contact.name,
    flowId: doc.flowId,
    state: doc.state,
    humanOwned: doc.humanOwned,
    ended: doc.ended,
    waitingOn,
    stuck,
    lastError,
    lastActivityAt: Number.isFinite(lastActivityAt) ? lastActivityAt : undefined,
    entries: journal.length,
  };
}

/** Filters of {@link matchesFilter} (all given ones must hold). */
export interface ConversationFilter {
  readonly waiting?: boolean;
  readonly stuck?: boolean;
  readonly humanOwned?: boolean;
  /** Has an error in its journal. */
  readonly errored?: boolean;
  /** The state is this one, or inside it (`ask` matches `ask` and `ask.size`). */
  readonly state?: string;
  /** Last activity at least this long ago (ms). */
  readonly idleForMs?: number;
  /** Last activity at most this long ago (ms). */
  readonly activeWithinMs?: number;
}

/** Whether a summary passes every given filter at `now`. */
export function matchesFilter(
  summary: ConversationSummary,
  filter: ConversationFilter,
  now: number,
): boolean {
  const age = summary.lastActivityAt === undefined ? Infinity : now - summary.lastActivityAt;
  if (filter.waiting !== undefined && (summary.waitingOn !== undefined) !== filter.waiting)
    return false;
  if (filter.stuck !== undefined && (summary.stuck !== undefined) !== filter.stuck) return false;
  if (filter.humanOwned !== undefined && summary.humanOwned !== filter.humanOwned) return false;
  if (filter.errored !== undefined && (summary.lastError !== undefined) !== filter.errored)
    return false;
  if (
    filter.state !== undefined &&
    summary.state !== filter.state &&
    !summary.state.startsWith(`${filter.state}.`)
  )
    return false;
  if (filter.idleForMs !== undefined && age < filter.idleForMs) return false;
  if (filter.activeWithinMs !== undefined && age > filter.activeWithinMs) return false;
  return true;
}
