import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { ConversationDoc } from '../../src/engine/conversation-doc.js';
import { compactSnapshot, expandSnapshot } from '../../src/engine/compact-snapshot.js';
import { STORED_DOC_VERSION, parseStoredDoc, toStoredDoc } from '../../src/engine/stored-doc.js';
import { compileFlow } from '../../src/flows/compile-flow.js';
import { defineFlow } from '../../src/flows/define-flow.js';
import { contact, send, stackFrame, viaJson } from './stored-doc-fixtures.js';

/** A compiled flow machine's context at its initial values (compile-flow.ts). */
function context(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    outbox: [],
    seq: 2,
    vars: {},
    ended: false,
    contact,
    attempts: 0,
    pending: null,
    timer: null,
    windows: [],
    lastError: null,
    failed: null,
    humanOwned: false,
    ...overrides,
  };
}

function snapshot(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    status: 'active',
    value: 'ask',
    historyValue: {},
    context: context(),
    children: {},
    ...overrides,
  };
}

function doc(overrides: Partial<ConversationDoc> = {}): ConversationDoc {
  return {
    flowId: 'f',
    flowVersion: 1,
    epoch: 1,
    snapshot: snapshot(),
    pending: [],
    lastEffectSeq: 2,
    contact,
    lastInboundAt: 1_000,
    humanOwned: false,
    heldSends: [],
    state: 'ask',
    vars: {},
    ended: false,
    applied: ['msg:m1'],
    ...overrides,
  };
}

const bytes = (value: unknown): number => JSON.stringify(value).length;

