/**
 * The labelled-message file of `switchboard eval`: CSV with a header row naming the
 * columns `text`, `locale`, `intent` and `slots` (in any order; other columns ignored).
 * Fields may be quoted with `"` (a quote inside is doubled). `intent` empty or
 * `out_of_scope` marks a message no intent should take; `slots` is `name=value;…`.
 */

/** One labelled message. */
export interface LabelledRow {
  /** 1-based line of the row in the file (its first line when a quoted field spans lines). */
  readonly line: number;
  readonly text: string;
  readonly locale: string;
  /** The expected intent id, or undefined for an out-of-scope message. */
  readonly intent: string | undefined;
  /** Expected slot values, as written. */
  readonly slots: Readonly<Record<string, string>>;
}

/** A labelled file that cannot be read; the message names the line and what is wrong. */
export class LabelledCsvError extends Error {
  override readonly name = 'LabelledCsvError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** The intent label meaning "no intent should take this message". */
export const OUT_OF_SCOPE = 'out_of_scope';

/** One CSV record: its fields and the line it starts on. */
export interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
}

/** The records of a CSV text (blank lines skipped); throws {@link LabelledCsvError}. */
export function csvRecords(text: string): CsvRecord[] {
  const out: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const end = (): void => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0]?.trim() === '')) out.push({ line: start, fields });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        const next = text[i + 1];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new LabelledCsvError(`unexpected "${next}" after a closing quote`, line);
        }
      } else {
        if (ch === '\n') line += 1;
        field += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      end();
      line += 1;
      start = line;
    } else field += ch;
    i += 1;
  }
  if (quoted) throw new LabelledCsvError('a quoted field is not closed', start);
  if (field !== '' || fields.length > 0) end();
  return out;
}

function parseSlots(raw: string, line: number): Record<string, string> {
  const slots: Record<string, string> = {};
  for (const part of raw.split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) {
      throw new LabelledCsvError(
        `slot "${part.trim()}" is not name=value (slots are name=value;…)`,
        line,
      );
    }
    const name = part.slice(0, eq).trim();
    if (name in slots) throw new LabelledCsvError(`slot "${name}" is given twice`, line);
    slots[name] = part.slice(eq + 1).trim();
  }
  return slots;
}

/** One data row of a labelled table: its line, its non-empty text, a column by name. */
export interface LabelledTableRow {
  readonly line: number;
  readonly text: string;
  readonly at: (column: string) => string;
}

/**
 * The rows of a labelled CSV whose header must name `required` (any order, any case):
 * the checks every labelled file shares (empty file, missing column, a row wider than the
 * header, an empty text), each a {@link LabelledCsvError} naming the line.
 */
export function labelledTable(
  text: string,
  required: readonly string[],
  expectedHeader = required.join(','),
): LabelledTableRow[] {
  const all = csvRecords(text.replace(/^\uFEFF/, ''));
  const header = all[0];
  if (header === undefined)
    throw new LabelledCsvError(`the file is empty; expected a header row ${expectedHeader}`, 1);
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  for (const name of required) {
    if (!columns.includes(name)) {
      throw new LabelledCsvError(
        `the header has no "${name}" column (found: ${columns.join(', ')})`,
        header.line,
      );
    }
  }
  return all.slice(1).map(({ line, fields }) => {
    if (fields.length > columns.length) {
      throw new LabelledCsvError(
        `${fields.length} fields, the header has ${columns.length} (quote a text that contains a comma)`,
        line,
      );
    }
    const at = (name: string): string => {
      const i = columns.indexOf(name);
      return i < 0 ? '' : (fields[i] ?? '');
    };
    const rowText = at('text').trim();
    if (rowText === '') throw new LabelledCsvError('the text is empty', line);
    return { line, text: rowText, at };
  });
}

const REQUIRED = ['text', 'locale', 'intent'] as const;

/**
 * Parses a labelled CSV file; throws {@link LabelledCsvError} naming the line of the
 * first problem (missing column, empty text, bad slot syntax, unclosed quote).
 * @example
 * const rows = parseLabelledCsv('text,locale,intent,slots\n"2 large, please",en,order,quantity=2\n');
 */
export function parseLabelledCsv(text: string): LabelledRow[] {
  return labelledTable(text, REQUIRED, 'text,locale,intent,slots').map(
    ({ line, text: rowText, at }) => {
      const locale = at('locale').trim();
      if (!/^[a-z]{2,3}([-_][a-z0-9]{2,8})*$/i.test(locale)) {
        throw new LabelledCsvError(
          `locale "${locale}" is not a language tag like en or es-MX`,
          line,
        );
      }
      const intent = at('intent').trim();
      return {
        line,
        text: rowText,
        locale,
        intent: intent === '' || intent === OUT_OF_SCOPE ? undefined : intent,
        slots: parseSlots(at('slots'), line),
      };
    },
  );
}
