import { describe, expect, it } from 'vitest';
import type { ConversationDoc, UnderstoodRecord } from '../../src/engine/conversation-doc.js';
import { STORED_DOC_VERSION, parseStoredDoc, toStoredDoc } from '../../src/engine/stored-doc.js';
import { initialRouting } from '../../src/flows/machine-context.js';
import { contact, viaJson } from './stored-doc-fixtures.js';

/** A compiled flow machine's snapshot (compactable) or a hand-written one (stored whole). */
function snapshot(compactable: boolean): Record<string, unknown> {
  // Compactable: the routing fields at their initial values, which the compact form leaves out.
  const routing = compactable ? initialRouting() : {};
  return {
    status: 'active',
    value: 'askQty',
    historyValue: {},
    context: { outbox: [], seq: 2, vars: { qty: 2 }, ended: false, contact, ...routing },
    children: {},
  };
}

function doc(compactable: boolean, understood?: UnderstoodRecord): ConversationDoc {
  return {
    flowId: 'pizza',
    flowVersion: 1,
    epoch: 1,
    snapshot: snapshot(compactable),
    pending: [],
    lastEffectSeq: 2,
    contact,
    lastInboundAt: 1_000,
    humanOwned: false,
    heldSends: [],
    state: 'askQty',
    vars: { qty: 2 },
    ended: false,
    applied: ['msg:m1'],
    ...(understood === undefined ? {} : { understood }),
  };
}

const done: UnderstoodRecord = {
  messageId: 'm2',
  status: 'done',
  result: { source: 'llm', intent: { id: 'order', confidence: 0.9 }, slots: { qty: { value: 3 } } },
  threshold: 0.6,
};

describe('stored documents with an understanding (format 5)', () => {
  it('should write format 5 only while an understanding is recorded, and read it back', () => {
    expect(STORED_DOC_VERSION).toBeGreaterThanOrEqual(5);
    for (const compactable of [true, false]) {
      const plain = toStoredDoc(doc(compactable), false);
      expect(plain['v']).toBe(compactable ? 4 : 2);
      for (const record of [done, { messageId: 'm3', status: 'started' } as const]) {
        const withRecord = doc(compactable, record);
        const stored = toStoredDoc(withRecord, false);
        expect(stored['v']).toBe(5);
        expect(stored['understood']).toEqual(record);
        // A snapshot that could not be stored compact says so; a compact one leaves it out.
        expect(stored['whole']).toBe(compactable ? undefined : true);
        expect(parseStoredDoc(viaJson(stored))).toEqual({ status: 'valid', doc: withRecord });
      }
    }
  });

  it('should read a format-4 document written before understandings were recorded', () => {
    // As the format-4 writer stored it: compact snapshot, no state, no `understood`.
    const older = {
      v: 4,
      flowId: 'pizza',
      flowVersion: 1,
      epoch: 1,
      lastEffectSeq: 2,
      humanOwned: false,
      ended: false,
      snapshot: { value: 'askQty', context: { seq: 2, vars: { qty: 2 }, contact } },
      lastInboundAt: 1_000,
      applied: ['msg:m1'],
    };
    expect(parseStoredDoc(older)).toEqual({ status: 'valid', doc: doc(true) });
  });

  it('should refuse a newer format, and a format-5 record of the wrong shape', () => {
    const newer = { ...toStoredDoc(doc(true, done), false), v: STORED_DOC_VERSION + 1 };
    expect(parseStoredDoc(viaJson(newer))).toEqual({
      status: 'invalid',
      error: expect.stringMatching(
        `document format ${STORED_DOC_VERSION + 1} .*newer switchboard.*reads up to ${STORED_DOC_VERSION}`,
      ) as unknown,
    });
    const bad = { ...toStoredDoc(doc(true, done), false), understood: { status: 'maybe' } };
    const parsed = parseStoredDoc(viaJson(bad));
    expect(parsed.status).toBe('invalid');
    expect(parsed.status === 'invalid' ? parsed.error : '').toMatch(/understood/);
  });
});
