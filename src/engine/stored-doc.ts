/**
 * The stored form of a conversation document: what the machine snapshot already holds is
 * left out (the contact and the variables when they equal the persisted context's), and
 * so are empty lists; older documents with every field read the same way. Reading is
 * validated: a hand-written check for the common shape (no effects waiting), zod for
 * the rest and for every error message.
 *
 * Format versions (`v`): 1 = no `v` field (written before exactly-once application: no
 * applied-item record, read as an empty one); 2 = `v: 2` with `applied`; 3 = a sub-flow
 * call `stack` (written only while a sub-flow runs, so that an older worker refuses the
 * document instead of dropping the stack); 4 = a compiled flow machine's snapshot stored
 * compact (compact-snapshot.ts) and `state` left out when it is the snapshot's `value`;
 * 5 = format 4 with the `understood` record of the latest understood message (written only
 * while one is recorded, so that an older worker refuses the document instead of dropping
 * the record and calling a model again for the same message); a format-5 snapshot that
 * could not be stored compact says so with `whole: true`; 6 = format 5 with the `journal`
 * stored compact (src/journal/stored-journal.ts: an array per entry instead of an object;
 * written whenever the document has a journal, so that an older worker refuses the
 * document instead of misreading the entries), its snapshot compact unless `whole: true`.
 * A document of a newer format than {@link STORED_DOC_VERSION} is refused with an error
 * saying so. The `journal` (src/journal/) is an optional field of every format: a document
 * written before it reads with an empty journal, formats 1–5 hold it as entry objects and
 * read exactly as they did, and the next write stores it compact (format 6).
 */
import { z } from 'zod';
import { decodeJournal, encodeJournal } from '../journal/stored-journal.js';
import { compactSnapshot, expandSnapshot } from './compact-snapshot.js';
import { ConversationDocSchema, type ConversationDoc } from './conversation-doc.js';
import { ContactInfoSchema, EffectSchema, SendEffectSchema, VarsSchema } from './schemas.js';

/** The stored format this code writes. */
export const STORED_DOC_VERSION = 6;

/** The first format whose snapshot is compact and whose `state` may be left out. */
const COMPACT_FORMAT = 4;

/** The format that records an understanding (`understood`). */
const UNDERSTOOD_FORMAT = 5;

/** The format whose journal is stored compact (an array per entry). */
const JOURNAL_FORMAT = 6;

const StoredDocSchema = ConversationDocSchema.extend({
  v: z.number().int().min(1).max(STORED_DOC_VERSION).exactOptional(),
  contact: ContactInfoSchema.exactOptional(),
  vars: VarsSchema.exactOptional(),
  pending: z.array(EffectSchema).exactOptional(),
  heldSends: z.array(SendEffectSchema).exactOptional(),
  applied: z.array(z.string()).exactOptional(),
  whole: z.literal(true).exactOptional(),
});

/** Where left-out fields are found again: the persisted machine context. */
const SnapshotContextSchema = z.looseObject({
  context: z.looseObject({
    contact: ContactInfoSchema.exactOptional(),
    vars: VarsSchema.exactOptional(),
  }),
});

/** Result of {@link parseStoredDoc}. */
export type StoredDocResult =
  | {
      readonly status: 'valid';
      readonly doc: ConversationDoc;
      /**
       * Stored journal entries that did not decode, each naming its index and why; they
       * are left out of `doc.journal` (the rest of the document is good: the journal only
       * describes it). Absent when every entry read.
       */
      readonly journalErrors?: readonly string[];
    }
  | { readonly status: 'invalid'; readonly error: string };

/** Reads a stored document back (validated); the error names what is wrong. */
export function parseStoredDoc(value: unknown): StoredDocResult {
  const format = isObject(value) ? value['v'] : undefined;
  if (typeof format === 'number' && format > STORED_DOC_VERSION) {
    return {
      status: 'invalid',
      error: `document format ${format} was written by a newer switchboard (this one reads up to ${STORED_DOC_VERSION}); upgrade every worker`,
    };
  }
  if (!isObject(value)) return readDoc(value);
  const compact =
    (format === COMPACT_FORMAT || format === UNDERSTOOD_FORMAT || format === JOURNAL_FORMAT) &&
    value['whole'] !== true;
  const journal = value['journal'];
  if (format !== JOURNAL_FORMAT || !Array.isArray(journal))
    return readDoc(compact ? expandDoc(value) : value);
  const decoded = decodeJournal(journal, {
    flowId: typeof value['flowId'] === 'string' ? value['flowId'] : '',
    epoch: typeof value['epoch'] === 'number' ? value['epoch'] : 0,
  });
  // A plain copy (the expanded one is) then an assignment: a spread literal with new keys is slow.
  const whole = compact ? expandDoc(value) : { ...value };
  whole['journal'] = decoded.entries;
  const result = readDoc(whole);
  return result.status === 'valid' && decoded.errors.length > 0
    ? { ...result, journalErrors: decoded.errors }
    : result;
}

