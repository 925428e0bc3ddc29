/**
 * Child process of the memory benchmark (run with --expose-gc): fills a MemoryStore with
 * N idle conversations through the real engine path (one inbound message each: dedup
 * key, conversation document, send record) and prints RSS/heap deltas and document sizes:
 * right after the fill (and a GC), and once the process has sat idle until V8 stopped
 * shrinking its heap (its memory reducer compacts and releases old-space pages some
 * seconds after allocation stops; nothing is forced). The conversation journal is on as
 * `switchboard run` has it (its options from the environment over the defaults:
 * SWITCHBOARD_JOURNAL=0 measures without it); the figures say how much of each document
 * it takes.
 */
import type { SendResult } from '../src/api/send-result.js';
import { createBot } from '../src/engine/create-bot.js';
import { resolveJournalOptions } from '../src/journal/journal.js';
import type { EngineClient } from '../src/engine/types.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { benchFlow } from './bench-flow.js';

const total = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
const settle = (): NodeJS.MemoryUsage => {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage();
};

/**
 * Longest wait for the heap to settle, and how long it must stay unchanged after a shrink.
 * V8's memory reducer shrinks an idle heap in steps, and may wait for its watchdog (100 s
 * after the last GC) before the first: on a loaded machine the first shrink of 100k
 * conversations came after 108 s and the last after 210 s (432 → 280 MB RSS), so a
 * heap is settled only once it has stayed the same for longer than that watchdog.
 */
const IDLE_MAX_MS = 330_000;
const IDLE_STABLE_MS = 110_000;

/**
 * Sits idle (no allocation of its own beyond sampling) until the heap has shrunk and then
 * stayed the same size for IDLE_STABLE_MS, or IDLE_MAX_MS passed; returns the memory then
 * (RSS before any forced GC).
 */
async function sitIdle(): Promise<NodeJS.MemoryUsage & { readonly idleSeconds: number }> {
  const start = Date.now();
  let last = process.memoryUsage();
  let shrunk = false;
  let stableSince = Date.now();
  while (Date.now() - start < IDLE_MAX_MS) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = process.memoryUsage();
    if (now.heapTotal !== last.heapTotal) {
      shrunk ||= now.heapTotal < last.heapTotal;
      stableSince = Date.now();
    } else if (shrunk && Date.now() - stableSince >= IDLE_STABLE_MS) break;
    last = now;
  }
  // RSS as the idle process left it; the GCs after it only make heapUsed count live data.
  const rss = process.memoryUsage().rss;
  return { ...settle(), rss, idleSeconds: (Date.now() - start) / 1000 };
}

let id = 0;
const client: EngineClient = {
  send: (): Promise<SendResult> =>
    Promise.resolve({ status: 'accepted', messageId: `wamid_${++id}` }),
  listConversations: () => Promise.resolve({ items: [], nextCursor: null }),
  listMessages: () => Promise.resolve({ items: [], nextCursor: null }),
  getMessage: () => Promise.reject(new Error('not used')),
};
const store = new MemoryStore();
const journal = resolveJournalOptions(undefined, process.env);
const bot = createBot({
  flows: [benchFlow()],
  api: { client },
  store,
  tickMs: 0,
  concurrency: 64,
  journal,
});
await bot.start();
const before = settle();
const at = Date.now();
const started = Date.now();
for (let i = 0; i < total; i += 1000) {
  const batch: Promise<unknown>[] = [];
  for (let c = i; c < Math.min(total, i + 1000); c++) {
    batch.push(
      bot.handle({
        kind: 'inbound',
        contact: { phone: `+1555${String(3_000_000 + c)}`, id: `ct_${c}`, name: `Contact ${c}` },
        message: {
          id: `m_${c}`,
          conversationId: `conv_${c}`,
          type: 'text',
          text: 'hi',
          occurredAt: new Date(at).toISOString(),
        },
      }),
    );
  }
  await Promise.all(batch);
  await bot.idle();
}
const fillSeconds = (Date.now() - started) / 1000;
const after = settle();
const idle = await sitIdle();
let docBytes = 0;
let snapshotBytes = 0;
let maxDocBytes = 0;
let journalBytes = 0;
let journalEntries = 0;
const sample = 1000;
for (let c = 0; c < total; c += Math.max(1, Math.floor(total / sample))) {
  const stored = await store.getConversation(`conv_${c}`);
  const value = stored?.value as { snapshot?: unknown; journal?: unknown[] } | undefined;
  const doc = Buffer.byteLength(JSON.stringify(value ?? null));
  docBytes += doc;
  maxDocBytes = Math.max(maxDocBytes, doc);
  snapshotBytes += Buffer.byteLength(JSON.stringify(value?.snapshot ?? null));
  if (value?.journal !== undefined) {
    // The bytes the journal adds: `,"journal":[…]` in the document.
    journalBytes += Buffer.byteLength(`,"journal":${JSON.stringify(value.journal)}`);
    journalEntries += value.journal.length;
  }
}
const n = Math.min(sample, total);
const fed = await store.getConversation(`conv_${total - 1}`);
process.stdout.write(
  `${JSON.stringify({
    conversations: total,
    stored: fed === undefined ? 0 : total,
    fillSeconds,
    rssBeforeMb: before.rss / 2 ** 20,
    rssAfterMb: after.rss / 2 ** 20,
    rssDeltaMb: (after.rss - before.rss) / 2 ** 20,
    heapDeltaMb: (after.heapUsed - before.heapUsed) / 2 ** 20,
    idleSeconds: idle.idleSeconds,
    idleRssMb: idle.rss / 2 ** 20,
    idleRssDeltaMb: (idle.rss - before.rss) / 2 ** 20,
    idleHeapDeltaMb: (idle.heapUsed - before.heapUsed) / 2 ** 20,
    avgDocBytes: docBytes / n,
    maxDocBytes,
    avgSnapshotBytes: snapshotBytes / n,
    journalOn: journal.enabled,
    avgJournalBytes: journalBytes / n,
    avgJournalEntries: journalEntries / n,
  })}\n`,
);
await bot.stop();
