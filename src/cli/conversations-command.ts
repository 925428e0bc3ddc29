/**
 * `switchboard conversations`: lists the conversations of the store with filters (waiting
 * on a handler, stuck, human-owned, with an error, by state, by age), read-only.
 */
import type { Command } from 'commander';
import { parseDuration } from '../core/duration.js';
import {
  matchesFilter,
  summarizeConversation,
  type ConversationFilter,
  type ConversationSummary,
} from '../journal/conversation-summary.js';
import { parseStoredDoc } from '../engine/stored-doc.js';
import { openInspectStore } from './inspect-store.js';
import { CliError } from './run-command.js';
import type { InspectIo } from './inspect-command.js';

const defaultIo: InspectIo = {
  out: (t) => process.stdout.write(t),
  env: process.env,
  now: Date.now,
};

interface ListOptions {
  state?: string;
  inState?: string;
  waiting?: boolean;
  stuck?: boolean;
  humanOwned?: boolean;
  errors?: boolean;
  idle?: string;
  active?: string;
  limit?: string;
  json?: boolean;
}

function duration(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const parsed = parseDuration(text);
  if (parsed.status === 'invalid')
    throw new CliError(`switchboard conversations: ${flag} ${text}: ${parsed.message}`, 2);
  return parsed.ms;
}

function age(now: number, at: number | undefined): string {
  if (at === undefined) return '-';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  if (s < 172_800) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86_400)}d`;
}

/** The summaries as a text table. */
export function formatSummaries(list: readonly ConversationSummary[], now: number): string {
  const rows = list.map((s) => [
    s.id,
    s.phone,
    s.state === '' ? '(none)' : s.state,
    s.humanOwned ? 'person' : 'bot',
    s.waitingOn ?? '-',
    s.stuck ?? '-',
    age(now, s.lastActivityAt),
    s.lastError === undefined
      ? '-'
      : `${s.lastError.code ?? ''} ${s.lastError.message}`.trim().slice(0, 60),
  ]);
  const head = ['ID', 'PHONE', 'STATE', 'OWNER', 'WAITING ON', 'STUCK', 'IDLE', 'LAST ERROR'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ');
  return `${[line(head), ...rows.map(line)].join('\n')}\n${list.length} conversation${list.length === 1 ? '' : 's'}\n`;
}

/**
 * Adds `conversations`.
 * @example
 * // switchboard conversations --stuck --idle 1h --json
 */
export function registerConversationsCommand(program: Command, io: InspectIo = defaultIo): Command {
  program
    .command('conversations')
    .description(
      'List conversations, filtered: waiting on a handler, stuck, human-owned, errors, state, age (read-only)',
    )
    .option(
      '--state <file>',
      'the SQLite state file (default: STATE_PATH or .switchboard/state.db)',
    )
    .option(
      '--in-state <state>',
      'only in this flow state (or inside it: `ask` matches `ask.size`)',
    )
    .option('--waiting', 'only those waiting on a handler call')
    .option(
      '--stuck',
      'only stuck ones (error path taken, machine failure, handler unanswered > 10 min)',
    )
    .option('--human-owned', 'only those a person owns')
    .option('--errors', 'only those with an error in their timeline')
    .option('--idle <duration>', 'only those idle at least this long (e.g. 30m, 2h, 7d)')
    .option('--active <duration>', 'only those active within this long')
    .option('--limit <n>', 'list at most n (default 200)')
    .option('--json', 'print JSON: { conversations: [summary, …], scanned }')
    .addHelpText(
      'after',
      `
Reads the store the bot runs on (REDIS_URL with REDIS_PREFIX, else the SQLite state file)
and never writes it. Filters combine (all must hold).

Examples:
  $ switchboard conversations --stuck
  $ switchboard conversations --human-owned --idle 2h --state .switchboard/state.db
  $ switchboard conversations --in-state checkout --json`,
    )
    .action(async (opts: ListOptions) => {
      const limit = opts.limit === undefined ? 200 : Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1)
        throw new CliError(
          `switchboard conversations: --limit ${opts.limit ?? ''} must be a whole number ≥ 1`,
          2,
        );
      const idleForMs = duration('--idle', opts.idle);
      const activeWithinMs = duration('--active', opts.active);
      const filter: ConversationFilter = {
        ...(opts.waiting === true ? { waiting: true } : {}),
        ...(opts.stuck === true ? { stuck: true } : {}),
        ...(opts.humanOwned === true ? { humanOwned: true } : {}),
        ...(opts.errors === true ? { errored: true } : {}),
        ...(opts.inState === undefined ? {} : { state: opts.inState }),
        ...(idleForMs === undefined ? {} : { idleForMs }),
        ...(activeWithinMs === undefined ? {} : { activeWithinMs }),
      };
      const now = io.now();
      const opened = await openInspectStore({ state: opts.state, env: io.env });
      const found: ConversationSummary[] = [];
      const unreadable: string[] = [];
      let scanned = 0;
      try {
        let cursor: string | undefined;
        do {
          const page = await opened.reader.listConversations(cursor, 500);
          for (const item of page.items) {
            scanned++;
            const parsed = parseStoredDoc(item.value);
            if (parsed.status === 'invalid') {
              unreadable.push(`${item.id}: ${parsed.error}`);
              continue;
            }
            const summary = summarizeConversation(item.id, parsed.doc, now);
            if (matchesFilter(summary, filter, now)) found.push(summary);
          }
          cursor = page.cursor;
        } while (cursor !== undefined);
      } finally {
        await opened.close();
      }
      found.sort((a, b) => (b.lastActivityAt ?? 0) - (a.lastActivityAt ?? 0));
      const shown = found.slice(0, limit);
      if (opts.json === true) {
        io.out(`${JSON.stringify({ conversations: shown, scanned, unreadable }, null, 2)}\n`);
        return;
      }
      io.out(formatSummaries(shown, now));
      for (const line of unreadable) io.out(`unreadable: ${line}\n`);
    });
  return program;
}
