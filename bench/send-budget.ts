/**
 * Send budget used under saturating load, and 429s.
 *
 * Method (faithful and fast): two API keys on two numbers of one workspace, each driven
 * by a sender that always has another message to send, through the real
 * `MessagingClient` and the real limiter, against the sandbox (which enforces the
 * spec's budgets itself and answers 429 when they are exceeded). Time is a
 * `ManualClock` shared by the client and the sandbox: when the limiter says "wait N ms",
 * the client's sleep advances the clock by N ms instead of sleeping. This runs
 * `minutes` simulated minutes in a few seconds; the same rules (20/s, 600/min per key and
 * number, 1,200/min workspace) apply as in real time. The share is the number of sends
 * the sandbox accepted in the last full 60 s window, divided by the budget.
 */
import { ManualClock } from '../src/core/clock.js';
import { MessagingClient } from '../src/api/client.js';
import type { Limiter } from '../src/api/limiter.js';
import { MemoryLimiter } from '../src/api/memory-limiter.js';
import { buildSendRequest, text } from '../src/messages/index.js';
import { createSandbox, parseSandboxConfig } from '../src/sandbox/index.js';
import { serveCounted } from './counted-sandbox.js';

/** Figures of the budget benchmark. */
export interface SendBudgetFigures {
  readonly limiter: string;
  readonly simulatedMinutes: number;
  /** Sends accepted in the last full minute, per number (budget 600). */
  readonly perNumberLastMinute: readonly number[];
  /** Sends accepted in the last full minute, workspace (budget 1,200). */
  readonly workspaceLastMinute: number;
  readonly numberShare: number;
  readonly workspaceShare: number;
  /** Most sends in any 1 s window per number (budget 20). */
  readonly maxPerSecond: number;
  readonly count429: number;
  readonly accepted: number;
}

const KEYS = ['sk_bench_key_a_0123456789', 'sk_bench_key_b_0123456789'];
const CONTACTS = ['+15551230001', '+15551230002'];

/** Runs the budget benchmark with a limiter built by `makeLimiter(clock)` (default MemoryLimiter). */
export async function sendBudget(
  minutes = 3,
  makeLimiter: (clock: ManualClock) => Limiter = (clock) => new MemoryLimiter({ clock }),
  label = 'MemoryLimiter',
): Promise<SendBudgetFigures> {
  const clock = new ManualClock(Date.parse('2026-01-05T09:00:00.000Z'));
  const parsed = parseSandboxConfig({
    workspace: 'ws_bench',
    numbers: [
      { id: 'num_a', phoneNumber: '+15550000001' },
      { id: 'num_b', phoneNumber: '+15550000002' },
    ],
    keys: KEYS.map((key, i) => ({ key, number: i === 0 ? 'num_a' : 'num_b' })),
    contacts: CONTACTS.map((phoneNumber, i) => ({ phoneNumber, name: `Contact ${i}` })),
  });
  if (parsed.status !== 'valid') throw new Error(`bench sandbox config: ${JSON.stringify(parsed)}`);
  const sandbox = createSandbox({ config: parsed.config, clock, tickMs: 0 });
  const served = await serveCounted(sandbox);
  for (const number of ['num_a', 'num_b']) {
    for (const from of CONTACTS)
      sandbox.control.injectInbound({ type: 'text', from, number, text: 'hi' });
  }
  const limiter = makeLimiter(clock);
  const sleep = (ms: number): Promise<void> => {
    clock.set(Math.max(clock.now(), clock.now() + ms));
    return Promise.resolve();
  };
  const start = clock.now();
  const end = start + minutes * 60_000;
  const senders = KEYS.map(async (apiKey, k) => {
    const client = new MessagingClient({
      baseUrl: served.url,
      apiKey,
      limiter,
      clock,
      sleep,
      identity: { numberId: k === 0 ? 'num_a' : 'num_b', workspaceId: 'ws_bench' },
    });
    let i = 0;
    while (clock.now() < end) {
      const to = CONTACTS[i++ % CONTACTS.length]!;
      await client.send(buildSendRequest(to, text(`budget ${k}-${i}`)));
    }
  });
  await Promise.all(senders);
  const sent = sandbox.control.sent();
  await served.close();
  await sandbox.close();

  const times = (numberId?: string): number[] =>
    sent
      .filter((s) => numberId === undefined || s.numberId === numberId)
      .map((s) => Date.parse(s.acceptedAt));
  const lastMinute = (ts: number[]): number =>
    ts.filter((t) => t >= end - 60_000 && t < end).length;
  const maxInWindow = (ts: number[], windowMs: number): number => {
    let best = 0;
    let lo = 0;
    for (let hi = 0; hi < ts.length; hi++) {
      while ((ts[lo] ?? 0) <= (ts[hi] ?? 0) - windowMs) lo++;
      best = Math.max(best, hi - lo + 1);
    }
    return best;
  };
  const perNumber = ['num_a', 'num_b'].map((n) => lastMinute(times(n)));
  const workspace = lastMinute(times());
  return {
    limiter: label,
    simulatedMinutes: minutes,
    perNumberLastMinute: perNumber,
    workspaceLastMinute: workspace,
    numberShare: Math.min(...perNumber) / 600,
    workspaceShare: workspace / 1_200,
    maxPerSecond: Math.max(maxInWindow(times('num_a'), 1_000), maxInWindow(times('num_b'), 1_000)),
    count429: served.statuses.get(429) ?? 0,
    accepted: sent.length,
  };
}
