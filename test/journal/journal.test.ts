import { describe, expect, it } from 'vitest';
import { DeliveryNotes } from '../../src/journal/delivery-notes.js';
import {
  boundJournal,
  DEFAULT_JOURNAL,
  MAX_ENTRY_BYTES,
  previewText,
  resolveJournalOptions,
} from '../../src/journal/journal.js';
import type { JournalEntry } from '../../src/journal/journal-entry.js';
import { PREVIEW_CHARS } from '../../src/journal/journal-entry.js';

const timer = (at: number, name = 't'): JournalEntry => ({
  kind: 'timer',
  at,
  action: 'set',
  name,
});

describe('journal bound', () => {
  const options = { maxEntries: 5, maxBytes: 100_000, retentionMs: 1000 };

  it('should keep n entries and drop the n+1st, oldest first', () => {
    const five = [1, 2, 3, 4, 5].map((i) => timer(10_000 + i));
    expect(boundJournal(five, 10_010, options)).toBe(five);
    const six = [...five, timer(10_006)];
    expect(boundJournal(six, 10_010, options).map((e) => e.at)).toEqual([
      10_002, 10_003, 10_004, 10_005, 10_006,
    ]);
  });

  it('should drop entries older than the retention', () => {
    const list = [timer(1000), timer(5000), timer(5500)];
    expect(boundJournal(list, 6000, options).map((e) => e.at)).toEqual([5000, 5500]);
  });

  it('should drop the oldest until the JSON fits the byte budget', () => {
    const list = Array.from({ length: 40 }, (_, i) => timer(10_000 + i, 'x'.repeat(50)));
    const kept = boundJournal(list, 10_050, { maxEntries: 100, maxBytes: 1000, retentionMs: 1e9 });
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(1000);
    expect(Buffer.byteLength(JSON.stringify(list.slice(-(kept.length + 1))))).toBeGreaterThan(1000);
    expect(kept.at(-1)).toBe(list.at(-1));
  });

  it('should state a per-entry bound that fits the default budget many times', () => {
    expect(DEFAULT_JOURNAL.maxBytes / MAX_ENTRY_BYTES).toBeGreaterThan(10);
  });
});

describe('journal texts', () => {
  it('should cut a preview at its limit and flatten whitespace', () => {
    const exact = 'a'.repeat(PREVIEW_CHARS);
    expect(previewText(exact, { texts: true })).toBe(exact);
    const longer = `${exact}b`;
    expect(previewText(longer, { texts: true })).toHaveLength(PREVIEW_CHARS);
    expect(previewText(longer, { texts: true })?.endsWith('…')).toBe(true);
    expect(previewText(' two\n lines ', { texts: true })).toBe('two lines');
    expect(previewText('secret', { texts: false })).toBeUndefined();
  });

  it('should take the privacy switch from the environment, under the bot option', () => {
    expect(resolveJournalOptions(undefined, { SWITCHBOARD_JOURNAL_TEXTS: '0' }).texts).toBe(false);
    expect(resolveJournalOptions(undefined, { SWITCHBOARD_JOURNAL_TEXTS: 'off' }).texts).toBe(
      false,
    );
    expect(resolveJournalOptions(undefined, { SWITCHBOARD_JOURNAL: 'false' }).enabled).toBe(false);
    expect(resolveJournalOptions(undefined, {}).texts).toBe(true);
    expect(resolveJournalOptions({ texts: true }, { SWITCHBOARD_JOURNAL_TEXTS: '0' }).texts).toBe(
      true,
    );
  });
});

describe('DeliveryNotes', () => {
  it('should keep the latest status per message and never go back', () => {
    const notes = new DeliveryNotes();
    notes.note('c1', 'm1', 'read');
    notes.note('c1', 'm1', 'delivered');
    notes.note('c1', 'm2', 'sent');
    expect(Object.fromEntries(notes.take('c1'))).toEqual({
      m1: { status: 'read' },
      m2: { status: 'sent' },
    });
    expect(notes.take('c1').size).toBe(0);
  });

  it('should hold at most its bound of conversations, the oldest dropped', () => {
    const notes = new DeliveryNotes(2);
    notes.note('c1', 'm', 'sent');
    notes.note('c2', 'm', 'sent');
    notes.note('c3', 'm', 'sent');
    expect(notes.size).toBe(2);
    expect(notes.take('c1').size).toBe(0);
    expect(notes.take('c3').size).toBe(1);
  });
});
