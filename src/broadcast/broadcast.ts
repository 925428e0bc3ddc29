import { dirname, basename, join } from 'node:path';
import { MessagingClient } from '../api/client.js';
import { fingerprintContent } from '../api/fingerprint.js';
import type { Limiter } from '../api/limiter.js';
import { MemoryLimiter } from '../api/memory-limiter.js';
import { systemClock, type Clock } from '../core/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import {
  buildSendRequest,
  formatIssue,
  MessageValidationError,
  template,
  type SendRequest,
} from '../messages/index.js';
import { runBroadcast, type BroadcastEnd } from './broadcast-runner.js';
import {
  formatSummary,
  reportRows,
  summarize,
  writeReport,
  type BroadcastSummary,
} from './broadcast-report.js';
import { readContactList, type BadRow, type BroadcastContact } from './csv-reader.js';
import { BroadcastJournal } from './journal.js';
import { JournalingLimiter } from './journaling-limiter.js';
import { createProgressDisplay } from './progress-display.js';

/** What `switchboard broadcast` was asked to do. */
export interface BroadcastConfig {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly template: string;
  readonly language: string;
  /** The contact list (CSV with a `phone` column). */
  readonly to: string;
  /** Columns whose values become the template's body text parameters, in order. */
  readonly params: readonly string[];
  /** Report CSV path (default: none). */
  readonly report?: string;
  /** Journal path (default: next to the report, or next to the list). */
  readonly journal?: string;
  readonly dryRun: boolean;
  /** Sends in flight at once (default 8). */
  readonly concurrency?: number;
  /**
   * `--resend-after-absence` (opt-in): send a contact in doubt once more when history
   * lacks it after the settle time, at the risk of a duplicate. Default: never.
   */
  readonly resendAfterAbsence?: boolean;
}

/** Where a broadcast writes and what it may use. */
export interface BroadcastIo {
  /** Summary and results. */
  readonly stdout: NodeJS.WritableStream;
  /** Progress, pauses, bad rows. */
  readonly stderr: NodeJS.WritableStream;
  readonly tty: boolean;
  readonly clock?: Clock;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly logger?: Logger;
  /** Aborted on Ctrl-C. */
  readonly signal?: AbortSignal;
  /** JSON progress interval (non-terminal), ms. */
  readonly progressIntervalMs?: number;
  /** Deadline of each API request, ms (default: the client's, 10 s). */
  readonly apiTimeoutMs?: number;
  /**
   * The budget to send within (default: this process's own). `switchboard broadcast
   * --deployment f --number n` passes the deployment's (a `RedisLimiter` on its
   * `REDIS_URL` and `REDIS_PREFIX`) with the number's identity, so the broadcast takes its
   * sends from the workspace budget the running workers share.
   */
  readonly budget?: SharedBudget;
}

/** A limiter shared with other processes, and whose budgets a broadcast's sends count in. */
export interface SharedBudget {
  readonly limiter: Limiter;
  /** The number's id and workspace as the deployment names them (its budget keys). */
  readonly identity: { readonly numberId: string; readonly workspaceId: string };
}

/** The result of {@link broadcast}: an exit code and the summary (none for a dry run). */
export interface BroadcastResult {
  readonly exitCode: number;
  readonly end?: BroadcastEnd;
  readonly summary?: BroadcastSummary;
}

/**
 * `switchboard broadcast`: sends an approved template to every contact of a CSV list,
 * resumably (see `runBroadcast`). Exit codes: 0 done, 1 stopped by the API (template
 * paused or unknown, key revoked, quality blocked) or a dry run with bad rows, 130
 * interrupted. Problems with the list or the journal throw (the CLI prints them, code 2).
 * @example
 * const { exitCode } = await broadcast(config, { stdout: process.stdout, stderr: process.stderr, tty: false });
 */
