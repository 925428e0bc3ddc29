/** What the real-load benchmark reads from its processes, and the callbacks it signs. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { signCallback } from '../src/api/callbacks.js';

/** Counts by name (requests, callbacks or store operations). */
export type Counts = Readonly<Record<string, number>>;

const SandboxCounts = z.object({
  requests: z.record(z.string(), z.number()),
  callbacks: z.record(z.string(), z.number()),
  cpuMicros: z.number(),
});

/**
 * The sandbox process's counts: API requests (`GET messages 200`, `POST messages 202`, …)
 * and callbacks attempted (`callback message.status 200`, …), and its CPU so far (ms).
 */
export async function sandboxCounts(url: string): Promise<{ counts: Counts; cpuMs: number }> {
  const raw = SandboxCounts.parse(await fetch(`${url}/__bench/counts`).then((r) => r.json()));
  const counts: Record<string, number> = {};
  for (const [k, n] of Object.entries(raw.requests)) if (!k.startsWith('control')) counts[k] = n;
  for (const [k, n] of Object.entries(raw.callbacks)) counts[`callback ${k}`] = n;
  return { counts, cpuMs: raw.cpuMicros / 1000 };
}

/** The bot's `switchboard_store_operations_total` by `operation kind`, from its /metrics. */
export async function storeOperations(botUrl: string): Promise<Counts> {
  const text = await fetch(`${botUrl}/metrics`).then((r) => r.text());
  const counts: Record<string, number> = {};
  const line = /^switchboard_store_operations_total\{operation="([^"]+)",kind="([^"]+)"\} (\S+)$/gm;
  for (const m of text.matchAll(line)) counts[`${m[2] ?? ''} ${m[1] ?? ''}`] = Number(m[3]);
  return counts;
}

/** (end − start) / n for every name of `end`, rounded to 2 decimals, zeros left out. */
export function perInbound(end: Counts, start: Counts, n: number): Counts {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(end)) {
    const d = (v - (start[k] ?? 0)) / Math.max(1, n);
    if (d !== 0) out[k] = Math.round(d * 100) / 100;
  }
  return out;
}

/** Sum of the entries of `counts` whose name passes `pick`. */
export const sumOf = (counts: Counts, pick: (name: string) => boolean): number =>
  Object.entries(counts).reduce((s, [k, v]) => (pick(k) ? s + v : s), 0);

/** A signed `message.status` callback for a message the bot sent (a status that changes nothing). */
export function statusCallbackBody(
  secret: string,
  target: { readonly messageId: string; readonly conversationId: string },
  status: 'delivered' | 'read',
): { body: string; headers: Record<string, string> } {
  const now = Date.now();
  const body = JSON.stringify({
    id: `evt_${randomUUID()}`,
    type: 'message.status',
    occurredAt: new Date(now).toISOString(),
    data: { messageId: target.messageId, conversationId: target.conversationId, status },
  });
  const ts = Math.floor(now / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-callback-timestamp': String(ts),
      'x-callback-signature': signCallback(secret, ts, body),
    },
  };
}

/** Deletes every Redis key under `prefix` (the bench's own random prefix). */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}