/** A stored document made whole (snapshot expanded, journal entries as objects), read. */
function readDoc(whole: unknown): StoredDocResult {
  const fast = readCommon(whole);
  if (fast !== undefined) return { status: 'valid', doc: fast };
  const parsed = StoredDocSchema.safeParse(whole);
  if (!parsed.success) return { status: 'invalid', error: parsed.error.message };
  const {
    v: _format,
    whole: _whole,
    contact,
    vars,
    pending,
    heldSends,
    applied,
    ...rest
  } = parsed.data;
  let context: z.infer<typeof SnapshotContextSchema>['context'] | undefined;
  if (contact === undefined || vars === undefined) {
    const snapshot = SnapshotContextSchema.safeParse(rest.snapshot);
    context = snapshot.success ? snapshot.data.context : undefined;
  }
  const fullContact = contact ?? context?.contact;
  const fullVars = vars ?? context?.vars;
  if (fullContact === undefined || fullVars === undefined) {
    return { status: 'invalid', error: 'contact or vars missing from document and snapshot' };
  }
  return {
    status: 'valid',
    doc: {
      ...rest,
      contact: fullContact,
      vars: fullVars,
      pending: pending ?? [],
      heldSends: heldSends ?? [],
      applied: applied ?? [],
    },
  };
}

/**
 * The stored form of a document. With `dropOutbox`, the persisted context's outbox is
 * stored empty: only for machines that reset it at every event (`pending` holds what is
 * still to run of it, and the rest was executed).
 */
export function toStoredDoc(doc: ConversationDoc, dropOutbox: boolean): Record<string, unknown> {
  const context = objectAt(doc.snapshot, 'context');
  const stack = doc.stack ?? [];
  const compact = compactSnapshot(doc.snapshot, dropOutbox);
  const journal = doc.journal !== undefined && doc.journal.length > 0 ? doc.journal : undefined;
  const stored: Record<string, unknown> = {
    v:
      journal !== undefined
        ? JOURNAL_FORMAT
        : doc.understood !== undefined
          ? UNDERSTOOD_FORMAT
          : compact !== undefined
            ? COMPACT_FORMAT
            : stack.length > 0
              ? 3
              : 2,
    flowId: doc.flowId,
    flowVersion: doc.flowVersion,
    epoch: doc.epoch,
    lastEffectSeq: doc.lastEffectSeq,
    humanOwned: doc.humanOwned,
    ended: doc.ended,
  };
  // Format 4 leaves the state out when the snapshot's value says it (a flat state).
  if (compact === undefined || compact['value'] !== doc.state) stored['state'] = doc.state;
  stored['snapshot'] =
    compact ??
    (dropOutbox && context !== undefined && isNonEmptyArray(context['outbox'])
      ? { ...(doc.snapshot as object), context: { ...context, outbox: [] } }
      : doc.snapshot);
  if (doc.lastInboundAt !== undefined) stored['lastInboundAt'] = doc.lastInboundAt;
  if (!sameContact(context?.['contact'], doc.contact)) stored['contact'] = doc.contact;
  if (!sameVars(context?.['vars'], doc.vars)) stored['vars'] = doc.vars;
  if (doc.pending.length > 0) stored['pending'] = doc.pending;
  if (doc.heldSends.length > 0) stored['heldSends'] = doc.heldSends;
  if (doc.applied.length > 0) stored['applied'] = doc.applied;
  if (stack.length > 0) stored['stack'] = stack;
  if (doc.understood !== undefined) stored['understood'] = doc.understood;
  // Formats 5 and 6 say when their snapshot could not be stored compact (2 and 3 never
  // are; a null snapshot reads the same either way).
  if (
    compact === undefined &&
    doc.snapshot !== null &&
    (doc.understood !== undefined || journal !== undefined)
  )
    stored['whole'] = true;
  if (journal !== undefined) stored['journal'] = encodeJournal(journal, doc);
  return stored;
}

