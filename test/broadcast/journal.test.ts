import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BroadcastJournal, JournalError } from '../../src/broadcast/journal.js';

const identity = { template: 'welcome', language: 'en_US', params: [] };

function path(): string {
  return join(mkdtempSync(join(tmpdir(), 'journal-')), 'j.jsonl');
}

describe('BroadcastJournal', () => {
  it('should replay intents and outcomes into contact states after a reopen', () => {
    const file = path();
    const j = BroadcastJournal.open(file, identity, 1_000);
    j.append({ type: 'intent', phone: '+1', at: 1_000 });
    j.append({ type: 'outcome', phone: '+1', at: 1_010, outcome: 'accepted', messageId: 'm1' });
    j.append({ type: 'intent', phone: '+2', at: 1_020 });
    j.append({
      type: 'outcome',
      phone: '+2',
      at: 1_030,
      outcome: 'rejected',
      code: 'contact_opted_out',
    });
    j.append({ type: 'intent', phone: '+3', at: 1_040 });
    j.append({ type: 'intent', phone: '+4', at: 1_050 });
    j.append({ type: 'outcome', phone: '+4', at: 1_060, outcome: 'unknown', code: 'timeout' });
    j.append({ type: 'intent', phone: '+5', at: 1_070 });
    j.append({ type: 'outcome', phone: '+5', at: 1_080, outcome: 'retry', code: 'rate_limited' });
    j.close();
    const again = BroadcastJournal.open(file, identity, 2_000);
    expect(again.resumed).toBe(true);
    expect(again.state('+1')).toEqual({ status: 'accepted', messageId: 'm1' });
    expect(again.state('+2')).toEqual({ status: 'rejected', code: 'contact_opted_out' });
    expect(again.state('+3')).toEqual({ status: 'in_doubt', since: 1_040, orphan: true });
    expect(again.state('+4')).toEqual({ status: 'in_doubt', since: 1_050, orphan: false });
    expect(again.state('+5')).toBeUndefined();
    expect(again.sendsSince(1_040)).toEqual([
      { at: 1_040, doneAt: undefined },
      { at: 1_050, doneAt: 1_060 },
      { at: 1_070, doneAt: 1_080 },
    ]);
    again.append({ type: 'reconciled', phone: '+3', at: 2_000, found: false, resend: true });
    again.append({ type: 'reconciled', phone: '+4', at: 2_000, found: false });
    expect(again.state('+3')).toBeUndefined();
    expect(again.state('+4')).toEqual({ status: 'unknown', since: 1_050 });
    again.close();
  });

  it('should skip a line torn by a crash mid-write', () => {
    const file = path();
    const j = BroadcastJournal.open(file, identity, 1_000);
    j.append({ type: 'intent', phone: '+1', at: 1_000 });
    j.close();
    appendFileSync(file, '{"type":"intent","phone":"+2","a');
    const again = BroadcastJournal.open(file, identity, 2_000);
    expect(again.damagedLines).toBe(1);
    expect(again.state('+2')).toBeUndefined();
    expect(again.state('+1')?.status).toBe('in_doubt');
    again.close();
    // The torn line is ended: the next record does not glue to it.
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.at(-2)).toBe('{"type":"intent","phone":"+2","a');
    expect(lines.at(-1)).toMatch(/^\{"type":"run","at":2000,/);
  });

  it('should refuse the journal of another broadcast', () => {
    const file = path();
    BroadcastJournal.open(file, identity, 1_000).close();
    expect(() => BroadcastJournal.open(file, { ...identity, template: 'sale' }, 2_000)).toThrow(
      JournalError,
    );
  });
});
