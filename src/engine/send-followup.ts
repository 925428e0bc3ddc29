import type { FlowEvent } from '../flows/contract.js';
import { RECONCILE_TIMER_PREFIX, type EngineDeps } from './engine-deps.js';
import { reconcileSend } from './reconcile.js';
import { sendRecordId } from './send-adapter.js';

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

/**
 * One reconciliation attempt of a send whose outcome is unknown (spec 4.5.6): found in
 * history → `reconciled`; not found → another attempt later through a durable timer;
 * out of attempts → `send.unknown` for the flow. Never sends.
 */
export async function followUnknownSend(
  deps: EngineDeps,
  conversationId: string,
  epoch: number,
  sendId: string,
  attempt: number,
): Promise<FlowEvent | undefined> {
  const record = await deps.store.getSend(sendId);
  if (record === undefined || record.state !== 'unknown') return undefined;
  const result = await reconcileSend(deps, record);
  if (result.status === 'found') {
    await deps.store.putSend({ ...record, state: 'reconciled', messageId: result.messageId });
    deps.logger.info('unknown send reconciled: it was admitted', {
      sendId,
      messageId: result.messageId,
    });
    return undefined;
  }
  if (result.status === 'error') {
    deps.logger.warn('reconciliation read failed', { sendId, error: String(result.error) });
  }
  const next = attempt + 1;
  if (next < deps.reconcileAttempts) {
    const delay = deps.reconcileDelaysMs[attempt] ?? deps.reconcileDelaysMs.at(-1) ?? 5000;
    await deps.store.scheduleTimer({
      id: `${conversationId}:${RECONCILE_TIMER_PREFIX}${sendId}`,
      conversationId,
      name: `${RECONCILE_TIMER_PREFIX}${sendId}#${next}`,
      dueAt: deps.clock.now() + delay,
    });
    return undefined;
  }
  deps.logger.warn('unknown send could not be confirmed; telling the flow', { sendId });
  if (record.id !== sendRecordId(conversationId, epoch, record.seq)) return undefined;
  return { type: 'send.unknown', seq: record.seq };
}
