import type { OutboundStatus } from '../api/resources.js';
import type { SandboxConfig } from './config.js';
import type { ContactRecord, DeliveryPlan, MessageRecord } from './model.js';
import type { SandboxState } from './state.js';

/**
 * Plans an accepted message's status changes on the sandbox clock: sent, delivered and
 * (when the contact reads) read at the configured offsets from acceptance; or, for a
 * contact configured with a `failureCode`, failed at the `sent` offset.
 */
export function planDelivery(
  config: SandboxConfig,
  contact: ContactRecord,
  acceptedAt: number,
): DeliveryPlan {
  const d = config.delivery;
  if (contact.failureCode !== undefined) {
    return { failAt: acceptedAt + d.sentAfterMs, failureCode: contact.failureCode };
  }
  return {
    sentAt: acceptedAt + d.sentAfterMs,
    deliveredAt: acceptedAt + d.deliveredAfterMs,
    ...(contact.reads ? { readAt: acceptedAt + d.readAfterMs } : {}),
  };
}

/**
 * Applies every status change and media availability change that is due at `now`, in
 * time order, emitting a `message.status` event for each status change.
 * @returns the number of changes applied.
 */
export function runDueTransitions(state: SandboxState, now: number): number {
  let applied = 0;
  const outbound = [...state.messages.values()]
    .filter((m) => m.direction === 'outbound' && hasSteps(m.plan))
    .sort((a, b) => a.seq - b.seq);
  for (const message of outbound) {
    // One step at a time: each change removes its step (or the whole plan) from the plan.
    for (
      let step = dueSteps(message.plan, now)[0];
      step !== undefined;
      step = dueSteps(message.plan, now)[0]
    ) {
      if (step.status === 'failed') {
        setStatus(state, message, 'failed', step.failureCode);
      } else {
        setStatus(state, message, step.status, undefined);
      }
      applied++;
    }
  }
  for (const media of state.media.values()) {
    if (media.availability === 'pending' && media.readyAt !== undefined && media.readyAt <= now) {
      media.availability = media.final;
      media.readyAt = undefined;
      applied++;
    }
  }
  return applied;
}

/**
 * Sets an outbound message's status (scheduled or forced), drops planned steps that the
 * new status makes moot, and emits a `message.status` event.
 */
export function setStatus(
  state: SandboxState,
  message: MessageRecord,
  status: OutboundStatus,
  failureCode: string | undefined,
): void {
  message.status = status;
  message.failureCode = status === 'failed' ? failureCode : undefined;
  const plan = message.plan;
  if (status === 'failed' || status === 'read') {
    message.plan = {};
  } else {
    const rank = RANK[status];
    if (rank >= RANK.sent) delete plan.sentAt;
    if (rank >= RANK.delivered) delete plan.deliveredAt;
    if (rank >= RANK.sent) {
      delete plan.failAt;
      delete plan.failureCode;
    }
  }
  state.emit({ type: 'message.status', message });
}

const RANK: Record<OutboundStatus, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 4,
};

type Step =
  | { at: number; status: 'sent' | 'delivered' | 'read' }
  | { at: number; status: 'failed'; failureCode: string | undefined };

function hasSteps(plan: DeliveryPlan): boolean {
  return (
    plan.sentAt !== undefined ||
    plan.deliveredAt !== undefined ||
    plan.readAt !== undefined ||
    plan.failAt !== undefined
  );
}

function dueSteps(plan: DeliveryPlan, now: number): Step[] {
  const steps: Step[] = [];
  if (plan.failAt !== undefined)
    steps.push({ at: plan.failAt, status: 'failed', failureCode: plan.failureCode });
  if (plan.sentAt !== undefined) steps.push({ at: plan.sentAt, status: 'sent' });
  if (plan.deliveredAt !== undefined) steps.push({ at: plan.deliveredAt, status: 'delivered' });
  if (plan.readAt !== undefined) steps.push({ at: plan.readAt, status: 'read' });
  // Stable sort keeps sent before delivered before read at equal times.
  return steps.filter((s) => s.at <= now).sort((a, b) => a.at - b.at);
}
