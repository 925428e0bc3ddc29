/**
 * Reads one conversation as an operator sees it (`switchboard inspect`, the attached
 * studio): state, variables, ownership, pending timers and the journal, each send entry
 * joined with its send record (the latest outcome: a later failure, a reconciliation).
 * Read only: it never writes the store.
 */
import type { ConversationDoc } from '../engine/conversation-doc.js';
import { parseStoredDoc } from '../engine/stored-doc.js';
import type { SendRecord, Store, TimerRecord } from '../store/store.js';
import { JournalEntrySchema, type JournalEntry } from './journal-entry.js';
import { summarizeConversation, type ConversationSummary } from './conversation-summary.js';

/** What the view needs of a store: reads only (a {@link Store} or a read-only reader). */
export type ConversationReader = Pick<Store, 'getConversation' | 'getSend'> &
  Partial<Pick<Store, 'conversationTimers' | 'listConversations'>>;

/** A send record's facts as the view shows them. */
export interface SendRecordFacts {
  readonly state: SendRecord['state'];
  readonly messageId?: string;
  readonly code?: string;
  readonly resends?: number;
}

/** A journal entry as the view shows it: a send carries its record when it is still kept. */
export type JournalEntryView = JournalEntry & { readonly record?: SendRecordFacts };

/** One conversation, read. */
export interface InspectedConversation {
  readonly id: string;
  /** The document's compare-and-set version. */
  readonly version: number;
  readonly flowId: string;
  readonly flowVersion: number;
  readonly state: string;
  readonly ended: boolean;
  readonly humanOwned: boolean;
  readonly contact: ConversationDoc['contact'];
  readonly vars: ConversationDoc['vars'];
  readonly lastInboundAt: number | undefined;
  /** Effects still to run (a crash between their write and their run). */
  readonly pending: readonly {
    readonly kind: string;
    readonly seq: number;
    readonly handler?: string;
  }[];
  /** Sends held until the contact writes again (window rule `wait`). */
  readonly heldSends: number;
  /** Flows waiting on the running sub-flow, outermost first. */
  readonly callers: readonly string[];
  /** Pending timers; undefined when the store cannot list them. */
  readonly timers: readonly TimerRecord[] | undefined;
  /** The journal, oldest first. */
  readonly journal: readonly JournalEntryView[];
  /** Entries that did not read back (a newer or damaged entry), left out of `journal`. */
  readonly unreadableEntries: number;
  readonly summary: ConversationSummary;
}

/** The result of {@link readConversationView}. */
export type InspectResult =
  | { readonly status: 'found'; readonly view: InspectedConversation }
  | { readonly status: 'absent' }
  | { readonly status: 'invalid'; readonly error: string };

/** Options of {@link readConversationView}. */
export interface ReadViewOptions {
  /** "Now" for the summary (default `Date.now()`). */
  readonly now?: number;
  /** Join each send entry with its send record (default true: one read per send). */
  readonly joinSends?: boolean;
}

/**
 * Reads one conversation by its id.
 * @example
 * const result = await readConversationView(store, 'conv_1');
 * if (result.status === 'found') console.log(result.view.state, result.view.journal.length);
 */
export async function readConversationView(
  reader: ConversationReader,
  conversationId: string,
  options: ReadViewOptions = {},
): Promise<InspectResult> {
  const stored = await reader.getConversation(conversationId);
  if (stored === undefined) return { status: 'absent' };
  const parsed = parseStoredDoc(stored.value);
  if (parsed.status === 'invalid')
    return { status: 'invalid', error: `conversation ${conversationId}: ${parsed.error}` };
  const doc = parsed.doc;
  const { entries, unreadable } = readJournal(doc.journal);
  const withIds = withSendIds(conversationId, doc.epoch, entries);
  const journal = options.joinSends === false ? withIds : await joinSendRecords(reader, withIds);
  const timers =
    reader.conversationTimers === undefined
      ? undefined
      : await reader.conversationTimers(conversationId);
  return {
    status: 'found',
    view: {
      id: conversationId,
      version: stored.version,
      flowId: doc.flowId,
      flowVersion: doc.flowVersion,
      state: doc.state,
      ended: doc.ended,
      humanOwned: doc.humanOwned,
      contact: doc.contact,
      vars: doc.vars,
      lastInboundAt: doc.lastInboundAt,
      pending: doc.pending
        .filter((e) => e.seq > doc.lastEffectSeq)
        .map((e) =>
          e.kind === 'call'
            ? { kind: e.kind, seq: e.seq, handler: e.handler }
            : { kind: e.kind, seq: e.seq },
        ),
      heldSends: doc.heldSends.length,
      callers: (doc.stack ?? []).map((f) => f.flowId),
      timers,
      journal,
      unreadableEntries: unreadable + (parsed.journalErrors?.length ?? 0),
      summary: summarizeConversation(
        conversationId,
        { ...doc, journal: entries },
        options.now ?? Date.now(),
      ),
    },
  };
}

