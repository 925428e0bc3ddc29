import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { z } from 'zod';

/**
 * The durable journal of a broadcast: an append-only JSON Lines file, each line written
 * with `fsync` before the run goes on. The intent to send to a contact is recorded
 * before its POST, the outcome after it, so whatever kills the process (Ctrl-C,
 * `kill -9`, a crash, a power cut) the next run knows, for every contact, whether it was
 * never tried, settled, or in flight (outcome unknown: reconciled, never replayed).
 */

const Outcome = z.enum(['accepted', 'rejected', 'unknown', 'retry']);

const JournalRecord = z.discriminatedUnion('type', [
  /** First line: which broadcast this journal belongs to. */
  z.object({
    type: z.literal('broadcast'),
    template: z.string(),
    language: z.string(),
    params: z.array(z.string()),
    at: z.number(),
  }),
  /** One line per run (start or resume). */
  z.object({ type: z.literal('run'), at: z.number(), pid: z.number() }),
  /** The POST to `phone` is about to start (its budget was granted). */
  z.object({ type: z.literal('intent'), phone: z.string(), at: z.number() }),
  /** The POST's outcome; `retry`: nothing admitted (429/503, or a run stopper), send later. */
  z.object({
    type: z.literal('outcome'),
    phone: z.string(),
    at: z.number(),
    outcome: Outcome,
    code: z.string().optional(),
    messageId: z.string().optional(),
  }),
  /** An unknown outcome looked up in the conversation's history. */
  z.object({
    type: z.literal('reconciled'),
    phone: z.string(),
    at: z.number(),
    found: z.boolean(),
    messageId: z.string().optional(),
    /** Not found, and `--resend-after-absence` is on: sent once more. */
    resend: z.boolean().optional(),
  }),
]);
export type JournalRecord = z.infer<typeof JournalRecord>;

/** What the journal says about one contact. */
export type ContactState =
  | { readonly status: 'accepted'; readonly messageId?: string; readonly reconciled?: true }
  | { readonly status: 'rejected'; readonly code: string }
  /**
   * Not confirmed: an intent without outcome (`orphan`: the process died between the two),
   * or an unknown outcome (timeout, network failure, 5xx). Reconciled from history.
   */
  | { readonly status: 'in_doubt'; readonly since: number; readonly orphan: boolean }
  /** Reconciled and not found: reported as unknown, never sent again. */
  | { readonly status: 'unknown'; readonly since: number };

/** The identity of a broadcast; a journal of another one is refused. */
export interface BroadcastIdentity {
  readonly template: string;
  readonly language: string;
  readonly params: readonly string[];
}

/** A send attempt for the budget of a resumed run: granted at `at`, completed at `doneAt`. */
export interface RecentSend {
  readonly at: number;
  readonly doneAt: number | undefined;
}

/** The journal belongs to another broadcast or cannot be read. */
export class JournalError extends Error {
  override readonly name = 'JournalError';
}

/**
 * An open journal: its replayed state and an fsync'ed append.
 * @example
 * const journal = BroadcastJournal.open('out.csv.journal.jsonl', identity, Date.now());
 * journal.append({ type: 'intent', phone, at: Date.now() });
 */
export class BroadcastJournal {
  readonly #fd: number;
  readonly #states = new Map<string, ContactState>();
  readonly #sends: { at: number; doneAt: number | undefined }[] = [];
  /** How many times each contact was sent again after a proof of absence. */
  readonly #resends = new Map<string, number>();
  /** The latest send of each contact (to settle it with its outcome). */
  readonly #lastSend = new Map<string, { at: number; doneAt: number | undefined }>();
  /** Lines that could not be read (a torn last line after a crash). */
  readonly damagedLines: number;
  /** True when the journal already held a run (this is a resume). */
  readonly resumed: boolean;

