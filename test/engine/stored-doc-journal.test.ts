import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConversationDoc, UnderstoodRecord } from '../../src/engine/conversation-doc.js';
import { STORED_DOC_VERSION, parseStoredDoc, toStoredDoc } from '../../src/engine/stored-doc.js';
import { initialRouting } from '../../src/flows/machine-context.js';
import type { JournalEntry } from '../../src/journal/journal-entry.js';
import { contact, stackFrame, viaJson } from './stored-doc-fixtures.js';

const EPOCH = 1_795_859_722_652;

const journal: JournalEntry[] = [
  { kind: 'inbound', at: EPOCH, messageId: 'm1', type: 'text', text: 'two please' },
  { kind: 'lifecycle', at: EPOCH + 4, change: 'started', flowId: 'pizza', epoch: EPOCH },
  {
    kind: 'transition',
    at: EPOCH + 4,
    from: '',
    to: 'askQty',
    event: 'inbound.message',
    flowId: 'pizza',
  },
  { kind: 'vars', at: EPOCH + 4, set: { qty: 2 } },
  {
    kind: 'send',
    at: EPOCH + 9,
    seq: 1,
    contentType: 'text',
    text: 'How many?',
    outcome: 'accepted',
    messageId: 'wamid_1',
    status: 'read',
  },
];

function doc(compactable: boolean, more: Partial<ConversationDoc> = {}): ConversationDoc {
  return {
    flowId: 'pizza',
    flowVersion: 1,
    epoch: EPOCH,
    snapshot: {
      status: 'active',
      value: 'askQty',
      historyValue: {},
      context: {
        outbox: [],
        seq: 2,
        vars: { qty: 2 },
        ended: false,
        contact,
        ...(compactable ? initialRouting() : {}),
      },
      children: {},
    },
    pending: [],
    lastEffectSeq: 2,
    contact,
    lastInboundAt: EPOCH,
    humanOwned: false,
    heldSends: [],
    state: 'askQty',
    vars: { qty: 2 },
    ended: false,
    applied: ['msg:m1'],
    ...more,
  };
}

const understood: UnderstoodRecord = { messageId: 'm1', status: 'started' };

/** Documents of main before the compact journal (test/fixtures/journal/README.md). */
const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/journal/object-journal-docs.json'), 'utf8'),
) as {
  conversationIds: string[];
  sqliteDocs: Record<string, { value: Record<string, unknown> & { journal: unknown[] } }>;
};

describe('stored documents with a compact journal (format 6)', () => {
  it('should write format 6 whenever there is a journal, with arrays for entries, and read the same document back', () => {
    expect(STORED_DOC_VERSION).toBe(6);
    const variants: Partial<ConversationDoc>[] = [
      {},
      { understood },
      { stack: [stackFrame({ value: 'x' })] },
      { understood, stack: [stackFrame({ value: 'x' })], pending: [], ended: true },
    ];
    for (const compactable of [true, false]) {
      for (const more of variants) {
        const withJournal = doc(compactable, { ...more, journal });
        const stored = toStoredDoc(withJournal, false);
        expect(stored['v']).toBe(6);
        expect((stored['journal'] as unknown[]).every((e) => Array.isArray(e))).toBe(true);
        // A snapshot that could not be stored compact says so (format 6 is compact by default).
        expect(stored['whole']).toBe(compactable ? undefined : true);
        expect(parseStoredDoc(viaJson(stored))).toEqual({ status: 'valid', doc: withJournal });
        // Without a journal the format is what it was: 2 to 5.
        const without = toStoredDoc(doc(compactable, more), false);
        expect(without['v']).toBeLessThanOrEqual(5);
        expect(without).not.toHaveProperty('journal');
      }
    }
    expect(toStoredDoc(doc(true, { journal: [] }), false)['v']).toBe(4);
    // An ended conversation (no snapshot) needs no `whole`.
    const ended = doc(true, { snapshot: null, ended: true, state: 'done', journal });
    const storedEnded = toStoredDoc(ended, false);
    expect(storedEnded).toMatchObject({ v: 6, state: 'done', snapshot: null });
    expect(storedEnded).not.toHaveProperty('whole');
    expect(parseStoredDoc(viaJson(storedEnded))).toEqual({ status: 'valid', doc: ended });
  });

  it('should make a worker that reads up to format 5 refuse it (its version check)', () => {
    const stored = viaJson(toStoredDoc(doc(true, { journal }), false)) as { v: number };
    // The rule of every worker before this format: `v > 5` is "written by a newer switchboard".
    const readsUpTo = 5;
    expect(stored.v).toBeGreaterThan(readsUpTo);
    const newer = { ...stored, v: STORED_DOC_VERSION + 1 };
    expect(parseStoredDoc(newer)).toEqual({
      status: 'invalid',
      error: `document format ${STORED_DOC_VERSION + 1} was written by a newer switchboard (this one reads up to 6); upgrade every worker`,
    });
  });

  it('should read the object journal of documents written by main (formats 2 and 4) exactly as stored, and store it compact on the next write', () => {
    const formats = new Set<unknown>();
    for (const id of fixture.conversationIds) {
      const value = fixture.sqliteDocs[id]?.value;
      if (value === undefined) throw new Error(id);
      formats.add(value['v']);
      const read = parseStoredDoc(viaJson(value));
      if (read.status !== 'valid') throw new Error(read.error);
      expect(read).not.toHaveProperty('journalErrors');
      expect(read.doc.journal).toEqual(value.journal);
      const rewritten = toStoredDoc(read.doc, false);
      expect(rewritten['v']).toBe(6);
      expect((rewritten['journal'] as unknown[]).every((e) => Array.isArray(e))).toBe(true);
      expect(JSON.stringify(rewritten['journal']).length).toBeLessThan(
        JSON.stringify(value.journal).length * 0.45,
      );
      expect(parseStoredDoc(viaJson(rewritten))).toEqual({ status: 'valid', doc: read.doc });
    }
    expect([...formats].sort()).toEqual([2, 4]);
  });

  it('should read a format-5 document with an object journal as before', () => {
    const older = {
      ...(viaJson(toStoredDoc(doc(true, { understood }), false)) as object),
      journal: viaJson(journal),
    };
    expect(older).toMatchObject({ v: 5 });
    expect(parseStoredDoc(older)).toEqual({
      status: 'valid',
      doc: doc(true, { understood, journal }),
    });
  });

  it('should leave out an entry that does not decode, naming it, and read the rest of the document', () => {
    const stored = viaJson(toStoredDoc(doc(true, { journal }), false)) as {
      journal: unknown[];
    };
    const damaged = [...stored.journal];
    damaged[3] = [3, 0, 'not an object'];
    const read = parseStoredDoc({ ...stored, journal: damaged });
    expect(read).toEqual({
      status: 'valid',
      doc: doc(true, { journal: journal.filter((_, i) => i !== 3) }),
      journalErrors: [
        'journal entry 3 [3,0,"not an object"]: vars.set "not an object" is not an object of scalars',
      ],
    });
    // The journal itself of the wrong type is the document's error, as in every format.
    expect(parseStoredDoc({ ...stored, journal: 'x' })).toMatchObject({ status: 'invalid' });
  });
});
