/** Exactly-once and reply latency of the real-load benchmark, from the sandbox's send log. */
import { percentile } from './stats.js';

/** One inbound message the load generator injected. */
export interface Injected {
  readonly phone: string;
  /** Wall-clock ms just before it was handed to the sandbox. */
  readonly at: number;
  readonly inWindow: boolean;
}

/** One send the sandbox accepted. */
export interface SentItem {
  readonly to: string;
  readonly type: string;
  readonly text: string | undefined;
  readonly acceptedAt: string;
}

/** What {@link checkReplies} found. */
export interface ReplyCheck {
  readonly contacts: number;
  readonly injected: number;
  /** Contacts whose sends are not exactly `sendsPerInbound` per inbound message. */
  readonly wrongCount: number;
  /** Sends beyond, and missing from, `sendsPerInbound` per inbound message, over all contacts. */
  readonly extra: number;
  readonly missing: number;
  /** Greetings (first send of a reply) that are not the expected text. */
  readonly unexpected: number;
  /** Sends left out of the count because they match `options.timerSend` (a flow's own timers). */
  readonly timerSends: number;
  /** Inbound message (in the window) → the last send of its reply accepted, ms. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/**
 * Checks that every injected inbound message got exactly `sendsPerInbound` sends, in
 * order (contact by contact, the i-th message's reply is sends i·n … i·n+n-1, whose first
 * must match `greeting`), and measures reply latency for the messages of the window.
 */
export function checkReplies(
  injected: readonly Injected[],
  sent: readonly SentItem[],
  sendsPerInbound: number,
  greeting: RegExp,
  options: {
    /**
     * Sends a flow makes of its own (e.g. an idle goodbye after 30 minutes): not replies,
     * counted apart and left out, so a long run's check counts replies only.
     */
    readonly timerSend?: RegExp;
  } = {},
): ReplyCheck {
  const byContact = new Map<string, { in: Injected[]; out: SentItem[] }>();
  const entry = (phone: string): { in: Injected[]; out: SentItem[] } => {
    let e = byContact.get(phone);
    if (e === undefined) byContact.set(phone, (e = { in: [], out: [] }));
    return e;
  };
  for (const i of injected) entry(i.phone).in.push(i);
  let timerSends = 0;
  for (const s of sent) {
    if (options.timerSend?.test(s.text ?? '') === true) timerSends++;
    else entry(s.to).out.push(s);
  }
  let wrongCount = 0;
  let extra = 0;
  let missing = 0;
  let unexpected = 0;
  const latencies: number[] = [];
  for (const { in: ins, out } of byContact.values()) {
    const expected = ins.length * sendsPerInbound;
    if (out.length !== expected) wrongCount++;
    extra += Math.max(0, out.length - expected);
    missing += Math.max(0, expected - out.length);
    ins.forEach((i, k) => {
      const first = out[k * sendsPerInbound];
      if (first !== undefined && !greeting.test(first.text ?? '')) unexpected++;
      const last = out[k * sendsPerInbound + sendsPerInbound - 1];
      if (i.inWindow && last !== undefined) latencies.push(Date.parse(last.acceptedAt) - i.at);
    });
  }
  latencies.sort((a, b) => a - b);
  return {
    contacts: byContact.size,
    injected: injected.length,
    wrongCount,
    extra,
    missing,
    unexpected,
    timerSends,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.at(-1) ?? 0,
  };
}
