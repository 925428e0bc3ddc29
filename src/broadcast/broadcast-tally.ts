import type { Clock } from '../core/clock.js';
import type { BroadcastContact } from './csv-reader.js';
import type { BroadcastJournal } from './journal.js';

/** A snapshot for the progress display. */
export interface BroadcastProgress {
  readonly total: number;
  /** Contacts with a final outcome (accepted, rejected, unknown). */
  readonly done: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly inDoubt: number;
  /** Contacts still to send. */
  readonly remaining: number;
  /** Sends granted in the last minute (this run and the one before it). */
  readonly perMinute: number;
  /** Seconds to finish at the current rate, when known. */
  readonly etaSeconds: number | undefined;
  /** Set while waiting for unconfirmed sends to settle before reconciling them. */
  readonly settlingUntil: number | undefined;
}

/**
 * Counts of a broadcast, read from its journal: the progress display while it runs and
 * the summary at the end. 429/503 pauses and reconciliation problems are noted here.
 */
export class BroadcastTally {
  readonly #contacts: readonly BroadcastContact[];
  readonly #journal: BroadcastJournal;
  readonly #clock: Clock;
  readonly pauses = new Map<string, number>();
  #settlingUntil: number | undefined;
  reconcileError: string | undefined;

  constructor(contacts: readonly BroadcastContact[], journal: BroadcastJournal, clock: Clock) {
    this.#contacts = contacts;
    this.#journal = journal;
    this.#clock = clock;
  }

  notePause(code: string): void {
    this.pauses.set(code, (this.pauses.get(code) ?? 0) + 1);
  }

  noteWaiting(until: number | undefined): void {
    this.#settlingUntil = until;
  }

  noteReconcileError(message: string): void {
    this.reconcileError = message;
  }

  /** Counts over the list's contacts; `remaining` is the send queue's length. */
  progress(remaining: number): BroadcastProgress {
    let accepted = 0;
    let rejected = 0;
    let inDoubt = 0;
    let unknown = 0;
    for (const c of this.#contacts) {
      const s = this.#journal.state(c.phone);
      if (s === undefined) continue;
      if (s.status === 'accepted') accepted++;
      else if (s.status === 'rejected') rejected++;
      else if (s.status === 'in_doubt') inDoubt++;
      else unknown++;
    }
    const now = this.#clock.now();
    const perMinute = this.#journal.sendsSince(now - 60_000).length;
    return {
      total: this.#contacts.length,
      done: accepted + rejected + unknown,
      accepted,
      rejected,
      inDoubt,
      remaining,
      perMinute,
      etaSeconds: perMinute > 0 ? Math.ceil((remaining / perMinute) * 60) : undefined,
      settlingUntil: this.#settlingUntil,
    };
  }
}
