import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JournalEntrySchema, type JournalEntry } from '../../src/journal/journal-entry.js';
import { decodeJournal, encodeJournal } from '../../src/journal/stored-journal.js';

const base = { flowId: 'support', epoch: 1_795_859_722_652 };
const t = base.epoch;

/** One entry of every kind with every field set (keys checked against the schemas below). */
const full: Record<JournalEntry['kind'], JournalEntry> = {
  inbound: {
    kind: 'inbound',
    at: t,
    messageId: 'm_1',
    type: 'interactive',
    text: 'Remind me',
    optionId: 'remind',
    ignored: 'human_owned',
  },
  understood: {
    kind: 'understood',
    at: t + 1,
    messageId: 'm_1',
    source: 'llm',
    intent: 'order',
    confidence: 0.875,
    matched: true,
    slots: ['size', 'topping'],
  },
  transition: {
    kind: 'transition',
    at: t + 2,
    from: 'welcome',
    to: 'ask.name',
    event: 'inbound.message',
    flowId: 'billing',
  },
  vars: { kind: 'vars', at: t + 2, set: { name: 'Ada', n: 2, ok: true, gone: null }, unset: ['x'] },
  handler: {
    kind: 'handler',
    at: t + 40,
    handler: 'lookup',
    requestId: 'c1:3',
    status: 'error',
    outcome: 'found',
    durationMs: 12.5,
    error: 'boom',
  },
  send: {
    kind: 'send',
    at: t + 41,
    seq: 3,
    sendId: 'conv_1:1:3',
    contentType: 'template',
    text: 'hello_world',
    outcome: 'rejected',
    messageId: 'wamid_1',
    code: 'window_closed',
    status: 'delivered',
    fallback: true,
  },
  timer: { kind: 'timer', at: t + 41, action: 'set', name: 'remind', dueAt: t + 90_000_041 },
  handoff: { kind: 'handoff', at: t + 50, change: 'taken', by: 'send', reason: '409' },
  reconcile: {
    kind: 'reconcile',
    at: t + 5_000,
    sendId: 'conv_1:1:3',
    seq: 3,
    attempt: 2,
    result: 'resent',
    messageId: 'wamid_2',
    code: 'rate_limited',
  },
  lifecycle: { kind: 'lifecycle', at: t + 5_001, change: 'started', flowId: 'other', epoch: t - 7 },
  error: {
    kind: 'error',
    at: t + 5_002,
    source: 'handler',
    code: 'timeout',
    message: 'handler lookup timed out',
    state: 'lookup',
  },
};

/** The same entries with only their required fields. */
const bare: JournalEntry[] = [
  { kind: 'inbound', at: t, messageId: 'm_1', type: 'text' },
  { kind: 'understood', at: t, messageId: 'm_1', source: 'builtin', matched: false },
  { kind: 'transition', at: t, from: '', to: 'a', event: 'custom.event', flowId: 'support' },
  { kind: 'vars', at: t, set: {} },
  { kind: 'handler', at: t, handler: 'h', requestId: 'r', status: 'done', durationMs: 0 },
  { kind: 'send', at: t, seq: 0, contentType: 'text', outcome: 'accepted' },
  { kind: 'timer', at: t, action: 'fired', name: 'n' },
  { kind: 'handoff', at: t, change: 'released', by: 'api' },
  { kind: 'reconcile', at: t, sendId: 's', seq: 1, attempt: 0, result: 'gave_up' },
  { kind: 'lifecycle', at: t, change: 'ended', flowId: 'support' },
  { kind: 'error', at: t, source: 'flow', message: 'm' },
];

const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

function roundTrip(entries: JournalEntry[], doc = base): JournalEntry[] {
  const stored = viaJson(encodeJournal(entries, doc)) as unknown[];
  const decoded = decodeJournal(stored, doc);
  expect(decoded.errors).toEqual([]);
  return decoded.entries;
}

function schemaOf(kind: JournalEntry['kind']): z.ZodObject {
  const schema = JournalEntrySchema.options.find((o) => o.shape.kind.value === kind);
  if (schema === undefined) throw new Error(kind);
  return schema;
}

