import { blockKeysFor, DEFAULT_BUDGET_MARGIN_MS, sendBudgetRules } from '../api/budgets.js';
import type { BudgetRule, Limiter } from '../api/limiter.js';
import type { BudgetIdentity } from '../api/budgets.js';
import type { SendResult } from '../api/send-result.js';
import type { Clock } from '../core/clock.js';
import type { SendRequest } from '../messages/index.js';
import type { BroadcastContact } from './csv-reader.js';
import type { BroadcastJournal } from './journal.js';
import type { JournalingLimiter } from './journaling-limiter.js';
import { findSentMessages, type HistoryReader } from './reconcile-broadcast.js';
import { BroadcastTally, type BroadcastProgress } from './broadcast-tally.js';

/**
 * Codes that stop the whole run (spec part 7): the template is unknown, paused or
 * disabled, the key is revoked or lacks the scope, the number cannot send, or quality
 * blocks admission. Nothing was admitted for the contact that met one: it stays to send.
 * `invalid_message` too: every request is checked by the message builders before it is
 * sent, so the API refusing one means the parameters do not fit the approved template
 * (kinds, order, count), which every other contact would meet as well.
 */
export const STOP_CODES: ReadonlySet<string> = new Set([
  'invalid_message',
  'template_not_found',
  'template_not_approved',
  'quality_blocked',
  'unauthorized',
  'invalid_api_key',
  'insufficient_scope',
  'instance_not_api_managed',
  'instance_unavailable',
]);

/** Sends again after a proof of absence, per contact, with `resendAfterAbsence` (as the engine). */
const MAX_RESENDS = 1;

/** Waits after a refusal that named no wait (`connection_refused`). */
const DEFAULT_PAUSE_MS = 1_000;

/** What the runner needs of the API client (the project's `MessagingClient` fits). */
export interface BroadcastClient extends HistoryReader {
  readonly identity: BudgetIdentity;
  send(request: SendRequest): Promise<SendResult>;
}

/** Options of {@link runBroadcast}. */
export interface BroadcastRunOptions {
  readonly client: BroadcastClient;
  /** The limiter the client was built with, wrapped to record intents. */
  readonly limiter: JournalingLimiter;
  /** The unwrapped limiter, to count the previous run's recent sends into. */
  readonly budget: Limiter;
  readonly journal: BroadcastJournal;
  readonly contacts: readonly BroadcastContact[];
  /** Builds the request of one contact (already validated by the caller). */
  readonly requestFor: (contact: BroadcastContact) => SendRequest;
  /** Content fingerprint of a contact's send, to find it in history. */
  readonly fingerprintOf: (phone: string) => string;
  readonly clock: Clock;
  readonly sleep: (ms: number) => Promise<void>;
  /** Sends in flight at once (default 8): enough to fill 20/s at a 400 ms round trip. */
  readonly concurrency?: number;
  /**
   * How long after its intent an unconfirmed POST is looked up in history (default 25 s:
   * the client's 10 s deadline plus the engine's 15 s proof of absence).
   */
  readonly settleMs?: number;
  /**
   * Opt-in, default `false`: a contact in doubt still absent from history after
   * `settleMs` is sent once more. Off, it is reported `unknown` and never sent again: a
   * POST stalled in the API can be admitted after that read (a duplicate).
   */
  readonly resendAfterAbsence?: boolean;
  /** Aborted on Ctrl-C: no new sends start; sends in flight finish and are recorded. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BroadcastProgress) => void;
  /** Called when the run pauses for a 429/503 hint. */
  readonly onPause?: (code: string, ms: number) => void;
}

/** How a run ended. */
export type BroadcastEnd =
  | { readonly status: 'completed' }
  | { readonly status: 'interrupted' }
  | { readonly status: 'stopped'; readonly code: string; readonly message: string };

/**
 * Sends the template to every contact not settled yet, at the full budget of the key,
 * number and workspace (the client's limiter holds them; a 429/503 hint blocks every
 * sender for the time named), recording each intent before its POST and each outcome
 * after it. Contacts in doubt (a previous run died mid-POST, or the outcome was unknown)
 * are looked up in the conversation history once their POST has surely settled; they
 * are never sent again unless `resendAfterAbsence` is on.
 */
