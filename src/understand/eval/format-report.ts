/** The terminal view of an {@link EvalReport}. */
import type { EvalReport, Figures } from './evaluate.js';

/** Confusion columns: as wide as the longest label, within these bounds (`out_of_scope` fits). */
const COLUMN_MIN = 5;
const COLUMN_MAX = 12;

const pct = (r: number): string => `${(r * 100).toFixed(1)}%`;

function figuresLine(name: string, f: Figures): string {
  return `${name.padEnd(10)} ${String(f.rows).padStart(5)} msgs   intents ${pct(f.intentAccuracy).padStart(6)}   slots ${pct(f.slotAccuracy).padStart(6)} (${f.slotsExpected} expected)`;
}

/**
 * A plain-text report: totals, per language, the out-of-scope figures, the confusion table
 * (expected down, predicted across; only labels that occur), the misses and the slowest.
 * @example
 * process.stdout.write(formatEvalReport(await evaluate(u, intents, rows, { threshold: 0.6 })));
 */
export function formatEvalReport(report: EvalReport, options: { misses?: number } = {}): string {
  const out: string[] = [];
  out.push(`understander ${report.understander}, threshold ${report.threshold}`);
  out.push(figuresLine('all', report));
  for (const [language, f] of Object.entries(report.byLanguage)) out.push(figuresLine(language, f));
  out.push(
    `out of scope: ${pct(report.outOfScopeRate)} of messages left to otherwise; ${report.outOfScopeRows} labelled out of scope, ${pct(report.confidentWrongOnOutOfScope)} of them taken confidently by an intent`,
  );
  const labels = [
    ...new Set(Object.entries(report.confusion).flatMap(([e, row]) => [e, ...Object.keys(row)])),
  ].sort();
  const width = Math.max(8, ...labels.map((l) => l.length));
  // Columns as wide as the longest label (at most COLUMN_MAX), so labels stay readable.
  const column = Math.min(COLUMN_MAX, Math.max(COLUMN_MIN, ...labels.map((l) => l.length)));
  const col = (s: string): string =>
    (s.length > column ? `${s.slice(0, column - 1)}…` : s).padStart(column);
  out.push('', 'confusion (expected ↓, predicted →)');
  out.push(`${''.padEnd(width)} ${labels.map((l) => col(l)).join(' ')}`);
  for (const expected of labels) {
    const row = report.confusion[expected];
    if (row === undefined) continue;
    out.push(
      `${expected.padEnd(width)} ${labels.map((p) => col(row[p] === undefined ? '.' : String(row[p]))).join(' ')}`,
    );
  }
  const misses = report.outcomes.filter(
    (o) => o.predicted !== o.expected || o.slotErrors.length > 0,
  );
  const shown = misses.slice(0, options.misses ?? 20);
  if (shown.length > 0) {
    out.push(
      '',
      `misses (${misses.length}${misses.length > shown.length ? `, first ${shown.length}` : ''})`,
    );
    for (const o of shown) {
      const intent =
        o.predicted === o.expected
          ? ''
          : ` ${o.expected} → ${o.predicted} (${o.confidence.toFixed(2)})`;
      out.push(
        `  line ${o.row.line}: ${JSON.stringify(o.row.text)}${intent}${o.slotErrors.length > 0 ? ` slots ${o.slotErrors.join(', ')}` : ''}`,
      );
    }
  }
  out.push('', 'slowest');
  for (const o of report.slowest)
    out.push(
      `  ${o.ms.toFixed(2).padStart(8)} ms  line ${o.row.line}: ${JSON.stringify(o.row.text)}`,
    );
  return `${out.join('\n')}\n`;
}
