import type { FlowEvent } from '../flows/contract.js';
import { RECONCILE_TIMER_PREFIX, type EngineDeps } from './engine-deps.js';
import { reconcileSend } from './reconcile.js';
import { sendRecordId, WRITER_DIED } from './send-adapter.js';
import { z } from 'zod';
import type { SendRequest } from '../messages/index.js';
import type { SendRecord } from '../store/store.js';
import type { NewEntry } from '../journal/journal-writer.js';

/** Takes the journal entry of a reconciliation attempt (see src/journal/). */
export type NoteReconcile = (entry: Extract<NewEntry, { kind: 'reconcile' }>) => void;

/** A status hint (callback or polled history) about an outbound message. */
export interface StatusHint {
  readonly messageId: string;
  readonly hinted: string;
  readonly code: string | undefined;
}

/**
 * Follows an accepted send's status. Callbacks are hints: the message read is the
 * truth (the hint is used only when the read fails). Returns the `send.failed` event
 * for the flow when the message failed, once, and only for the conversation's current
 * run (`epoch`).
 */
export async function followStatus(
  deps: EngineDeps,
  conversationId: string,
  epoch: number,
  hint: StatusHint,
): Promise<FlowEvent | undefined> {
  // Only a failure matters to the flow; other statuses need no read.
  if (hint.hinted !== 'failed') return undefined;
  let status = hint.hinted;
  let code = hint.code;
  try {
    const message = await deps.client.getMessage(hint.messageId);
    status = message.status;
    code = message.failureCode;
  } catch (error) {
    deps.logger.warn('could not read message status; using the callback', {
      messageId: hint.messageId,
      error: String(error),
    });
  }
  if (status !== 'failed') return undefined;
  const record = await deps.store.findSendByMessageId(hint.messageId);
  if (record === undefined || record.state === 'failed') return undefined;
  await deps.store.putSend({ ...record, state: 'failed', code: code ?? 'failed' });
  if (record.id !== sendRecordId(conversationId, epoch, record.seq)) return undefined;
  return {
    type: 'send.failed',
    seq: record.seq,
    code: code ?? 'failed',
    messageId: hint.messageId,
  };
}

/** Sends given again after a proof of absence, at most. */
export const MAX_RESENDS = 1;

/**
 * One reconciliation attempt of a send whose outcome is unknown (spec 4.5.6): found in
 * history → `reconciled`; not found → another attempt later through a durable timer.
 * Out of attempts without finding it → `send.unknown` for the flow; the framework never
 * sends it again (spec 4.5.6: an uncertain POST is not replayed automatically — a
 * stalled POST can still be admitted after any read that missed it).
 * One exception by default: a send whose writer died between its intent and the POST's
 * answer ({@link WRITER_DIED}: a kill -9, a crash) is sent once more when absent from
 * history at least `absenceProofMs` after the restart found it — no live client holds that
 * request any more, and without it the message would never be answered. With
 * `sends.resendAfterAbsence` (opt-in: availability over the duplicate risk) every unknown
 * send is treated so, also an uncertain timeout seen by a live process.
 */
export async function followUnknownSend(
  deps: EngineDeps,
  conversationId: string,
  epoch: number,
  sendId: string,
  attempt: number,
  note: NoteReconcile = () => undefined,
): Promise<FlowEvent | undefined> {
  const record = await deps.store.getSend(sendId);
  if (record === undefined || record.state !== 'unknown') return undefined;
  const result = await reconcileSend(deps, record);
  const entry = { kind: 'reconcile', sendId, seq: record.seq, attempt } as const;
  if (result.status === 'found') {
    note({ ...entry, result: 'found', messageId: result.messageId });
    const { request: _request, ...rest } = record;
    await deps.store.putSend({ ...rest, state: 'reconciled', messageId: result.messageId });
    deps.logger.info('unknown send reconciled: it was admitted', {
      sendId,
      messageId: result.messageId,
    });
    return undefined;
  }
  const resends = record.resends ?? 0;
  if (
    (deps.resendAfterAbsence || record.code === WRITER_DIED) &&
    result.status === 'not_found' &&
    record.request !== undefined &&
    resends < MAX_RESENDS &&
    deps.clock.now() - (record.unknownSince ?? record.startedAt) >= deps.absenceProofMs
  ) {
    return resend(deps, conversationId, epoch, record, attempt, (outcome) =>
      note({ ...entry, result: 'resent', ...outcome }),
    );
  }
  if (result.status === 'error') {
    deps.logger.warn('reconciliation read failed', { sendId, error: String(result.error) });
  }
  const next = attempt + 1;
  if (next < deps.reconcileAttempts * (1 + resends)) {
    const delays = deps.reconcileDelaysMs;
    const delay = delays[attempt % deps.reconcileAttempts] ?? delays.at(-1) ?? 5000;
    await scheduleAttempt(deps, conversationId, sendId, next, delay);
    note({ ...entry, result: 'retry' });
    return undefined;
  }
  note({ ...entry, result: 'gave_up' });
  deps.logger.warn(
    'unknown send not found in history; telling the flow send.unknown (it is never sent again)',
    { sendId, reads: next },
  );
  if (record.id !== sendRecordId(conversationId, epoch, record.seq)) return undefined;
  return { type: 'send.unknown', seq: record.seq };
}

/** Sends a request proven never admitted once more, under the same record. */
async function resend(
  deps: EngineDeps,
  conversationId: string,
  epoch: number,
  record: SendRecord,
  attempt: number,
  noted: (outcome: { messageId?: string; code?: string }) => void,
): Promise<FlowEvent | undefined> {
  const parsed = SendRequestShape.safeParse(record.request);
  if (!parsed.success) return undefined;
  const request = parsed.data as unknown as SendRequest;
  deps.logger.info('unknown send proven absent from history; sending it once more', {
    sendId: record.id,
  });
  const startedAt = deps.clock.now();
  const resends = (record.resends ?? 0) + 1;
  await deps.store.putSend({ ...record, state: 'pending', startedAt, resends });
  const result = await deps.client.send(request);
  const { request: _request, ...base } = record;
  if (result.status === 'accepted') {
    await deps.store.putSend({
      ...base,
      state: 'accepted',
      startedAt,
      resends,
      messageId: result.messageId,
    });
    noted({ messageId: result.messageId });
    return undefined;
  }
  if (result.status === 'unknown') {
    await deps.store.putSend({
      ...record,
      state: 'unknown',
      startedAt,
      resends,
      unknownSince: deps.clock.now(),
    });
    const delay = deps.reconcileDelaysMs[0] ?? 5000;
    await scheduleAttempt(deps, conversationId, record.id, attempt + 1, delay);
    noted({});
    return undefined;
  }
  const code = String(result.error.code);
  noted({ code });
  await deps.store.putSend({ ...base, state: 'rejected', startedAt, resends, code });
  if (record.id !== sendRecordId(conversationId, epoch, record.seq)) return undefined;
  return { type: 'send.failed', seq: record.seq, code };
}

async function scheduleAttempt(
  deps: EngineDeps,
  conversationId: string,
  sendId: string,
  attempt: number,
  delayMs: number,
): Promise<void> {
  await deps.store.scheduleTimer({
    id: `${conversationId}:${RECONCILE_TIMER_PREFIX}${sendId}`,
    conversationId,
    name: `${RECONCILE_TIMER_PREFIX}${sendId}#${attempt}`,
    dueAt: deps.clock.now() + delayMs,
  });
}

/** What a stored request must look like to be sent again (the builders checked it before). */
const SendRequestShape = z.looseObject({
  messaging_product: z.string(),
  to: z.string(),
  type: z.string(),
});