export async function runBroadcast(
  options: BroadcastRunOptions,
): Promise<{ end: BroadcastEnd; tally: BroadcastTally }> {
  const { journal, clock } = options;
  const rules = sendBudgetRules(options.client.identity, DEFAULT_BUDGET_MARGIN_MS);
  await countRecentSends(options.budget, rules, journal, clock.now());
  const tally = new BroadcastTally(options.contacts, journal, clock);
  const queue = options.contacts.filter((c) => journal.state(c.phone) === undefined);
  let stop: BroadcastEnd | undefined;
  const aborted = (): boolean => options.signal?.aborted === true;
  let progressAt = Number.NEGATIVE_INFINITY;
  const progress = (force = false): void => {
    if (options.onProgress === undefined) return;
    if (!force && clock.now() - progressAt < 100) return;
    progressAt = clock.now();
    options.onProgress(tally.progress(queue.length));
  };

  const sendOne = async (contact: BroadcastContact): Promise<void> => {
    const phone = contact.phone;
    let result: SendResult;
    try {
      result = await options.limiter.withIntent(
        (at) => journal.append({ type: 'intent', phone, at }),
        () => options.client.send(options.requestFor(contact)),
      );
    } catch (error) {
      queue.unshift(contact);
      stop ??= {
        status: 'stopped',
        code: 'journal_failed',
        message: `could not send to ${phone}: ${error instanceof Error ? error.message : String(error)}`,
      };
      return;
    }
    const at = clock.now();
    switch (result.status) {
      case 'accepted':
        journal.append({
          type: 'outcome',
          phone,
          at,
          outcome: 'accepted',
          messageId: result.messageId,
        });
        break;
      case 'unknown':
        journal.append({ type: 'outcome', phone, at, outcome: 'unknown', code: result.reason });
        break;
      case 'rejected': {
        const code = result.error.code;
        if (result.retryable || STOP_CODES.has(code)) {
          journal.append({ type: 'outcome', phone, at, outcome: 'retry', code });
          queue.unshift(contact);
        } else {
          journal.append({ type: 'outcome', phone, at, outcome: 'rejected', code });
        }
        if (result.retryable) {
          tally.notePause(code);
          const ms = result.retryAfterMs ?? DEFAULT_PAUSE_MS;
          // The client already blocked the budget for a named wait; pause the others too.
          if (result.retryAfterMs === undefined)
            await options.budget.block(blockKeysFor(rules), clock.now() + ms);
          options.onPause?.(code, ms);
        } else if (STOP_CODES.has(code)) {
          stop ??= { status: 'stopped', code, message: result.error.message };
        }
        break;
      }
    }
    progress();
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      if (stop !== undefined || aborted()) return;
      const next = queue.shift();
      if (next === undefined) return;
      await sendOne(next);
    }
  };
  const drain = (): Promise<unknown> =>
    Promise.all(Array.from({ length: options.concurrency ?? 8 }, () => worker()));
  progress(true);
  await drain();
  // Look up what is in doubt; with `resendAfterAbsence`, what is absent is sent (once),
  // then looked up again.
  const maxResends = options.resendAfterAbsence === true ? MAX_RESENDS : 0;
  for (let round = 0; round <= maxResends && stop === undefined && !aborted(); round++) {
    const again = await reconcileDoubts(options, tally);
    if (again.length === 0) break;
    queue.push(...again);
    await drain();
  }
  progress(true);
  const end: BroadcastEnd =
    stop ?? (aborted() ? { status: 'interrupted' } : { status: 'completed' });
  return { end, tally };
}

/**
 * The API counts the key's traffic, not this process's: every send the journal saw
 * granted within the last window is taken into the fresh budget (at its grant time,
 * settled at its outcome time, or now when the process died mid-POST).
 */
async function countRecentSends(
  budget: Limiter,
  rules: readonly BudgetRule[],
  journal: BroadcastJournal,
  now: number,
): Promise<void> {
  const windowMs = Math.max(...rules.map((r) => r.windowMs));
  // The same keys and windows without a limit: these sends happened, they are recorded
  // whatever the budget says (a recorded completion is a little later than the limiter's).
  const record = rules.map((r) => ({ ...r, limit: Number.MAX_SAFE_INTEGER }));
  for (const send of journal.sendsSince(now - windowMs)) {
    const taken = await budget.take(record, send.at, { inFlightMs: now - send.at + windowMs });
    if (taken.ok) await budget.complete(record, taken.ticket, Math.min(send.doneAt ?? now, now));
  }
}

/**
 * Looks up every in-doubt contact of this list once its POST should have settled (spec
 * 4.5.6: read the conversation, never replay). Found: accepted, with its message id.
 * Not found: `unknown`, never sent again — a POST stalled in the API can still be
 * admitted after this read. Only with `resendAfterAbsence` is it returned to be sent
 * once more per contact (absent again after that, it stays `unknown`).
 */
async function reconcileDoubts(
  options: BroadcastRunOptions,
  tally: BroadcastTally,
): Promise<BroadcastContact[]> {
  const { journal, clock } = options;
  const doubts = new Map<string, number>();
  for (const contact of options.contacts) {
    const state = journal.state(contact.phone);
    // Unknown ones are looked up again too: a late message may have shown up since.
    if (state?.status === 'in_doubt' || state?.status === 'unknown')
      doubts.set(contact.phone, state.since);
  }
  if (doubts.size === 0) return [];
  const settleAt = Math.max(...doubts.values()) + (options.settleMs ?? 25_000);
  while (clock.now() < settleAt && options.signal?.aborted !== true) {
    tally.noteWaiting(settleAt);
    options.onProgress?.(tally.progress(0));
    await options.sleep(Math.min(1_000, settleAt - clock.now()));
  }
  if (options.signal?.aborted === true) return [];
  tally.noteWaiting(undefined);
  let found: Map<string, string | null>;
  try {
    found = await findSentMessages(options.client, doubts, options.fingerprintOf);
  } catch (error) {
    tally.noteReconcileError(error instanceof Error ? error.message : String(error));
    return [];
  }
  const maxResends = options.resendAfterAbsence === true ? MAX_RESENDS : 0;
  const resend: BroadcastContact[] = [];
  for (const contact of options.contacts) {
    const messageId = found.get(contact.phone);
    if (messageId === undefined) continue;
    const again = messageId === null && journal.resends(contact.phone) < maxResends;
    journal.append({
      type: 'reconciled',
      phone: contact.phone,
      at: clock.now(),
      found: messageId !== null,
      ...(messageId === null ? {} : { messageId }),
      ...(again ? { resend: true } : {}),
    });
    if (again) resend.push(contact);
  }
  return resend;
}
