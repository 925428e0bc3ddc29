import { readFile } from 'node:fs/promises';

/**
 * The contact list of a broadcast: a CSV file (RFC 4180: commas, double quotes, CRLF or
 * LF) with a header row holding a `phone` column (E.164) and any parameter columns.
 */

/** One usable contact of the list. */
export interface BroadcastContact {
  /** 1-based line number in the file where the row starts. */
  readonly line: number;
  /** E.164, as written (trimmed). */
  readonly phone: string;
  /** The values of the `--params` columns, in that order. */
  readonly params: readonly string[];
}

/** A row that is reported and never sent. */
export interface BadRow {
  readonly line: number;
  /** The `phone` cell as written (may be empty). */
  readonly phone: string;
  /** `invalid_phone`, `duplicate`, `missing_param`, `column_count` or `invalid_params`. */
  readonly reason: string;
  readonly message: string;
}

/** The parsed list: contacts in file order, and bad rows. */
export interface ContactList {
  readonly contacts: readonly BroadcastContact[];
  readonly bad: readonly BadRow[];
}

/** The file cannot be used at all (no header, no `phone` column, unknown parameter column). */
export class ContactListError extends Error {
  override readonly name = 'ContactListError';
}

const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * Reads and checks a contact list. Bad rows (invalid phone, duplicate phone, empty
 * parameter, wrong number of cells) are reported with their line number and skipped.
 * @example
 * const list = await readContactList('contacts.csv', ['first_name']);
 */
export async function readContactList(
  path: string,
  paramColumns: readonly string[],
): Promise<ContactList> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ContactListError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return parseContactList(text, paramColumns, path);
}

/** {@link readContactList} over text already read (`source` names it in errors). */
export function parseContactList(
  text: string,
  paramColumns: readonly string[],
  source = 'contacts.csv',
): ContactList {
  const records = parseCsv(text.replace(/^\uFEFF/, ''));
  const header = records[0];
  if (header === undefined)
    throw new ContactListError(`${source} is empty; it needs a header row with a "phone" column`);
  const names = header.cells.map((c) => c.trim());
  const phoneAt = names.indexOf('phone');
  if (phoneAt < 0)
    throw new ContactListError(
      `${source}:${header.line}: the header has no "phone" column (found: ${names.join(', ') || 'nothing'})`,
    );
  const paramAt = paramColumns.map((column) => {
    const at = names.indexOf(column);
    if (at < 0)
      throw new ContactListError(
        `${source}:${header.line}: --params names column "${column}", which the header does not have (found: ${names.join(', ')})`,
      );
    return at;
  });
  const contacts: BroadcastContact[] = [];
  const bad: BadRow[] = [];
  const seen = new Map<string, number>();
  for (const record of records.slice(1)) {
    if (record.cells.length === 1 && record.cells[0]?.trim() === '') continue; // blank line
    const phone = (record.cells[phoneAt] ?? '').trim();
    const report = (reason: string, message: string): void =>
      void bad.push({ line: record.line, phone, reason, message });
    if (record.cells.length !== names.length) {
      report(
        'column_count',
        `${source}:${record.line}: ${record.cells.length} cells, the header has ${names.length}`,
      );
      continue;
    }
    if (!E164.test(phone)) {
      report(
        'invalid_phone',
        `${source}:${record.line}: phone "${phone}" is not E.164 (+ then 8 to 15 digits, e.g. +15551234567)`,
      );
      continue;
    }
    const first = seen.get(phone);
    if (first !== undefined) {
      report('duplicate', `${source}:${record.line}: phone ${phone} already on line ${first}`);
      continue;
    }
    const params = paramAt.map((at) => (record.cells[at] ?? '').trim());
    const empty = params.findIndex((p) => p === '');
    if (empty >= 0) {
      report(
        'missing_param',
        `${source}:${record.line}: column "${paramColumns[empty] ?? ''}" is empty; a template parameter needs a value`,
      );
      continue;
    }
    seen.set(phone, record.line);
    contacts.push({ line: record.line, phone, params });
  }
  return { contacts, bad };
}

interface CsvRecord {
  readonly line: number;
  readonly cells: string[];
}

/** RFC 4180 records with the line number each starts on (quoted cells may span lines). */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const endRecord = (): void => {
    cells.push(cell);
    records.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        cell += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      endRecord();
      if (ch === '\r' && text[i + 1] === '\n') i++;
      line++;
      start = line;
    } else cell += ch;
    i++;
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}
