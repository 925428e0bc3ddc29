import { MESSAGING_PRODUCT } from '../api/resources.js';
import { LIMITS } from '../core/limits.js';
import type { OutboundContent } from '../flows/contract.js';
import { takeValidatedContent } from '../flows/flow-runtime.js';
import { formatIssue, validateSendRequest, type SendRequest } from '../messages/index.js';
import { E164 } from '../messages/send-request.js';
import type { ValidationResult } from '../messages/issues.js';
import type { SendRecord } from '../store/store.js';
import type { EngineDeps } from './engine-deps.js';

/** What became of one send effect. */
export type SendOutcome =
  | { readonly status: 'accepted'; readonly messageId: string }
  /** A definite rejection: reported to the flow as `send.failed { code }`. */
  | { readonly status: 'rejected'; readonly code: string }
  /** 409 `conversation_owned_by_human`: pause, never retry around it. */
  | { readonly status: 'owned' }
  /** 409 `service_window_closed`: the window rule applies. */
  | { readonly status: 'window_closed' }
  /** Timeout / 5xx: never replayed; reconciliation runs from the record. */
  | { readonly status: 'unknown'; readonly record: SendRecord }
  /** A record already exists in a final state (a repeated effect after a crash). */
  | { readonly status: 'done'; readonly record: SendRecord };

const RESENDABLE: ReadonlySet<string> = new Set([
  'service_window_closed',
  'conversation_owned_by_human',
]);

/** One send to carry out. */
export interface SendJob {
  readonly conversationId: string;
  readonly epoch: number;
  readonly seq: number;
  readonly to: string;
  readonly content: OutboundContent;
  /**
   * No record can exist under this id: the effect was produced by this very run, after
   * the save that stored it (a crash before that save re-runs the step; after it, the
   * stored pending effects run without `fresh`). Skips the record lookup.
   */
  readonly fresh?: boolean;
  /**
   * Takes the `accepted` record instead of writing it, so that it goes with the document
   * write that ends the turn (`Store.putConversationWith`: no write of its own). The
   * caller must write every record it took, with or before the document that says the
   * send ran: until then the record says `pending`, which a retry after a crash treats as
   * an unknown outcome (reconciled from history, never replayed).
   */
  readonly defer?: (record: SendRecord) => void;
}

/**
 * Builds and validates the request. Content that a compiled flow validated in this
 * process (the same object) is not validated again: the envelope (`to`) and the body
 * size are all that is left to check; anything else goes through the full validation
 * (whose fast path for text is cheaper than measuring the JSON).
 */
function buildRequest(to: string, content: OutboundContent): ValidationResult<SendRequest> {
  const trusted = takeValidatedContent(content);
  if (trusted !== undefined && trusted.type !== 'text' && E164.test(to)) {
    const request: SendRequest = { messaging_product: MESSAGING_PRODUCT, to, ...trusted };
    if (Buffer.byteLength(JSON.stringify(request)) <= LIMITS.requestBodyBytes)
      return { status: 'valid', value: request };
  }
  return validateSendRequest({ messaging_product: MESSAGING_PRODUCT, to, ...content });
}

/** The id of a send record: `<conversationId>:<epoch>:<seq>`. */
export function sendRecordId(conversationId: string, epoch: number, seq: number): string {
  return `${conversationId}:${epoch}:${seq}`;
}

/**
 * The `code` of an unknown send whose writer died before the POST's answer (found
 * `pending` after a restart), as opposed to an uncertain answer seen by a live process.
 */
export const WRITER_DIED = 'writer_died';

/**
 * Sends one message: builds and validates the request with the message builders, writes
 * a `pending` record before the POST, and maps the client's result. A 429/503 rejection
 * (nothing was admitted) is retried after its hint; an unknown outcome never is.
 */
export async function sendMessage(deps: EngineDeps, job: SendJob): Promise<SendOutcome> {
  const id = sendRecordId(job.conversationId, job.epoch, job.seq);
  const existing = job.fresh === true ? undefined : await deps.store.getSend(id);
  if (existing !== undefined) {
    // A record written before a crash: pending means the POST may have gone out.
    if (existing.state === 'pending' || existing.state === 'unknown') {
      const unknownSince = existing.unknownSince ?? deps.clock.now();
      // Still pending: its writer died before the POST's answer (see send-followup.ts).
      const code = existing.state === 'pending' ? WRITER_DIED : existing.code;
      const record = {
        ...existing,
        state: 'unknown' as const,
        unknownSince,
        ...(code === undefined ? {} : { code }),
      };
      await deps.store.putSend(record);
      return { status: 'unknown', record };
    }
    // A definite rejection for window or ownership admitted nothing: safe to send again.
    if (!(existing.state === 'rejected' && RESENDABLE.has(existing.code ?? ''))) {
      return { status: 'done', record: existing };
    }
  }
  const built = buildRequest(job.to, job.content);
  if (built.status === 'invalid') {
    deps.logger.error('send content is invalid; not sent', {
      conversationId: job.conversationId,
      seq: job.seq,
      issues: built.issues.map((i) => formatIssue(i)),
    });
    return { status: 'rejected', code: 'invalid_content' };
  }
  const request = built.value;
  const { conversationId, seq } = job;
  const contentType = request.type;
  // The two records of every send are literals: a spread of `base` plus fields it lacks
  // takes V8's slow clone (~6% of the engine's CPU, profiled). The rare outcomes spread it.
  const base = { id, conversationId, seq, contentType };
  for (let attempt = 0; ; attempt++) {
    const startedAt = deps.clock.now();
    const pending: SendRecord = {
      id,
      conversationId,
      seq,
      contentType,
      state: 'pending',
      startedAt,
      request,
    };
    await deps.store.putSend(pending);
    const post = (): ReturnType<typeof deps.client.send> => deps.client.send(request);
    const result = await (deps.tracing === undefined
      ? post()
      : deps.tracing.send(conversationId, { seq, contentType, attempt }, post));
    if (result.status === 'accepted') {
      const accepted: SendRecord = {
        id,
        conversationId,
        seq,
        contentType,
        state: 'accepted',
        startedAt,
        messageId: result.messageId,
      };
      if (job.defer === undefined) await deps.store.putSend(accepted);
      else job.defer(accepted);
      return { status: 'accepted', messageId: result.messageId };
    }
    if (result.status === 'unknown') {
      const record: SendRecord = {
        ...base,
        state: 'unknown',
        startedAt: result.startedAt,
        unknownSince: deps.clock.now(),
        request,
      };
      await deps.store.putSend(record);
      deps.logger.warn('send outcome unknown; reconciling, never replaying', {
        conversationId: job.conversationId,
        seq: job.seq,
        reason: result.reason,
      });
      return { status: 'unknown', record };
    }
    const code = String(result.error.code);
    await deps.store.putSend({ ...base, state: 'rejected', startedAt, code });
    if (code === 'conversation_owned_by_human') return { status: 'owned' };
    if (code === 'service_window_closed') return { status: 'window_closed' };
    if (result.retryable && attempt < deps.sendRetries && !deps.stopSignal.aborted) {
      const wait = result.retryAfterMs ?? result.error.retryAfterMs ?? 1000 * 2 ** attempt;
      deps.logger.info('send rejected as retryable; waiting before another try', {
        code,
        waitMs: wait,
      });
      await deps.sleep(wait);
      continue;
    }
    return { status: 'rejected', code };
  }
}