describe('encodeJournal / decodeJournal', () => {
  it('should store every kind with every field as an array and read the same entries back', () => {
    for (const entry of Object.values(full)) {
      // Every field of the kind's schema is set here, so every field has a place in the table.
      expect(Object.keys(entry).sort()).toEqual(Object.keys(schemaOf(entry.kind).shape).sort());
      expect(JournalEntrySchema.safeParse(entry).success).toBe(true);
    }
    const entries = Object.values(full);
    const stored = encodeJournal(entries, base);
    expect(stored.every((item) => Array.isArray(item))).toBe(true);
    expect(roundTrip(entries)).toEqual(entries);
    expect(roundTrip(bare)).toEqual(bare);
    expect((encodeJournal(bare, base) as unknown[][]).every((e) => e.length <= 6)).toBe(true);
  });

  it('should read a format-6 journal as it was first written (the codes are the stored format)', () => {
    // Written by the first version of the codec: a reordered list or table reads it wrong.
    const written: unknown[] = [
      [0, 0, 'm_1', 6, 'Remind me', 'remind', 0],
      [1, 1, 'm_1', 1, true, 'order', 0.875, ['size', 'topping']],
      [2, 1, 'welcome', 'ask.name', 0, 'billing'],
      [3, 0, { name: 'Ada', n: 2, ok: true, gone: null }, ['x']],
      [4, 38, 'lookup', 'c1:3', 1, 12.5, 'found', 'boom'],
      [5, 1, 3, 1, 1, 'hello_world', 'wamid_1', 'window_closed', 1, true, 'conv_1:1:3'],
      [6, 0, 0, 'remind', 90000000],
      [7, 9, 0, 1, '409'],
      [8, 4950, 'conv_1:1:3', 3, 2, 1, 'wamid_2', 'rate_limited'],
      [9, 1, 0, -7, 'other'],
      [10, 1, 3, 'handler lookup timed out', 'timeout', 'lookup'],
    ];
    expect(decodeJournal(written, base)).toEqual({ entries: Object.values(full), errors: [] });
    expect(encodeJournal(Object.values(full), base)).toEqual(written);
  });

  it('should store every value of every enumeration as its code', () => {
    for (const entry of Object.values(full)) {
      const shape = schemaOf(entry.kind).shape;
      for (const [key, field] of Object.entries(shape)) {
        const inner = field instanceof z.ZodExactOptional ? field.unwrap() : field;
        if (!(inner instanceof z.ZodEnum) || key === 'kind') continue;
        for (const value of inner.options as string[]) {
          const changed = { ...entry, [key]: value };
          const [stored] = encodeJournal([changed], base);
          expect(Array.isArray(stored), `${entry.kind}.${key} = ${value}`).toBe(true);
          expect((stored as unknown[]).includes(value)).toBe(false);
          expect(roundTrip([changed])).toEqual([changed]);
        }
      }
    }
  });

  it('should store times as deltas, the first from the epoch, and leave out the flow id and epoch of the document', () => {
    const entries: JournalEntry[] = [
      { kind: 'inbound', at: t + 5, messageId: 'm', type: 'text', text: 'hi' },
      { kind: 'lifecycle', at: t + 9, change: 'started', flowId: 'support', epoch: t },
      {
        kind: 'transition',
        at: t + 9,
        from: '',
        to: 'a',
        event: 'inbound.message',
        flowId: 'support',
      },
      { kind: 'timer', at: t + 12, action: 'set', name: 'r', dueAt: t + 1012 },
      { kind: 'inbound', at: t + 3, messageId: 'm2', type: 'sticker' },
    ];
    expect(encodeJournal(entries, base)).toEqual([
      [0, 5, 'm', 0, 'hi'],
      [9, 4, 0, 0],
      [2, 0, '', 'a', 0],
      [6, 3, 0, 'r', 1000],
      // A clock that went back: a negative delta; an uncommon type as its string.
      [0, -9, 'm2', 'sticker'],
    ]);
    expect(roundTrip(entries)).toEqual(entries);
    // Another flow's id (a sub-flow's entries) is kept; an absent optional field before a set one is null.
    const sub: JournalEntry = {
      kind: 'lifecycle',
      at: t,
      change: 'subflow_started',
      flowId: 'kyc',
    };
    expect(encodeJournal([sub], base)).toEqual([[9, 0, 2, null, 'kyc']]);
    expect(roundTrip([sub])).toEqual([sub]);
  });

  it('should take at most 45% of the entry objects on the benchmark conversation', () => {
    // The four entries of the bench's conversation (BENCH_ONLY=rss: "journal on: 4.0 entries").
    const epoch = 1_795_859_722_652;
    const entries: JournalEntry[] = [
      { kind: 'inbound', messageId: 'm_12345', type: 'text', text: 'hi', at: epoch },
      { kind: 'lifecycle', change: 'started', flowId: 'bench-echo', epoch, at: epoch + 5 },
      {
        kind: 'transition',
        from: '',
        to: 'listen',
        event: 'inbound.message',
        flowId: 'bench-echo',
        at: epoch + 5,
      },
      {
        kind: 'send',
        seq: 1,
        contentType: 'text',
        text: 'Say something.',
        outcome: 'accepted',
        messageId: 'wamid_1',
        at: epoch + 7,
      },
    ];
    const doc = { flowId: 'bench-echo', epoch };
    const bytes = (journal: unknown): number =>
      Buffer.byteLength(`,"journal":${JSON.stringify(journal)}`);
    const before = bytes(entries);
    const after = bytes(encodeJournal(entries, doc));
    expect(before).toBe(445);
    expect(after).toBe(104);
    expect(after / before).toBeLessThanOrEqual(0.45);
    expect(roundTrip(entries, doc)).toEqual(entries);
  });

  it('should store an entry the table cannot hold exactly as the object it is, and keep the deltas around it', () => {
    const odd: unknown[] = [
      { kind: 'timer', at: t + 0.5, action: 'set', name: 'fractional' },
      { kind: 'send', at: t + 1, seq: 1, contentType: 'text', outcome: 'accepted', extra: 1 },
      { kind: 'send', at: t + 2 },
      { kind: 'future', at: t + 3, what: 'a newer kind' },
      { kind: 'timer', at: t + 4, action: 'paused', name: 'n' },
      { kind: 'transition', at: t + 5, from: 'a', to: 'b', event: 'e' },
      {
        kind: 'handler',
        at: t + 6,
        handler: 'h',
        requestId: 'r',
        status: 'done',
        durationMs: 'slow',
      },
    ];
    const entries = [
      ...(odd as JournalEntry[]),
      { kind: 'timer', at: t + 10, action: 'fired', name: 'n' } as JournalEntry,
    ];
    const stored = encodeJournal(entries, base);
    expect(stored.slice(0, odd.length)).toEqual(odd);
    expect(stored.at(-1)).toEqual([6, 4, 1, 'n']);
    expect(roundTrip(entries)).toEqual(entries);
  });

  it('should leave out a stored entry that does not decode, saying which and why, and read the rest', () => {
    const stored: unknown[] = [
      [0, 5, 'm', 0],
      [42, 1],
      [6, 1, 7, 'n'],
      [5, 'x', 1, 0, 0],
      [2, 1, 'a'],
      [6, 2, 1, 'n', 1, 'extra'],
      [1, 1, 'm', 9, true],
      [3, 1, { a: [1] }],
      'text',
      null,
      [6, 3, 1, 'n'],
    ];
    const { entries, errors } = decodeJournal(stored, base);
    // The unknown kind's and the bad enum's times still anchor the next deltas: 5 + 1 + 1 + ... + 3.
    expect(entries).toEqual([
      { kind: 'inbound', at: t + 5, messageId: 'm', type: 'text' },
      { kind: 'timer', at: t + 5 + 1 + 1 + 1 + 2 + 1 + 1 + 3, action: 'fired', name: 'n' },
    ]);
    expect(errors).toEqual([
      'journal entry 1 [42,1]: kind code 42 is unknown',
      'journal entry 2 [6,1,7,"n"]: timer.action 7 is not a code below 3',
      'journal entry 3 [5,"x",1,0,0]: its time delta "x" is not an integer',
      'journal entry 4 [2,1,"a"]: transition.to is missing',
      'journal entry 5 [6,2,1,"n",1,"extra"]: timer has 4 fields, at most 3',
      'journal entry 6 [1,1,"m",9,true]: understood.source 9 is not a string or a code below 3',
      'journal entry 7 [3,1,{"a":[1]}]: vars.set {"a":[1]} is not an object of scalars',
      'journal entry 8: "text" is not an entry',
      'journal entry 9: null is not an entry',
    ]);
  });
});