  private constructor(path: string, identity: BroadcastIdentity, now: number) {
    const existed = existsSync(path);
    let damaged = 0;
    let sawRun = false;
    let torn = false;
    if (existed) {
      const text = readFileSync(path, 'utf8');
      torn = text !== '' && !text.endsWith('\n');
      const lines = text.split('\n');
      lines.forEach((text, i) => {
        if (text.trim() === '') return;
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          // A line torn by a crash mid-write: its POST never started (intent comes first).
          damaged++;
          return;
        }
        const parsed = JournalRecord.safeParse(json);
        if (!parsed.success) {
          damaged++;
          return;
        }
        if (parsed.data.type === 'broadcast') checkIdentity(path, i + 1, parsed.data, identity);
        if (parsed.data.type === 'run') sawRun = true;
        this.#apply(parsed.data);
      });
    }
    this.damagedLines = damaged;
    this.resumed = sawRun;
    try {
      this.#fd = openSync(path, 'a');
    } catch (error) {
      throw new JournalError(`cannot open the journal ${path}: ${(error as Error).message}`);
    }
    // End a line torn by a crash, so the next record starts on its own line.
    if (torn) writeSync(this.#fd, '\n');
    if (!existed || !sawRun) {
      this.append({
        type: 'broadcast',
        template: identity.template,
        language: identity.language,
        params: [...identity.params],
        at: now,
      });
    }
    this.append({ type: 'run', at: now, pid: process.pid });
  }

  /** Opens (creating or resuming) the journal at `path`. */
  static open(path: string, identity: BroadcastIdentity, now: number): BroadcastJournal {
    return new BroadcastJournal(path, identity, now);
  }

  /** What is known about `phone` (undefined: never tried). */
  state(phone: string): ContactState | undefined {
    return this.#states.get(phone);
  }

  /** Every contact the journal knows. */
  states(): ReadonlyMap<string, ContactState> {
    return this.#states;
  }

  /** How many times `phone` was sent again after a proof of absence. */
  resends(phone: string): number {
    return this.#resends.get(phone) ?? 0;
  }

  /** Sends granted at or after `since` (for the budget of a resumed run). */
  sendsSince(since: number): RecentSend[] {
    return this.#sends.filter((s) => s.at >= since).map(({ at, doneAt }) => ({ at, doneAt }));
  }

  /** Appends one record and flushes it to disk (fsync) before returning. */
  append(record: JournalRecord): void {
    writeSync(this.#fd, `${JSON.stringify(record)}\n`);
    fsyncSync(this.#fd);
    this.#apply(record);
  }

  close(): void {
    closeSync(this.#fd);
  }

  #apply(record: JournalRecord): void {
    switch (record.type) {
      case 'broadcast':
      case 'run':
        return;
      case 'intent':
        this.#states.set(record.phone, { status: 'in_doubt', since: record.at, orphan: true });
        {
          const send = { at: record.at, doneAt: undefined };
          this.#sends.push(send);
          this.#lastSend.set(record.phone, send);
        }
        return;
      case 'outcome': {
        const send = this.#lastSend.get(record.phone);
        if (send !== undefined && send.doneAt === undefined) send.doneAt = record.at;
        const since = send?.at ?? record.at;
        if (record.outcome === 'accepted')
          this.#states.set(record.phone, {
            status: 'accepted',
            ...(record.messageId === undefined ? {} : { messageId: record.messageId }),
          });
        else if (record.outcome === 'rejected')
          this.#states.set(record.phone, { status: 'rejected', code: record.code ?? 'rejected' });
        else if (record.outcome === 'unknown')
          this.#states.set(record.phone, { status: 'in_doubt', since, orphan: false });
        else this.#states.delete(record.phone);
        return;
      }
      case 'reconciled': {
        const prior = this.#states.get(record.phone);
        const since = prior !== undefined && 'since' in prior ? prior.since : record.at;
        if (!record.found && record.resend === true) {
          this.#resends.set(record.phone, this.resends(record.phone) + 1);
          this.#states.delete(record.phone);
          return;
        }
        this.#states.set(
          record.phone,
          record.found
            ? {
                status: 'accepted',
                reconciled: true,
                ...(record.messageId === undefined ? {} : { messageId: record.messageId }),
              }
            : { status: 'unknown', since },
        );
      }
    }
  }
}

function checkIdentity(
  path: string,
  line: number,
  found: BroadcastIdentity,
  wanted: BroadcastIdentity,
): void {
  const same =
    found.template === wanted.template &&
    found.language === wanted.language &&
    found.params.join(',') === wanted.params.join(',');
  if (!same)
    throw new JournalError(
      `${path}:${line}: this journal belongs to the broadcast of template ${found.template} (${found.language}, params: ${found.params.join(',') || 'none'}); ` +
        `use another --report (or --journal) for template ${wanted.template} (${wanted.language}), or delete the journal to start over`,
    );
}
