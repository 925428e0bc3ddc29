import { defineBot } from 'switchboard';
import type { Handler } from 'switchboard';

/** The fake order database of the example. */
export const orders: Readonly<
  Record<string, { status: 'ready' | 'shipped' | 'processing'; detail: string }>
> = {
  '1234567': { status: 'ready', detail: 'Ready since this morning.' },
  '2345678': { status: 'shipped', detail: 'It should arrive on Thursday.' },
  '3456789': { status: 'processing', detail: 'It will ship tomorrow.' },
};

/** Messages that could not be delivered, as `reportUndeliverable` recorded them. */
export const undeliverable: { reason: string; code: string; orderNumber: string }[] = [];

/** Looks an order up; the outcome is its status (or `notFound`). */
const lookupOrder: Handler = ({ input }) => {
  const order = orders[String(input['orderNumber'])];
  if (order === undefined) return { outcome: 'notFound' };
  return { outcome: order.status, vars: { orderStatus: order.detail } };
};

/**
 * Records a send that was rejected (opted out) or failed later, for follow-up by e-mail.
 * The flow routes once per failed reply: when every message of one reply fails (an
 * opted-out contact), the later failures of that batch are ignored by the flow.
 */
const reportUndeliverable: Handler = ({ input, logger }) => {
  const entry = {
    reason: String(input['reason']),
    code: String(input['code']),
    orderNumber: String(input['orderNumber']),
  };
  undeliverable.push(entry);
  logger.warn('message undeliverable', entry);
  return { outcome: 'logged' };
};

/**
 * Order status: the order number is captured and looked up; a ready order gets its
 * invoice (document link), the pickup point (location) and the store's contact card.
 * Rejected sends (opted out) and later failures are reported by a handler.
 */
export const bot = defineBot({
  flows: [new URL('../../flows/order-status.yaml', import.meta.url)],
  handlers: { lookupOrder, reportUndeliverable },
});