export async function broadcast(
  config: BroadcastConfig,
  io: BroadcastIo,
): Promise<BroadcastResult> {
  const clock = io.clock ?? systemClock;
  const list = await readContactList(config.to, config.params);
  const requests = new Map<string, SendRequest>();
  const contacts: BroadcastContact[] = [];
  const bad: BadRow[] = [...list.bad];
  for (const contact of list.contacts) {
    const request = buildRequest(config, contact);
    if (request.status === 'invalid') {
      bad.push({
        line: contact.line,
        phone: contact.phone,
        reason: 'invalid_params',
        message: `${config.to}:${contact.line}: ${request.message}`,
      });
      continue;
    }
    requests.set(contact.phone, request.value);
    contacts.push(contact);
  }
  bad.sort((a, b) => a.line - b.line);
  for (const b of bad.slice(0, 20)) io.stderr.write(`skipped ${b.message}\n`);
  if (bad.length > 20) io.stderr.write(`… and ${bad.length - 20} more bad rows (see the report)\n`);
  if (config.dryRun) {
    io.stdout.write(
      `dry run: ${contacts.length} contacts would get template ${config.template} (${config.language}); ${bad.length} bad rows skipped; nothing was sent\n`,
    );
    return { exitCode: bad.length > 0 ? 1 : 0 };
  }
  const journalPath = config.journal ?? defaultJournalPath(config);
  const journal = BroadcastJournal.open(
    journalPath,
    { template: config.template, language: config.language, params: config.params },
    clock.now(),
  );
  try {
    if (journal.resumed) io.stderr.write(`resuming from ${journalPath}\n`);
    const budget = io.budget?.limiter ?? new MemoryLimiter({ clock });
    const limiter = new JournalingLimiter(budget);
    const client = new MessagingClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      limiter,
      ...(io.budget === undefined ? {} : { identity: io.budget.identity }),
      clock,
      logger: io.logger ?? silentLogger,
      ...(io.sleep === undefined ? {} : { sleep: io.sleep }),
      ...(io.apiTimeoutMs === undefined ? {} : { timeoutMs: io.apiTimeoutMs }),
    });
    const display = createProgressDisplay({
      stream: io.stderr,
      tty: io.tty,
      clock,
      ...(io.progressIntervalMs === undefined ? {} : { jsonIntervalMs: io.progressIntervalMs }),
    });
    const fingerprints = new Map<string, string>();
    for (const [phone, request] of requests) fingerprints.set(phone, fingerprintContent(request));
    const { end } = await runBroadcast({
      client,
      limiter,
      budget,
      journal,
      contacts,
      requestFor: (c) =>
        requests.get(c.phone) ??
        buildSendRequest(c.phone, template(config.template, config.language)),
      fingerprintOf: (phone) => fingerprints.get(phone) ?? '',
      clock,
      sleep: io.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
      ...(config.resendAfterAbsence === true ? { resendAfterAbsence: true } : {}),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
      onProgress: (p) => display.update(p),
      onPause: (code, ms) => display.pause(code, ms),
    });
    display.finish();
    const rows = reportRows(contacts, bad, journal);
    if (config.report !== undefined) await writeReport(config.report, rows);
    const summary = summarize(rows);
    io.stdout.write(`${formatSummary(summary)}\n`);
    if (config.report !== undefined) io.stdout.write(`report: ${config.report}\n`);
    return { exitCode: finish(end, journalPath, io), end, summary };
  } finally {
    journal.close();
  }
}

function finish(end: BroadcastEnd, journalPath: string, io: BroadcastIo): number {
  switch (end.status) {
    case 'completed':
      return 0;
    case 'interrupted':
      io.stderr.write(
        `interrupted; run the same command again to continue (journal: ${journalPath})\n`,
      );
      return 130;
    case 'stopped':
      io.stderr.write(
        `stopped: ${end.code}: ${end.message}\n${stopAdvice(end.code)} then run the same command again to continue (journal: ${journalPath})\n`,
      );
      return 1;
  }
}

function stopAdvice(code: string): string {
  if (code === 'invalid_message')
    return 'The parameters do not fit the approved template (their kinds, order or number); check --params,';
  if (code === 'template_not_found')
    return 'The template name and language do not exist for this number; check --template and --language,';
  if (code === 'template_not_approved')
    return 'The template is not approved (paused, disabled or pending); get it approved,';
  if (code === 'quality_blocked')
    return 'Sender or template quality blocks admission (do not use another key to bypass it); wait for quality to recover,';
  if (code === 'unauthorized' || code === 'invalid_api_key' || code === 'insufficient_scope')
    return 'The API key was refused (revoked, rotated or missing messages:send); set a valid MESSAGING_API_KEY,';
  return 'Fix the cause,';
}

/** `<report>.journal.jsonl`, else `<list>.<template>.<language>.journal.jsonl` beside the list. */
export function defaultJournalPath(
  config: Pick<BroadcastConfig, 'report' | 'to' | 'template' | 'language'>,
): string {
  if (config.report !== undefined) return `${config.report}.journal.jsonl`;
  return join(
    dirname(config.to),
    `${basename(config.to)}.${config.template}.${config.language}.journal.jsonl`,
  );
}

function buildRequest(
  config: BroadcastConfig,
  contact: BroadcastContact,
): { status: 'valid'; value: SendRequest } | { status: 'invalid'; message: string } {
  try {
    const components =
      contact.params.length === 0
        ? undefined
        : [
            {
              type: 'body' as const,
              parameters: contact.params.map((text) => ({ type: 'text' as const, text })),
            },
          ];
    return {
      status: 'valid',
      value: buildSendRequest(
        contact.phone,
        template(config.template, config.language, components),
      ),
    };
  } catch (error) {
    if (error instanceof MessageValidationError)
      return { status: 'invalid', message: error.issues.map((i) => formatIssue(i)).join('; ') };
    throw error;
  }
}
