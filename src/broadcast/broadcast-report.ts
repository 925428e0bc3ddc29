import { rename, writeFile } from 'node:fs/promises';
import type { BadRow, BroadcastContact } from './csv-reader.js';
import type { BroadcastJournal } from './journal.js';

/** One line of the report CSV. */
export interface ReportRow {
  readonly line: number;
  readonly phone: string;
  /** `accepted`, `rejected`, `skipped`, `unknown` or `not_sent` (the run stopped first). */
  readonly outcome: 'accepted' | 'rejected' | 'skipped' | 'unknown' | 'not_sent';
  readonly errorCode: string;
  readonly messageId: string;
}

/** The end-of-run summary. */
export interface BroadcastSummary {
  readonly contacts: number;
  readonly accepted: number;
  /** Rejections by error code (per-contact: opted out, restricted, unavailable...). */
  readonly rejected: Readonly<Record<string, number>>;
  /** Rows never sent, by reason (bad CSV rows). */
  readonly skipped: Readonly<Record<string, number>>;
  /** Outcome unknown and not found in the history (never sent again). */
  readonly unknown: number;
  /** Contacts not tried yet (the run was stopped or interrupted). */
  readonly notSent: number;
}

/** The rows of the report, in file order: contacts from the journal, bad rows as skipped. */
export function reportRows(
  contacts: readonly BroadcastContact[],
  bad: readonly BadRow[],
  journal: BroadcastJournal,
): ReportRow[] {
  const rows: ReportRow[] = contacts.map((c) => {
    const s = journal.state(c.phone);
    const base = { line: c.line, phone: c.phone, errorCode: '', messageId: '' };
    if (s === undefined) return { ...base, outcome: 'not_sent' };
    switch (s.status) {
      case 'accepted':
        return { ...base, outcome: 'accepted', messageId: s.messageId ?? '' };
      case 'rejected':
        return { ...base, outcome: 'rejected', errorCode: s.code };
      case 'in_doubt':
        return { ...base, outcome: 'unknown', errorCode: 'unconfirmed' };
      case 'unknown':
        return { ...base, outcome: 'unknown', errorCode: 'not_found_in_history' };
    }
  });
  for (const b of bad)
    rows.push({
      line: b.line,
      phone: b.phone,
      outcome: 'skipped',
      errorCode: b.reason,
      messageId: '',
    });
  return rows.sort((a, b) => a.line - b.line);
}

/** Counts the rows into a summary. */
export function summarize(rows: readonly ReportRow[]): BroadcastSummary {
  const rejected: Record<string, number> = {};
  const skipped: Record<string, number> = {};
  let accepted = 0;
  let unknown = 0;
  let notSent = 0;
  for (const r of rows) {
    if (r.outcome === 'accepted') accepted++;
    else if (r.outcome === 'rejected') rejected[r.errorCode] = (rejected[r.errorCode] ?? 0) + 1;
    else if (r.outcome === 'skipped') skipped[r.errorCode] = (skipped[r.errorCode] ?? 0) + 1;
    else if (r.outcome === 'unknown') unknown++;
    else notSent++;
  }
  return {
    contacts: rows.filter((r) => r.outcome !== 'skipped').length,
    accepted,
    rejected,
    skipped,
    unknown,
    notSent,
  };
}

/** Writes the report CSV atomically (a temporary file renamed over the target). */
export async function writeReport(path: string, rows: readonly ReportRow[]): Promise<void> {
  const lines = ['line,phone,outcome,error_code,message_id'];
  for (const r of rows)
    lines.push(
      [String(r.line), r.phone, r.outcome, r.errorCode, r.messageId].map(csvCell).join(','),
    );
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, `${lines.join('\n')}\n`, 'utf8');
  await rename(temporary, path);
}

/** Formats the summary for people, one fact per line. */
export function formatSummary(summary: BroadcastSummary): string {
  const counts = (m: Readonly<Record<string, number>>): string => {
    const entries = Object.entries(m).sort(([a], [b]) => a.localeCompare(b));
    return entries.length === 0 ? '0' : entries.map(([k, n]) => `${k} ${n}`).join(', ');
  };
  const total = (m: Readonly<Record<string, number>>): number =>
    Object.values(m).reduce((a, b) => a + b, 0);
  return [
    `contacts: ${summary.contacts}`,
    `accepted: ${summary.accepted}`,
    `rejected: ${total(summary.rejected)} (${counts(summary.rejected)})`,
    `skipped:  ${total(summary.skipped)} (${counts(summary.skipped)})`,
    `unknown:  ${summary.unknown}`,
    ...(summary.notSent > 0 ? [`not sent: ${summary.notSent}`] : []),
  ].join('\n');
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