describe('compact stored snapshots (document format 4)', () => {
  it('should leave out what holds its initial value, and read the same document back', () => {
    const stored = toStoredDoc(doc(), false);
    expect(stored['v']).toBe(4);
    expect(STORED_DOC_VERSION).toBeGreaterThanOrEqual(4);
    expect(stored).not.toHaveProperty('state');
    expect(stored['snapshot']).toStrictEqual({ value: 'ask', context: { seq: 2, contact } });
    // The older form of the same document (format 2 wrote the snapshot whole).
    const older = { ...stored, v: 2, state: 'ask', snapshot: snapshot() };
    expect(bytes(stored)).toBeLessThan(bytes(older) * 0.65);
    expect(parseStoredDoc(viaJson(stored))).toStrictEqual({ status: 'valid', doc: doc() });
    expect(parseStoredDoc(viaJson(older))).toStrictEqual({ status: 'valid', doc: doc() });
  });

  it('should keep every field that differs from its initial value', () => {
    const busy = snapshot({
      status: 'done',
      output: { ok: true },
      value: { menu: 'pick' },
      historyValue: { menu: [{ id: 'pick' }] },
      children: { call: { src: 'x' } },
      context: context({
        outbox: [send],
        vars: { name: 'Ada', n: 2 },
        ended: true,
        attempts: 2,
        pending: 'req#1',
        timer: 'remind',
        windows: [[3, 'closed']],
        lastError: { code: 'x', message: 'y' },
        failed: 'oops',
        humanOwned: true,
        sendFailureSeq: 0,
        reminder: null,
      }),
    });
    const full = doc({
      snapshot: busy,
      state: 'menu.pick',
      vars: { name: 'Ada', n: 2 },
      humanOwned: true,
      ended: true,
    });
    const stored = toStoredDoc(full, false);
    expect(stored['v']).toBe(4);
    // A nested state value is not a name: the state is kept.
    expect(stored['state']).toBe('menu.pick');
    expect(stored['snapshot']).toStrictEqual(busy);
    expect(parseStoredDoc(viaJson(stored))).toStrictEqual({ status: 'valid', doc: full });
  });

  it('should leave a dropped outbox out, as the older form stored it empty', () => {
    const waiting = doc({
      snapshot: snapshot({ context: context({ outbox: [send] }) }),
      pending: [send],
      lastEffectSeq: 1,
    });
    const stored = viaJson(toStoredDoc(waiting, true)) as Record<string, unknown>;
    expect(stored['snapshot']).toStrictEqual({ value: 'ask', context: { seq: 2, contact } });
    expect(parseStoredDoc(stored)).toStrictEqual({
      status: 'valid',
      doc: { ...waiting, snapshot: snapshot() },
    });
  });

  it('should store a snapshot of any other shape whole, and add nothing to it on reading', () => {
    const { attempts: _attempts, ...partial } = context();
    const other = doc({ snapshot: snapshot({ context: partial }) });
    const stored = toStoredDoc(other, false);
    expect(stored['v']).toBe(2);
    expect(stored['state']).toBe('ask');
    expect(stored['snapshot']).toBe(other.snapshot);
    const read = parseStoredDoc(viaJson(stored));
    expect(read).toStrictEqual({ status: 'valid', doc: other });
    expect(compactSnapshot({ value: 'a', context: context() }, false)).toBeUndefined();
    // An own `__proto__` field (JSON can make one) is not compacted at all.
    const proto = JSON.parse(JSON.stringify(snapshot()).replace('"seq"', '"__proto__":{},"seq"'));
    expect(compactSnapshot(proto, false)).toBeUndefined();
    expect(compactSnapshot(null, false)).toBeUndefined();
    expect(compactSnapshot({ ...snapshot(), context: 'x' }, false)).toBeUndefined();
  });

  it('should give each reading its own objects and leave the stored value as it was', () => {
    const stored = viaJson(toStoredDoc(doc(), false));
    const before = viaJson(stored);
    const first = parseStoredDoc(stored);
    const second = parseStoredDoc(stored);
    if (first.status !== 'valid' || second.status !== 'valid') throw new Error('invalid');
    const ctx = (d: ConversationDoc): { outbox: unknown[]; vars: Record<string, unknown> } =>
      (d.snapshot as { context: { outbox: unknown[]; vars: Record<string, unknown> } }).context;
    ctx(first.doc).outbox.push(send);
    ctx(first.doc).vars['x'] = 1;
    expect(ctx(second.doc)).toMatchObject({ outbox: [], vars: {} });
    expect(stored).toStrictEqual(before);
    expect(expandSnapshot('x')).toBe('x');
  });

  it('should keep a sub-flow stack in format 4 and read it back', () => {
    const frame = stackFrame(snapshot());
    const withStack = doc({ stack: [frame] });
    const stored = toStoredDoc(withStack, false);
    expect(stored['v']).toBe(4);
    expect(stored['stack']).toStrictEqual([frame]);
    expect(parseStoredDoc(viaJson(stored))).toStrictEqual({ status: 'valid', doc: withStack });
  });

  it('should refuse a format-4 document whose state cannot be found', () => {
    const stored = { ...toStoredDoc(doc(), false), snapshot: { value: { a: 'b' }, context: {} } };
    expect(parseStoredDoc(viaJson(stored))).toMatchObject({ status: 'invalid' });
  });

  it("should compact a compiled flow's real snapshot exactly (its context fields are the defaults')", () => {
    const flow = compileFlow(
      defineFlow({
        id: 'ask-name',
        version: 1,
        start: 'a',
        states: {
          a: { ask: { prompt: 'Name?', var: 'name', goto: 'b' } },
          b: { ask: { prompt: 'Hi {{name}}', var: 'x', goto: 'a' } },
        },
      }),
    );
    const actor = createActor(flow.machine, { input: { conversationId: 'c1', contact } }).start();
    const persisted = viaJson(actor.getPersistedSnapshot()) as Record<string, unknown>;
    actor.stop();
    const compact = compactSnapshot(persisted, false);
    expect(compact).toBeDefined();
    expect(bytes(compact)).toBeLessThan(bytes(persisted) * 0.7);
    const expanded = expandSnapshot(viaJson(compact));
    expect(expanded).toEqual(persisted);
    // In the order XState and the machine write them: restored objects get the shapes
    // (hidden classes) that fresh ones have (out of order, a restore cost ~15% more CPU).
    const contextOf = (s: unknown): object => (s as { context: object }).context;
    expect(Object.keys(expanded as object)).toEqual(Object.keys(persisted));
    expect(Object.keys(contextOf(expanded))).toEqual(Object.keys(contextOf(persisted)));
    const restored = createActor(flow.machine, {
      snapshot: expanded as never,
      input: { conversationId: 'c1', contact },
    }).start();
    expect(restored.getSnapshot().value).toEqual((persisted as { value: unknown }).value);
    expect(viaJson(restored.getPersistedSnapshot())).toEqual(persisted);
    restored.stop();
  });
});