/** A format-4 document made whole: its snapshot expanded, its state put back. */
function expandDoc(value: Record<string, unknown>): Record<string, unknown> {
  // A plain copy then assignments: a spread literal with keys its source lacks is slow.
  const whole = { ...value };
  const snapshot = expandSnapshot(value['snapshot']);
  whole['snapshot'] = snapshot;
  const state = isObject(snapshot) ? snapshot['value'] : undefined;
  if (!Object.hasOwn(value, 'state') && typeof state === 'string') whole['state'] = state;
  return whole;
}

/**
 * The common stored shape, checked by hand (no effects pending or held): exactly what the
 * zod schema accepts for it, or undefined to let zod decide.
 */
function readCommon(value: unknown): ConversationDoc | undefined {
  if (!isObject(value)) return undefined;
  const v = value;
  if (
    typeof v['flowId'] !== 'string' ||
    !Number.isSafeInteger(v['flowVersion']) ||
    !Number.isSafeInteger(v['epoch']) ||
    !Number.isSafeInteger(v['lastEffectSeq']) ||
    typeof v['humanOwned'] !== 'boolean' ||
    typeof v['state'] !== 'string' ||
    typeof v['ended'] !== 'boolean' ||
    !emptyOrAbsent(v, 'pending') ||
    !emptyOrAbsent(v, 'heldSends') ||
    Object.hasOwn(v, 'stack') ||
    Object.hasOwn(v, 'understood')
  ) {
    return undefined;
  }
  const applied = readApplied(v['applied']);
  if (applied === undefined) return undefined;
  const lastInboundAt = v['lastInboundAt'];
  if (Object.hasOwn(v, 'lastInboundAt') && !Number.isFinite(lastInboundAt)) return undefined;
  const context = objectAt(v['snapshot'], 'context');
  const contact = readContact(Object.hasOwn(v, 'contact') ? v['contact'] : context?.['contact']);
  const vars = readVars(Object.hasOwn(v, 'vars') ? v['vars'] : context?.['vars']);
  if (contact === undefined || vars === undefined) return undefined;
  const doc: ConversationDoc = {
    flowId: v['flowId'],
    flowVersion: v['flowVersion'] as number,
    epoch: v['epoch'] as number,
    snapshot: v['snapshot'],
    pending: [],
    lastEffectSeq: v['lastEffectSeq'] as number,
    contact,
    humanOwned: v['humanOwned'],
    heldSends: [],
    state: v['state'],
    vars,
    ended: v['ended'],
    applied,
  };
  if (typeof lastInboundAt === 'number') doc.lastInboundAt = lastInboundAt;
  if (Object.hasOwn(v, 'journal')) {
    const journal = v['journal'];
    if (!Array.isArray(journal) || !journal.every(isObject)) return undefined;
    doc.journal = journal as ConversationDoc['journal'] & object;
  }
  return doc;
}

/** Absent (format 1, or nothing applied yet) reads as empty; anything but strings is not common. */
function readApplied(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string')) return undefined;
  return value;
}

function readContact(value: unknown): ConversationDoc['contact'] | undefined {
  if (!isObject(value)) return undefined;
  const { phone, id, name } = value;
  if (typeof phone !== 'string' || typeof id !== 'string' || typeof name !== 'string')
    return undefined;
  return { phone, id, name };
}

function readVars(value: unknown): ConversationDoc['vars'] | undefined {
  if (!isObject(value)) return undefined;
  const vars: ConversationDoc['vars'] = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (
      item === null ||
      typeof item === 'string' ||
      typeof item === 'boolean' ||
      (typeof item === 'number' && Number.isFinite(item))
    ) {
      vars[key] = item;
    } else {
      return undefined;
    }
  }
  return vars;
}

function sameContact(a: unknown, b: ConversationDoc['contact']): boolean {
  return isObject(a) && a['phone'] === b.phone && a['id'] === b.id && a['name'] === b.name;
}

/** Variables are flat (JSON scalars), so a shallow comparison is exact. */
function sameVars(a: unknown, b: Record<string, unknown>): boolean {
  if (a === b) return true;
  if (!isObject(a)) return false;
  const keys = Object.keys(b);
  if (Object.keys(a).length !== keys.length) return false;
  for (const key of keys) if (!Object.hasOwn(a, key) || !Object.is(a[key], b[key])) return false;
  return true;
}

function emptyOrAbsent(v: Record<string, unknown>, key: string): boolean {
  if (!Object.hasOwn(v, key)) return true;
  const list = v[key];
  return Array.isArray(list) && list.length === 0;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  const inner = value[key];
  return isObject(inner) ? inner : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
