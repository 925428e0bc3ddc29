import { describe, expect, it } from 'vitest';
import type { ConversationDoc } from '../../src/engine/conversation-doc.js';
import { readFileSync } from 'node:fs';
import { STORED_DOC_VERSION, parseStoredDoc, toStoredDoc } from '../../src/engine/stored-doc.js';
import { contact, send, stackFrame, viaJson } from './stored-doc-fixtures.js';

function doc(overrides: Partial<ConversationDoc> = {}): ConversationDoc {
  return {
    flowId: 'f',
    flowVersion: 1,
    epoch: 1,
    snapshot: {
      status: 'active',
      value: 'ask',
      context: { outbox: [send], seq: 2, vars: { name: 'Ada', n: 2 }, contact, ended: false },
      children: {},
      historyValue: {},
    },
    pending: [],
    lastEffectSeq: 2,
    contact,
    lastInboundAt: 1_000,
    humanOwned: false,
    heldSends: [],
    state: 'ask',
    vars: { name: 'Ada', n: 2 },
    ended: false,
    applied: [],
    ...overrides,
  };
}

describe('toStoredDoc / parseStoredDoc', () => {
  it('should leave out what the snapshot holds and read the same document back', () => {
    const stored = toStoredDoc(doc(), false);
    expect(stored).not.toHaveProperty('contact');
    expect(stored).not.toHaveProperty('vars');
    expect(stored).not.toHaveProperty('pending');
    expect(parseStoredDoc(viaJson(stored))).toEqual({ status: 'valid', doc: doc() });
  });

  it('should keep a contact or variables that differ from the snapshot', () => {
    const changed = doc({ contact: { ...contact, name: 'Ada L.' }, vars: { name: 'Ada' } });
    const stored = toStoredDoc(changed, false);
    expect(stored['contact']).toEqual(changed.contact);
    expect(stored['vars']).toEqual(changed.vars);
    expect(parseStoredDoc(viaJson(stored))).toEqual({ status: 'valid', doc: changed });
  });

  it('should keep pending and held effects, and the outbox unless told to drop it', () => {
    const waiting = doc({ pending: [send], heldSends: [send], lastEffectSeq: 1 });
    const stored = toStoredDoc(waiting, false);
    expect(parseStoredDoc(viaJson(stored))).toEqual({ status: 'valid', doc: waiting });
    const dropped = viaJson(toStoredDoc(doc(), true)) as { snapshot: { context: object } };
    expect(dropped.snapshot.context).toMatchObject({ outbox: [], seq: 2 });
  });

  it('should read documents written with every field (the older form)', () => {
    const full = viaJson(doc());
    expect(parseStoredDoc(full)).toEqual({ status: 'valid', doc: doc() });
    expect(parseStoredDoc(viaJson(doc({ snapshot: null })))).toEqual({
      status: 'valid',
      doc: doc({ snapshot: null }),
    });
  });

  it('should reject invalid documents with a message', () => {
    const bad = [
      { ...(viaJson(doc()) as object), epoch: 'one' },
      { ...(viaJson(doc()) as object), vars: { x: { nested: true } } },
      { ...(viaJson(doc()) as object), pending: [{ kind: 'nope', seq: 1 }] },
      { ...(viaJson(doc()) as object), lastInboundAt: 'yesterday' },
      // Contact and vars left out, but no snapshot to find them in.
      viaJson({ ...toStoredDoc(doc(), false), snapshot: null }),
      viaJson({ ...toStoredDoc(doc(), false), snapshot: { context: {} } }),
    ];
    for (const value of bad) {
      const result = parseStoredDoc(value);
      expect(result.status).toBe('invalid');
    }
    expect(parseStoredDoc(null)).toMatchObject({ status: 'invalid', error: expect.any(String) });
  });

  it('should write the format version and the applied items, and read them back', () => {
    const applied = doc({ applied: ['msg:m1', 'handler:c1:1:3'] });
    const stored = toStoredDoc(applied, false);
    // Format 2 unless a sub-flow stack is stored (format 3, refused by older workers).
    expect(stored['v']).toBe(2);
    expect(stored['applied']).toEqual(['msg:m1', 'handler:c1:1:3']);
    expect(parseStoredDoc(viaJson(stored))).toEqual({ status: 'valid', doc: applied });
    expect(toStoredDoc(doc(), false)).not.toHaveProperty('applied');
    const frame = stackFrame({ value: 'x' });
    const withStack = doc({ stack: [frame] });
    const storedStack = toStoredDoc(withStack, false);
    expect(storedStack['v']).toBe(3);
    expect(storedStack['stack']).toEqual([frame]);
    expect(parseStoredDoc(viaJson(storedStack))).toEqual({ status: 'valid', doc: withStack });
  });

  it('should read a document written by the first format (fixture from wave 1) as applied-nothing', () => {
    const fixture = JSON.parse(
      readFileSync(new URL('./fixtures/doc-v1-welcome.json', import.meta.url), 'utf8'),
    ) as { document: Record<string, unknown> };
    expect(fixture.document).not.toHaveProperty('v');
    const result = parseStoredDoc(fixture.document);
    expect(result).toMatchObject({
      status: 'valid',
      doc: { flowId: 'e2e-demo', state: 'welcome', applied: [], pending: [], epoch: 1 },
    });
    // The same document passed through zod (the slow path) reads the same.
    const slow = parseStoredDoc({ ...fixture.document, heldSends: [], pending: [], v: 1 });
    expect(slow).toEqual(result);
  });

  it('should refuse a document of a newer format, saying so', () => {
    const newer = { ...toStoredDoc(doc(), false), v: STORED_DOC_VERSION + 1 };
    expect(parseStoredDoc(viaJson(newer))).toEqual({
      status: 'invalid',
      error: expect.stringContaining('newer switchboard') as unknown,
    });
  });
});