/** The entries of a stored journal that read back (validated one by one). */
export function readJournal(value: unknown): { entries: JournalEntry[]; unreadable: number } {
  if (!Array.isArray(value)) return { entries: [], unreadable: 0 };
  const entries: JournalEntry[] = [];
  let unreadable = 0;
  for (const item of value) {
    const parsed = JournalEntrySchema.safeParse(item);
    if (parsed.success) entries.push(parsed.data);
    else unreadable++;
  }
  return { entries, unreadable };
}

/**
 * Conversation ids matching an operator's argument: the id itself when a document has it,
 * else every conversation whose contact phone has the same digits (a listing walk).
 */
export async function findConversations(
  reader: ConversationReader,
  idOrPhone: string,
  pageSize = 500,
): Promise<string[]> {
  if ((await reader.getConversation(idOrPhone)) !== undefined) return [idOrPhone];
  const digits = idOrPhone.replace(/\D/g, '');
  if (digits === '' || reader.listConversations === undefined) return [];
  const found: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await reader.listConversations(cursor, pageSize);
    for (const item of page.items) {
      const parsed = parseStoredDoc(item.value);
      if (parsed.status === 'valid' && parsed.doc.contact.phone.replace(/\D/g, '') === digits)
        found.push(item.id);
    }
    cursor = page.cursor;
  } while (cursor !== undefined);
  return found;
}

/**
 * Send entries with their record ids: the epoch of each is that of the latest `started`
 * entry before it, or, with none before it, the document's when no run started later in
 * the journal (else unknown: the entry is left without an id).
 */
function withSendIds(
  conversationId: string,
  currentEpoch: number,
  entries: readonly JournalEntry[],
): JournalEntry[] {
  const startedLater = entries.some((e) => e.kind === 'lifecycle' && e.change === 'started');
  let epoch: number | undefined = startedLater ? undefined : currentEpoch;
  return entries.map((entry) => {
    if (entry.kind === 'lifecycle' && entry.change === 'started')
      epoch = entry.epoch ?? currentEpoch;
    if (entry.kind !== 'send' || entry.sendId !== undefined || epoch === undefined) return entry;
    return { ...entry, sendId: `${conversationId}:${epoch}:${entry.seq}` };
  });
}

async function joinSendRecords(
  reader: ConversationReader,
  entries: readonly JournalEntry[],
): Promise<JournalEntryView[]> {
  const records = new Map<string, SendRecord | undefined>();
  for (const entry of entries) {
    if (entry.kind === 'send' && entry.sendId !== undefined && !records.has(entry.sendId))
      records.set(entry.sendId, await reader.getSend(entry.sendId));
  }
  return entries.map((entry) => {
    if (entry.kind !== 'send' || entry.sendId === undefined) return entry;
    const record = records.get(entry.sendId);
    if (record === undefined) return entry;
    const facts: SendRecordFacts = {
      state: record.state,
      ...(record.messageId === undefined ? {} : { messageId: record.messageId }),
      ...(record.code === undefined ? {} : { code: record.code }),
      ...(record.resends === undefined ? {} : { resends: record.resends }),
    };
    return { ...entry, record: facts };
  });
}
