import type { JournalEntryView } from '../../journal/conversation-view.js';
import type { JournalEntry } from '../../journal/journal-entry.js';
import type { PhoneMessage } from '../phone-view.js';

/** One line of the attached studio's timeline (the sandbox studio's timeline shape). */
export interface AttachTimelineEntry {
  readonly seq: number;
  readonly at: number;
  /** The journal entry's kind (`inbound`, `transition`, `send`, …). */
  readonly kind: string;
  readonly text: string;
  readonly outcome?: string;
  /** False for what went wrong (rejections, errors, unknown outcomes). */
  readonly ok?: boolean;
}

/** A step of a conversation through its flow (for the per-state analytics). */
export interface JournalStep {
  readonly flowId: string;
  readonly state: string;
  readonly at: number;
  readonly cause: string | undefined;
  readonly ended: boolean;
}

/** What the page shows from a conversation's journal. */
export interface JournalView {
  readonly timeline: readonly AttachTimelineEntry[];
  /** The chat as the phone view draws it: inbound messages, sends, refused sends as notices. */
  readonly messages: readonly PhoneMessage[];
  readonly transitions: readonly JournalStep[];
  /** Epoch ms of the newest entry. */
  readonly lastActivityAt: number | undefined;
  /** The newest message's text, for the inbox row (absent: private or none). */
  readonly preview: string | undefined;
}

const quoted = (text: string | undefined): string => (text === undefined ? '' : ` "${text}"`);

/**
 * The page's view of a journal (oldest first): a timeline line per entry, the chat, and
 * the state transitions. Texts are only what the journal kept (none with the privacy
 * switch on).
 * @example
 * const { timeline, messages } = journalView(view.journal);
 */
export function journalView(journal: readonly JournalEntryView[]): JournalView {
  const timeline: AttachTimelineEntry[] = [];
  const messages: PhoneMessage[] = [];
  const transitions: JournalStep[] = [];
  let preview: string | undefined;
  journal.forEach((entry, seq) => {
    timeline.push({ seq, at: entry.at, kind: entry.kind, ...line(entry) });
    if (entry.kind === 'transition')
      transitions.push({
        flowId: entry.flowId,
        state: entry.to,
        at: entry.at,
        cause: entry.event,
        ended: false,
      });
    if (entry.kind === 'inbound') {
      preview = entry.text ?? `[${entry.type}]`;
      messages.push({
        kind: 'inbound',
        id: entry.messageId,
        at: entry.at,
        type: entry.type,
        ...(entry.text === undefined
          ? {}
          : entry.optionId === undefined
            ? { text: entry.text }
            : { tapped: entry.text }),
      });
    }
    if (entry.kind === 'send') {
      const message = sentMessage(entry, seq);
      if (message.kind === 'outbound') preview = `↩ ${entry.text ?? `[${entry.contentType}]`}`;
      messages.push(message);
    }
  });
  return { timeline, messages, transitions, lastActivityAt: journal.at(-1)?.at, preview };
}

function sentMessage(entry: JournalEntryView & { kind: 'send' }, seq: number): PhoneMessage {
  const text =
    entry.text ?? `[${entry.contentType}${entry.fallback === true ? ', template fallback' : ''}]`;
  const state = entry.record?.state;
  const went =
    entry.outcome === 'accepted' ||
    entry.outcome === 'already_done' ||
    state === 'accepted' ||
    state === 'reconciled';
  if (!went) {
    const code = entry.record?.code ?? entry.code;
    return {
      kind: 'notice',
      id: `notice-${seq}`,
      at: entry.at,
      text: `not sent (${state ?? entry.outcome}${code === undefined ? '' : `: ${code}`}): ${text}`,
    };
  }
  const failed = state === 'failed' || entry.status === 'failed';
  const failureCode = failed ? (entry.record?.code ?? entry.code) : undefined;
  return {
    kind: 'outbound',
    id: entry.record?.messageId ?? entry.messageId ?? entry.sendId ?? `send-${seq}`,
    at: entry.at,
    status: failed ? 'failed' : (entry.status ?? 'sent'),
    ...(failureCode === undefined ? {} : { failureCode }),
    teammate: false,
    view: { type: 'text', text },
  };
}

/** The text, outcome and health of one timeline line. */
function line(entry: JournalEntryView): { text: string; outcome?: string; ok?: boolean } {
  switch (entry.kind) {
    case 'inbound':
      return {
        text: `${entry.type}${quoted(entry.text)}${entry.optionId === undefined ? '' : ` [${entry.optionId}]`} (${entry.messageId})`,
        ...(entry.ignored === undefined ? {} : { outcome: `ignored: ${entry.ignored}` }),
      };
    case 'understood':
      return {
        text: `${entry.source}: ${entry.intent ?? 'no intent'}${entry.confidence === undefined ? '' : ` ${entry.confidence.toFixed(2)}`}`,
        outcome: entry.matched ? 'matched' : 'not matched',
      };
    case 'transition':
      return { text: `${entry.from || '(start)'} → ${entry.to} on ${entry.event}` };
    case 'vars': {
      const set = Object.entries(entry.set).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
      const unset = (entry.unset ?? []).map((k) => `-${k}`);
      return { text: [...set, ...unset].join(', ') };
    }
    case 'handler':
      return {
        text: `${entry.handler} (${Math.round(entry.durationMs)} ms)${entry.error === undefined ? '' : `: ${entry.error}`}`,
        outcome: entry.outcome === undefined ? entry.status : `${entry.status}: ${entry.outcome}`,
        ok: entry.status === 'done',
      };
    case 'send': {
      const record = entry.record;
      const id = record?.messageId ?? entry.messageId;
      const code = record?.code ?? entry.code;
      const outcome = [
        record === undefined || record.state === entry.outcome
          ? entry.outcome
          : `${entry.outcome} → ${record.state}`,
        entry.status,
        code,
      ]
        .filter((p) => p !== undefined)
        .join(' · ');
      return {
        text: `#${entry.seq} ${entry.contentType}${quoted(entry.text)}${id === undefined ? '' : ` (${id})`}`,
        outcome,
        ok: sendOk(entry),
      };
    }
    case 'timer':
      return {
        text: `${entry.action} ${entry.name}${entry.dueAt === undefined ? '' : ` due ${new Date(entry.dueAt).toISOString()}`}`,
      };
    case 'handoff':
      return {
        text: `${entry.change} by ${entry.by}${entry.reason === undefined ? '' : `: ${entry.reason}`}`,
      };
    case 'reconcile':
      return {
        text: `send #${entry.seq} attempt ${entry.attempt}${entry.messageId === undefined ? '' : ` (${entry.messageId})`}`,
        outcome: entry.code === undefined ? entry.result : `${entry.result}: ${entry.code}`,
        ok: entry.result === 'found' || (entry.result === 'resent' && entry.code === undefined),
      };
    case 'lifecycle':
      return { text: `${entry.change} ${entry.flowId}` };
    case 'error':
      return {
        text: `${entry.source}${entry.code === undefined ? '' : ` ${entry.code}`}: ${entry.message}${entry.state === undefined ? '' : ` (in ${entry.state})`}`,
        ok: false,
      };
  }
}

function sendOk(entry: JournalEntry & { kind: 'send' } & JournalEntryView): boolean {
  const state = entry.record?.state;
  if (state === 'failed' || entry.status === 'failed') return false;
  if (state === 'accepted' || state === 'reconciled') return true;
  return (
    entry.outcome === 'accepted' || entry.outcome === 'already_done' || entry.outcome === 'held'
  );
}
